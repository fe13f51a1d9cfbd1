// LSD radix sort (src/ops/engines/sort/sort.cpp plans it; docs/sorting.md). Keys are never stored: every pass
// computes the digit from the value itself, so the values move as they are (-0.0 stays -0.0, NaN
// payloads survive) and sort() needs no separate key array.
namespace cuarray {

// ---- order-preserving keys --------------------------------------------------------------------
// NumPy's order as unsigned integers: signed ints flip the sign bit; floats flip every bit of a
// negative value and the sign bit of a positive one, after -0.0 becomes +0.0 (they compare equal,
// so a stable sort keeps their input order) and every NaN one quiet NaN (after +inf, NaNs last).
template <class T> struct radix_bits { using type = unsigned int; };
template <> struct radix_bits<bool> { using type = unsigned char; };
template <> struct radix_bits<signed char> { using type = unsigned char; };
template <> struct radix_bits<unsigned char> { using type = unsigned char; };
template <> struct radix_bits<short> { using type = unsigned short; };
template <> struct radix_bits<unsigned short> { using type = unsigned short; };
template <> struct radix_bits<float16> { using type = unsigned short; };
template <> struct radix_bits<long long> { using type = unsigned long long; };
template <> struct radix_bits<unsigned long long> { using type = unsigned long long; };
template <> struct radix_bits<double> { using type = unsigned long long; };

template <class T>
__device__ __forceinline__ typename radix_bits<T>::type radix_key(const T& v) {
  using U = typename radix_bits<T>::type;
  constexpr U kSign = U(U(1) << (8 * sizeof(U) - 1));
  U bits = *reinterpret_cast<const U*>(&v);
  if constexpr (is_floating_v<T>) {
    constexpr U kInf = sizeof(U) == 2 ? U(0x7c00u) : sizeof(U) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
    constexpr U kQuietNan = sizeof(U) == 2 ? U(0x7e00u) : sizeof(U) == 4 ? U(0x7fc00000u) : U(0x7ff8000000000000ull);
    const U magnitude = U(bits & ~kSign);
    if (magnitude > kInf) bits = kQuietNan;
    if (magnitude == 0) bits = 0;
    return (bits & kSign) ? U(~bits) : U(bits | kSign);
  } else if constexpr (is_signed_int_v<T>) {
    return U(bits ^ kSign);
  } else {
    return bits;
  }
}

// Number of key bytes (the radix passes a full sort needs) and byte `b` of the composite key,
// least significant first. Complex keys follow NumPy's order with its NaN classes,
// [R + Rj] < [R + nanj] < [nan + Rj] < [nan + nanj], each class sorted by its non-NaN parts
// (real first): the imaginary key's bytes are the low ones, then the real key's, then the class.
template <class T> struct radix_traits {
  static constexpr int kBytes = sizeof(T);
  static __device__ __forceinline__ unsigned digit(const T& v, int b) {
    return unsigned(radix_key(v) >> (8 * b)) & 0xffu;
  }
};
template <class R> struct radix_traits<complex<R>> {
  static constexpr int kBytes = 2 * sizeof(R) + 1;
  static __device__ __forceinline__ unsigned nan_class(const complex<R>& v) {
    return 2u * cuarray_isnan(v.re) + cuarray_isnan(v.im);
  }
  static __device__ __forceinline__ unsigned digit(const complex<R>& v, int b) {
    if (b < int(sizeof(R))) return unsigned(radix_key(v.im) >> (8 * b)) & 0xffu;
    if (b < int(2 * sizeof(R))) return unsigned(radix_key(v.re) >> (8 * (b - int(sizeof(R))))) & 0xffu;
    return nan_class(v);
  }
};

// Strict NumPy order (NaNs last, -0.0 == 0.0) from the same keys: searchsorted's comparison.
template <class T>
__device__ __forceinline__ bool radix_less(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    using Traits = radix_traits<T>;
    const unsigned ca = Traits::nan_class(a), cb = Traits::nan_class(b);
    if (ca != cb) return ca < cb;
    const auto ra = radix_key(a.re), rb = radix_key(b.re);
    return ra < rb || (ra == rb && radix_key(a.im) < radix_key(b.im));
  } else {
    return radix_key(a) < radix_key(b);
  }
}

