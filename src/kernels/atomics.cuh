// Combining one value into an element of global (or shared) memory that other threads update at
// the same time: the building block of ufunc.at, bincount and the histograms
// (src/ops/engines/scatter_combine/scatter_combine.cpp). `update(old) -> new` is the ufunc's own loop; every method applies
// it unbuffered, so repeated indices see each other's results.
namespace cuarray {

template <class To, class From>
__device__ __forceinline__ To bits_as(const From& v) {
  static_assert(sizeof(To) == sizeof(From), "bits_as needs equal sizes");
  union {
    From from;
    To to;
  } u{v};
  return u.to;
}

template <int Bytes> struct small_word;
template <> struct small_word<1> { using type = unsigned char; };
template <> struct small_word<2> { using type = unsigned short; };

// Compare-and-swap loop on the element's own word (4 or 8 bytes), or, for 1- and 2-byte types, on
// the aligned 4-byte word that contains it (the neighbours' bytes are carried through unchanged).
template <class T, class Update>
__device__ __forceinline__ void atomic_update_cas(T* p, Update update) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long* w = reinterpret_cast<unsigned long long*>(p);
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(w), assumed;
    do {
      assumed = old;
      old = atomicCAS(w, assumed, bits_as<unsigned long long>(update(bits_as<T>(assumed))));
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 4) {
    unsigned int* w = reinterpret_cast<unsigned int*>(p);
    unsigned int old = *reinterpret_cast<volatile unsigned int*>(w), assumed;
    do {
      assumed = old;
      old = atomicCAS(w, assumed, bits_as<unsigned int>(update(bits_as<T>(assumed))));
    } while (old != assumed);
  } else {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2, "atomic_update_cas: 1, 2, 4 or 8 bytes");
    using Bits = typename small_word<sizeof(T)>::type;
    const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
    unsigned int* w = reinterpret_cast<unsigned int*>(addr & ~3ull);
    const unsigned int shift = static_cast<unsigned int>(addr & 3) * 8;
    const unsigned int mask = ((1u << (8 * sizeof(T))) - 1u) << shift;
    unsigned int old = *reinterpret_cast<volatile unsigned int*>(w), assumed;
    do {
      assumed = old;
      const T current = bits_as<T>(static_cast<Bits>((assumed & mask) >> shift));
      const unsigned int next = static_cast<unsigned int>(bits_as<Bits>(update(current))) << shift;
      old = atomicCAS(w, assumed, (assumed & ~mask) | next);
    } while (old != assumed);
  }
}

// 16-byte elements (complex128): no compare-and-swap below sm_90, so a striped spin lock guards
// the read-modify-write. The lock is only tried, never waited on inside a branch that could keep
// its holder from running, so lanes of one warp contending for a lock cannot deadlock.
inline constexpr unsigned int kScatterLocks = 1u << 16;
template <class T, class Update>
__device__ __forceinline__ void atomic_update_locked(T* p, Update update, unsigned int* locks) {
  static_assert(sizeof(T) == 16, "the lock path serves 16-byte elements");
  unsigned int* lock = locks + ((reinterpret_cast<unsigned long long>(p) >> 4) & (kScatterLocks - 1));
  volatile unsigned long long* q = reinterpret_cast<volatile unsigned long long*>(p);
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0u, 1u) == 0u) {
      __threadfence();
      struct Words {
        unsigned long long lo, hi;
      };
      const Words old{q[0], q[1]};
      const Words next = bits_as<Words>(update(bits_as<T>(old)));
      q[0] = next.lo;
      q[1] = next.hi;
      __threadfence();
      atomicExch(lock, 0u);
      done = true;
    }
  }
}

// The hardware atomics, where the operation and type have one (chosen by table on the host:
// the value is already of the element's type). Signed and unsigned integers of one width share
// the two's-complement add.
template <class T>
__device__ __forceinline__ void atomic_add_native(T* p, T v) {
  if constexpr (is_complex_v<T>) {  // componentwise: exactly NumPy's complex addition
    atomic_add_native(&p->re, v.re);
    atomic_add_native(&p->im, v.im);
  } else if constexpr (is_floating_v<T>) {
    atomicAdd(p, v);
  } else if constexpr (sizeof(T) == 8) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else {
    static_assert(sizeof(T) == 4, "native integer add: 4 or 8 bytes");
    atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
  }
}
template <class T>
__device__ __forceinline__ void atomic_max_native(T* p, T v) {
  atomicMax(p, v);
}
template <class T>
__device__ __forceinline__ void atomic_min_native(T* p, T v) {
  atomicMin(p, v);
}
// atomicAnd/Or/Xor exist for int, unsigned and unsigned long long: every integer of 4 or 8 bytes
// goes through the unsigned word of its width.
template <class T>
__device__ __forceinline__ void atomic_and_native(T* p, T v) {
  using W = typename uint_of_size<sizeof(T)>::type;
  atomicAnd(reinterpret_cast<W*>(p), static_cast<W>(v));
}
template <class T>
__device__ __forceinline__ void atomic_or_native(T* p, T v) {
  using W = typename uint_of_size<sizeof(T)>::type;
  atomicOr(reinterpret_cast<W*>(p), static_cast<W>(v));
}
template <class T>
__device__ __forceinline__ void atomic_xor_native(T* p, T v) {
  using W = typename uint_of_size<sizeof(T)>::type;
  atomicXor(reinterpret_cast<W*>(p), static_cast<W>(v));
}

// An index element as a signed 64-bit position; false for uint64 values past int64's range, which
// are out of bounds for any array.
template <class I>
__device__ __forceinline__ bool index_value(const I raw, long long& out) {
  if constexpr (is_bool_v<I>) {
    out = raw ? 1 : 0;
  } else if constexpr (is_same_v<I, unsigned long long>) {
    out = static_cast<long long>(raw);
    if (raw > 0x7fffffffffffffffull) return false;
  } else {
    out = static_cast<long long>(raw);
  }
  return true;
}

// What the validation pass records about the first out-of-range index it meets.
struct ScatterError {
  int flag;
  int axis;
  long long index;
  long long length;
};
__device__ __forceinline__ void report_bad_index(ScatterError* err, int axis, long long index, long long length) {
  if (atomicCAS(&err->flag, 0, 1) == 0) {
    err->axis = axis;
    err->index = index;
    err->length = length;
  }
}

}  // namespace cuarray