// ---- ranking a tile by one digit --------------------------------------------------------------
// A tile is THREADS * ITEMS elements; warp w owns the contiguous stretch [w * 32 * ITEMS, ...)
// and item i of lane l is element w * 32 * ITEMS + i * 32 + l, so (warp, item, lane) order is
// input order and ranks are stable. The structure is CUB's BlockRadixRankMatchEarlyCounts:
// count first (per-warp histograms), turn the counts into each (warp, digit)'s first position in
// the digit-ordered tile, then rank: match_digit finds the lanes of one round sharing a digit, and
// the highest of them advances the (warp, digit) position for all. Ranks come out as final tile
// positions, so nothing reads the counts again per element (those reads were bank conflicts).
constexpr int kRadixDigits = 256;

// The digits of a thread's ITEMS elements, four to a register (a tile's worth of 32-bit digits
// would cost the pass kernel its third block per SM). Items are unrolled, so get and set are
// single bit-field instructions.
template <int ITEMS>
struct PackedDigits {
  unsigned word[(ITEMS + 3) / 4];
  __device__ __forceinline__ void fill(unsigned d) {
#pragma unroll
    for (int k = 0; k < (ITEMS + 3) / 4; ++k) word[k] = d * 0x01010101u;
  }
  __device__ __forceinline__ unsigned get(int i) const { return (word[i >> 2] >> (8 * (i & 3))) & 0xffu; }
  __device__ __forceinline__ void set(int i, unsigned d) {
    const int shift = 8 * (i & 3);
    word[i >> 2] = (word[i >> 2] & ~(0xffu << shift)) | (d << shift);
  }
};

template <int THREADS>
struct TileCounts {
  static constexpr int kWarps = THREADS / 32;
  unsigned warp[kWarps][kRadixDigits];  // per-warp counts, then each (warp, digit)'s next tile position
  unsigned total[kRadixDigits];         // per-digit count in the tile, then the digit's first tile position
};

// The lanes of the warp whose 8-bit digit equals mine: eight ballots, each folded in by a
// predicated NOT and an AND (CUB's MatchAny; C++ selects cost two more instructions per bit, and
// match.any.sync costs more the more distinct values a warp holds, random digits its worst case).
__device__ __forceinline__ unsigned match_digit(unsigned digit) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int bit = 0; bit < 8; ++bit) {
    unsigned mask;
    asm("{\n"
        "  .reg .pred p;\n"
        "  and.b32 %0, %1, %2;\n"
        "  setp.ne.u32 p, %0, 0;\n"
        "  vote.sync.ballot.b32 %0, p, 0xffffffff;\n"
        "  @!p not.b32 %0, %0;\n"
        "}\n"
        : "=r"(mask)
        : "r"(digit), "r"(1u << bit));
    peers &= mask;
  }
  return peers;
}

// Exclusive prefix sum of 256 counters in place by the first warp (8 per lane); returns the
// total in lane order. Callers synchronize around it.
__device__ __forceinline__ unsigned warp_exclusive_scan_256(unsigned* values, unsigned carry) {
  const int lane = threadIdx.x & 31;
  unsigned v[8], sum = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    v[k] = values[lane * 8 + k];
    sum += v[k];
  }
  unsigned inclusive = sum;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned other = __shfl_up_sync(0xffffffffu, inclusive, o);
    if (lane >= o) inclusive += other;
  }
  unsigned running = carry + inclusive - sum;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    values[lane * 8 + k] = running;
    running += v[k];
  }
  return carry + __shfl_sync(0xffffffffu, inclusive, 31);
}

// On return (true) rank[i] is the element's position in the tile ordered by digit, and
// counts.total[d] the first position of digit d. `counted()` runs once the tile's digit counts are
// in counts.total (every thread calls it; it must not write counts): the Onesweep pass publishes
// them there, before ranking, so that later tiles' look-backs wait less. If it returns true the
// ranking is skipped and rank_tile returns false. No barrier follows the ranking: the caller
// synchronizes before anyone reads what is written at the ranks.
template <int THREADS, int ITEMS, class Counted>
__device__ __forceinline__ bool rank_tile(const PackedDigits<ITEMS>& digit, unsigned (&rank)[ITEMS],
                                          TileCounts<THREADS>& counts, Counted&& counted) {
  constexpr int kWarps = TileCounts<THREADS>::kWarps;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < kWarps * kRadixDigits; i += THREADS) (&counts.warp[0][0])[i] = 0;
  __syncthreads();
  unsigned* const mine = counts.warp[warp];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) atomicAdd(mine + digit.get(i), 1u);
  __syncthreads();
  for (int d = threadIdx.x; d < kRadixDigits; d += THREADS) {
    unsigned sum = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += counts.warp[w][d];
    counts.total[d] = sum;
  }
  __syncthreads();
  if (counted()) return false;
  __syncthreads();  // every count read before the scan turns counts into first positions
  if (threadIdx.x < 32) warp_exclusive_scan_256(counts.total, 0);
  __syncthreads();
  for (int d = threadIdx.x; d < kRadixDigits; d += THREADS) {
    unsigned next = counts.total[d];
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const unsigned c = counts.warp[w][d];
      counts.warp[w][d] = next;
      next += c;
    }
  }
  __syncthreads();
  const unsigned at_or_below = (2u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned peers = match_digit(digit.get(i));
    const int leader = 31 - __clz(peers);
    unsigned base = 0;
    // A shared atomic: its return value orders the groups of successive items without a __syncwarp.
    if (lane == leader) base = atomicAdd(mine + digit.get(i), unsigned(__popc(peers)));
    rank[i] = __shfl_sync(0xffffffffu, base, leader) + __popc(peers & at_or_below) - 1u;
  }
  return true;
}

// ---- one block per row ------------------------------------------------------------------------
// Rows of up to THREADS * ITEMS elements sort in shared memory: every pass ranks the tile and
// exchanges it through shared memory. Padding elements take digit 255 in every pass: they follow
// all real elements in input order, so a stable pass keeps them last.
template <class T, int THREADS, int ITEMS, bool kWithIndex>
struct BlockSortStorage {
  T values[THREADS * ITEMS];
  unsigned short index[kWithIndex ? THREADS * ITEMS : 1];
  TileCounts<THREADS> counts;
};

template <class T, int THREADS, int ITEMS, bool kWithIndex>
__device__ __forceinline__ void block_sort_row(const T* in, T* out_values, long long* out_index, unsigned len,
                                               BlockSortStorage<T, THREADS, ITEMS, kWithIndex>& s) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  T v[ITEMS];
  unsigned short idx[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned e = warp * 32 * ITEMS + i * 32 + lane;
    if (e < len) v[i] = in[e];
    idx[i] = (unsigned short)e;
  }
  for (int b = 0; b < radix_traits<T>::kBytes; ++b) {
    PackedDigits<ITEMS> digit;
    unsigned rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) digit.set(i, idx[i] < len ? radix_traits<T>::digit(v[i], b) : 255u);
    // A digit shared by every real element leaves the order as it is: skip the exchange.
    const bool ranked = rank_tile<THREADS, ITEMS>(digit, rank, s.counts, [&] {
      bool mine = false;
      for (int d = threadIdx.x; d < kRadixDigits; d += THREADS)
        mine |= s.counts.total[d] - (d == 255 ? THREADS * ITEMS - len : 0u) == len;
      return __syncthreads_or(mine) != 0;
    });
    if (!ranked) continue;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      s.values[rank[i]] = v[i];
      if (kWithIndex) s.index[rank[i]] = idx[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned e = warp * 32 * ITEMS + i * 32 + lane;
      v[i] = s.values[e];
      idx[i] = kWithIndex ? s.index[e] : (unsigned short)e;
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned e = warp * 32 * ITEMS + i * 32 + lane;
    if (e < len) {
      if (kWithIndex) out_index[e] = idx[i];
      else out_values[e] = v[i];
    }
  }
}

// ---- device-wide passes: Onesweep ------------------------------------------------------------
// (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022.)
// Digit passes run least significant first: the key bytes, then (when several rows share one sort)
// the bytes of the row number, which the index payload carries (row = flat index / row length).
// One histogram kernel counts every pass's digits in one read; one plan block turns each pass's
// counts into each digit's first output position and decides where each pass reads and writes.
// Then each pass is ONE kernel that reads every element once: a block takes the next tile from an
// atomic counter, counts its digits and publishes the counts, ranks it, looks back over earlier tiles for the
// elements of each digit before it (decoupled look-back, one digit per thread), and writes the tile
// in digit order through shared memory, so global writes are runs of consecutive positions.
//
// A pass carries one payload word with each key (P): nothing (NoPayload), the flat index
// (FlatIndex: argsort and row sorts; 0, 1, ... in the first pass, travelling as 32-bit words
// between passes, sizes being below 2**32, and widened by the last pass to the within-row int64
// index the caller asked for) or the caller's own words (scatter: the value to write at a target
// key), moved as they are.
//
// The plan (one int per pass, written on the device, so no pass waits for the host): -1 skips a
// pass whose digit is the same for every element; otherwise src * 4 + dst with src 0 = the input
// (index implicit), 1 or 2 = that ping-pong slot, and dst 1 or 2 = a slot, 3 = the caller's outputs
// (the last pass). The pass before the last writes slot 1, so the last never reads what it writes
// even though slot 2 shares the memory of the outputs.
struct RadixBuffers {
  const void* input;
  const void* payload_in;  // the caller's payload words (null for the flat index)
  void* values[2];         // value slots 1 and 2
  void* payload[2];        // payload slots 1 and 2
  void* values_out;        // the sorted values (null: not asked for)
  void* payload_out;       // the payload in sorted order (flat index: int64 within-row; null: not asked for)
};

struct NoPayload {};
struct FlatIndex {};
template <class P> struct payload_word { using type = P; };
template <> struct payload_word<NoPayload> { using type = unsigned; };
template <> struct payload_word<FlatIndex> { using type = unsigned; };

template <class T>
__device__ __forceinline__ unsigned radix_pass_digit(const T& v, unsigned index, int pass, unsigned len) {
  if (pass < radix_traits<T>::kBytes) return radix_traits<T>::digit(v, pass);
  return (index / len >> (8 * (pass - radix_traits<T>::kBytes))) & 0xffu;
}

constexpr int kMaxRadixPasses = 25;  // 17 key bytes (complex128) + 8 row bytes

// The digit counts of every pass in one read of the input: hist[pass][digit].
template <class T, int THREADS>
__device__ __forceinline__ void radix_histogram(const T* in, unsigned n, unsigned len, int passes, unsigned* hist) {
  __shared__ unsigned h[kMaxRadixPasses * kRadixDigits];
  for (int i = threadIdx.x; i < passes * kRadixDigits; i += THREADS) h[i] = 0;
  __syncthreads();
  for (unsigned long long e = (unsigned long long)blockIdx.x * THREADS + threadIdx.x; e < n;
       e += (unsigned long long)gridDim.x * THREADS) {
    const T v = in[e];
    for (int p = 0; p < passes; ++p) atomicAdd(&h[p * kRadixDigits + radix_pass_digit(v, unsigned(e), p, len)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * kRadixDigits; i += THREADS)
    if (h[i]) atomicAdd(&hist[i], h[i]);
}

// One block of 256 threads. Which passes run and where each reads and writes (plan[passes] is the
// number that run), and hist[pass][digit] becomes the digit's first output position (the count of
// smaller digits).
__device__ __forceinline__ void radix_plan(unsigned* hist, int passes, unsigned n, int* plan) {
  __shared__ int runs[kMaxRadixPasses];
  for (int p = 0; p < passes; ++p) {
    unsigned* h = hist + p * kRadixDigits;
    const bool constant = __syncthreads_or(h[threadIdx.x] == n);  // every thread has read h
    if (threadIdx.x == 0) runs[p] = !constant;
    if (threadIdx.x < 32) warp_exclusive_scan_256(h, 0);
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  int total = 0;
  for (int p = 0; p < passes; ++p) total += runs[p];
  int k = 0, src = 0;
  for (int p = 0; p < passes; ++p) {
    if (!runs[p]) {
      plan[p] = -1;
      continue;
    }
    const int dst = k == total - 1 ? 3 : (total - 1 - k) % 2 == 0 ? 2 : 1;
    plan[p] = src * 4 + dst;
    src = dst;
    ++k;
  }
  plan[passes] = total;
}

// Look-back status: one 64-bit word per (tile, digit), the count in the low half and a tag in the
// high half: 2 * (pass + 1) for the tile's own count (aggregate), one more for the count of the
// tile and every tile before it (inclusive prefix). One word carries both, so a reader never sees
// a flag without its count and no fence is needed; words of earlier passes (and the zeroed start)
// carry other tags and read as "not yet published", so one region serves every pass.
__device__ __forceinline__ void radix_publish(unsigned long long* word, unsigned tag, unsigned count) {
  *reinterpret_cast<volatile unsigned long long*>(word) = (unsigned long long)tag << 32 | count;
}

// The elements of digit `d` in the tiles before `tile`: walks back over aggregates until a tile
// with an inclusive prefix. Tiles are numbered in the order blocks started (an atomic counter), so
// every earlier tile belongs to a running or finished block that publishes its aggregate without
// waiting for anyone: the spin always ends.
__device__ __forceinline__ unsigned radix_look_back(const unsigned long long* status, unsigned tile, int d,
                                                    unsigned aggregate_tag) {
  unsigned exclusive = 0;
  for (unsigned j = tile; j > 0;) {
    const unsigned long long w =
        reinterpret_cast<const volatile unsigned long long*>(status)[(unsigned long long)(j - 1) * kRadixDigits + d];
    const unsigned tag = unsigned(w >> 32);
    if (tag == aggregate_tag + 1) return exclusive + unsigned(w);
    if (tag == aggregate_tag) {
      exclusive += unsigned(w);
      --j;
    }
  }
  return exclusive;
}

template <class T, int THREADS, int ITEMS, class P>
struct OnesweepStorage {
  static constexpr int kTile = THREADS * ITEMS;
  T values[kTile];                                                              // the tile in digit order
  typename payload_word<P>::type payload[is_same_v<P, NoPayload> ? 1 : kTile];  // and their payloads
  TileCounts<THREADS> counts;   // ranking; then total[d] = the digit's first position in the tile
  unsigned base[kRadixDigits];  // output position of the digit's element at tile position 0
  unsigned tile;
};

// The payload of element e of a pass's source (null: the input of the first pass).
template <class P>
__device__ __forceinline__ typename payload_word<P>::type radix_payload(const typename payload_word<P>::type* src,
                                                                        unsigned e) {
  if constexpr (is_same_v<P, FlatIndex>) return src ? src[e] : e;
  else return src[e];
}

// One pass. Elements load warp-striped in input order (as rank_tile wants); the tile's elements
// (and indices) are then written in digit order to shared memory, and thread t writes tile
// positions t, t + THREADS, ...: consecutive threads write consecutive output positions within each
// digit's run. The digit of a tile position is computed again from its value (or, in a row pass,
// its index) rather than kept in shared memory. A full tile (every tile but the last) runs without
// per-element bounds checks: instruction count, not DRAM, bounds a pass.
template <class T, int THREADS, int ITEMS, class P, bool kFull>
__device__ __forceinline__ void radix_onesweep_tile(int pass, int code, unsigned tile, unsigned valid, const unsigned* bins,
                                                    const RadixBuffers& b, unsigned n, unsigned len,
                                                    unsigned long long* status,
                                                    OnesweepStorage<T, THREADS, ITEMS, P>& s) {
  using W = typename payload_word<P>::type;
  constexpr bool kWithPayload = !is_same_v<P, NoPayload>, kFlatIndex = is_same_v<P, FlatIndex>;
  constexpr unsigned kTile = THREADS * ITEMS;
  const unsigned start = tile * kTile;
  const int src_slot = code >> 2, dst_slot = code & 3;
  // Slots are picked by selects: indexing the parameter's arrays by a variable copies them to the stack.
  const T* src = static_cast<const T*>(src_slot == 0 ? b.input : src_slot == 1 ? b.values[0] : b.values[1]);
  const W* src_payload =
      static_cast<const W*>(src_slot == 0 ? b.payload_in : src_slot == 1 ? b.payload[0] : b.payload[1]);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  // Payloads are not kept in registers (they would raise the register count by half): row
  // passes read the flat index here for the digit, and the exchange reads payloads (again) there.
  const bool row_pass = pass >= radix_traits<T>::kBytes;
  T v[ITEMS];
  PackedDigits<ITEMS> digit;
  unsigned rank[ITEMS];
  digit.fill(255u);  // past the end: ranked after every real element, never written
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned off = warp * 32 * ITEMS + i * 32 + lane;
    if (kFull || off < valid) {
      v[i] = src[start + off];
      unsigned index = 0;
      if constexpr (kFlatIndex) index = row_pass ? radix_payload<P>(src_payload, start + off) : 0u;
      digit.set(i, radix_pass_digit(v[i], index, pass, len));
    }
  }
  // Publish this tile's count of my digit as soon as it is known, so later tiles' look-backs move on.
  const int d = threadIdx.x;
  const unsigned tag = 2u * unsigned(pass + 1);
  unsigned long long* my_status = status + (unsigned long long)tile * kRadixDigits + d;
  unsigned count = 0;
  rank_tile<THREADS, ITEMS>(digit, rank, s.counts, [&] {
    count = s.counts.total[d] - (d == 255 ? kTile - valid : 0u);
    radix_publish(my_status, tile == 0 ? tag + 1 : tag, count);
    return false;
  });
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned off = warp * 32 * ITEMS + i * 32 + lane;
    if (kFull || off < valid) {
      s.values[rank[i]] = v[i];
      if constexpr (kWithPayload) s.payload[rank[i]] = radix_payload<P>(src_payload, start + off);
    }
  }
  // While the exchange settles: the elements of my digit in earlier tiles.
  unsigned exclusive = 0;
  if (tile > 0) {
    exclusive = radix_look_back(status, tile, d, tag);
    radix_publish(my_status, tag + 1, exclusive + count);
  }
  // Modulo 2**32: the sum is below n for every position the digit's run uses.
  s.base[d] = bins[pass * kRadixDigits + d] + exclusive - s.counts.total[d];
  __syncthreads();

  const bool last = dst_slot == 3;
  T* dst = static_cast<T*>(last ? b.values_out : dst_slot == 1 ? b.values[0] : b.values[1]);
  W* dst_payload = kWithPayload ? static_cast<W*>(last ? (kFlatIndex ? nullptr : b.payload_out)
                                                     : dst_slot == 1 ? b.payload[0] : b.payload[1])
                                : nullptr;
  long long* index_out = kFlatIndex && last ? static_cast<long long*>(b.payload_out) : nullptr;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned j = i * THREADS + threadIdx.x;
    if (kFull || j < valid) {
      const T x = s.values[j];
      const W xi = kWithPayload ? s.payload[j] : W();
      unsigned index = 0;
      if constexpr (kFlatIndex) index = xi;
      const unsigned pos = s.base[radix_pass_digit(x, index, pass, len)] + j;
      if (dst) dst[pos] = x;
      if (dst_payload) dst_payload[pos] = xi;
      if (index_out) index_out[pos] = (long long)(len == n ? index : index % len);
    }
  }
}


template <class T, int THREADS, int ITEMS, class P>
__device__ __forceinline__ void radix_onesweep(int pass, const int* plan, const unsigned* bins, const RadixBuffers& b,
                                               unsigned n, unsigned len, unsigned* counters,
                                               unsigned long long* status,
                                               OnesweepStorage<T, THREADS, ITEMS, P>& s) {
  static_assert(THREADS == kRadixDigits, "one digit per thread in the look-back");
  constexpr unsigned kTile = THREADS * ITEMS;
  const int code = plan[pass];
  if (code < 0) return;
  if (threadIdx.x == 0) s.tile = atomicAdd(counters + pass, 1u);
  __syncthreads();
  const unsigned tile = s.tile, valid = min(n - tile * kTile, kTile);
  if (valid == kTile)
    radix_onesweep_tile<T, THREADS, ITEMS, P, true>(pass, code, tile, valid, bins, b, n, len, status, s);
  else
    radix_onesweep_tile<T, THREADS, ITEMS, P, false>(pass, code, tile, valid, bins, b, n, len, status, s);
}

// When no pass ran (every digit constant) the input is already in order: copy it with its
// payload (flat indices are 0, 1, ... within each row).
template <class T, class P>
__device__ __forceinline__ void radix_finish(const int* plan, int passes, const RadixBuffers& b, unsigned n,
                                             unsigned len) {
  using W = typename payload_word<P>::type;
  if (plan[passes] != 0) return;
  for (unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (unsigned long long)gridDim.x * blockDim.x) {
    if (b.values_out) static_cast<T*>(b.values_out)[e] = static_cast<const T*>(b.input)[e];
    if (!b.payload_out) continue;
    if constexpr (is_same_v<P, FlatIndex>) static_cast<long long*>(b.payload_out)[e] = (long long)(e % len);
    else if constexpr (!is_same_v<P, NoPayload>) static_cast<W*>(b.payload_out)[e] = static_cast<const W*>(b.payload_in)[e];
  }
}

// out[r][j] = in[r][index[r][j]] over contiguous rows of `len`: applies a row permutation.
template <class T>
__device__ __forceinline__ void gather_rows(const T* in, const long long* index, T* out, unsigned long long n,
                                            unsigned long long len) {
  for (unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (unsigned long long)gridDim.x * blockDim.x)
    out[e] = in[e - e % len + (unsigned long long)index[e]];
}

}  // namespace cuarray
