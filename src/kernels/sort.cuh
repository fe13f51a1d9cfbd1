// LSD radix sort (src/ops/sort.cpp plans it; docs/sorting.md). Keys are never stored: every pass
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
// input order and ranks are stable. Each warp keeps its own digit counts: __match_any_sync finds
// the lanes sharing a digit in one round, the lowest ones rank first.
constexpr int kRadixDigits = 256;

template <int THREADS>
struct TileCounts {
  static constexpr int kWarps = THREADS / 32;
  unsigned warp[kWarps][kRadixDigits];  // per-warp counts, then their exclusive prefix over warps
  unsigned total[kRadixDigits];         // per-digit count in the tile, then an exclusive prefix
};

// On return rank[i] is the element's position among the tile's elements of the same digit;
// counts.total[d] holds the tile's count of digit d. Ends with the block synchronized.
template <int THREADS, int ITEMS>
__device__ __forceinline__ void rank_tile(const unsigned (&digit)[ITEMS], unsigned (&rank)[ITEMS],
                                          TileCounts<THREADS>& counts) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < TileCounts<THREADS>::kWarps * kRadixDigits; i += THREADS)
    (&counts.warp[0][0])[i] = 0;
  __syncthreads();
  const unsigned below = (1u << lane) - 1u, at_or_below = (2u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned peers = __match_any_sync(0xffffffffu, digit[i]);
    const unsigned base = counts.warp[warp][digit[i]];
    __syncwarp();
    if ((peers & ~at_or_below) == 0) counts.warp[warp][digit[i]] = base + __popc(peers);  // the last peer
    __syncwarp();
    rank[i] = base + __popc(peers & below);
  }
  __syncthreads();
  for (int d = threadIdx.x; d < kRadixDigits; d += THREADS) {
    unsigned sum = 0;
#pragma unroll
    for (int w = 0; w < TileCounts<THREADS>::kWarps; ++w) {
      const unsigned c = counts.warp[w][d];
      counts.warp[w][d] = sum;
      sum += c;
    }
    counts.total[d] = sum;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) rank[i] += counts.warp[warp][digit[i]];
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
    unsigned digit[ITEMS], rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) digit[i] = idx[i] < len ? radix_traits<T>::digit(v[i], b) : 255u;
    rank_tile<THREADS, ITEMS>(digit, rank, s.counts);
    // A digit shared by every real element leaves the order as it is: skip the exchange.
    bool mine = false;
    for (int d = threadIdx.x; d < kRadixDigits; d += THREADS)
      mine |= s.counts.total[d] - (d == 255 ? THREADS * ITEMS - len : 0u) == len;
    if (__syncthreads_or(mine)) continue;
    if (threadIdx.x < 32) warp_exclusive_scan_256(s.counts.total, 0);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned pos = s.counts.total[digit[i]] + rank[i];
      s.values[pos] = v[i];
      if (kWithIndex) s.index[pos] = idx[i];
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

// ---- device-wide passes -----------------------------------------------------------------------
// Digit passes run least significant first: the key bytes, then (when several rows share one sort)
// the bytes of the row number, which the index payload carries (row = flat index / row length).
// The plan (one int per pass, written on the device from the histograms) says where each pass
// reads and writes, so no pass waits for the host: -1 skips a pass whose digit is the same for
// every element; otherwise src * 4 + dst with src 0 = the input (index payload implicit), 1 = the
// scratch buffer, 2 = the output, and dst 1 = scratch, 2 = output. The last pass writes the output.
struct RadixBuffers {
  const void* input;
  void* scratch;
  void* output;
  long long* scratch_index;
  long long* output_index;
};

template <class T>
__device__ __forceinline__ unsigned radix_pass_digit(const T& v, long long index, int pass, unsigned long long len) {
  if (pass < radix_traits<T>::kBytes) return radix_traits<T>::digit(v, pass);
  return unsigned((unsigned long long)index / len >> (8 * (pass - radix_traits<T>::kBytes))) & 0xffu;
}


constexpr int kMaxRadixPasses = 25;  // 17 key bytes (complex128) + 8 row bytes

// The digit counts of every pass in one read of the input: hist[pass][digit].
template <class T, int THREADS>
__device__ __forceinline__ void radix_histogram(const T* in, unsigned long long n, unsigned long long len, int passes,
                                                unsigned* hist) {
  __shared__ unsigned h[kMaxRadixPasses * kRadixDigits];
  for (int i = threadIdx.x; i < passes * kRadixDigits; i += THREADS) h[i] = 0;
  __syncthreads();
  for (unsigned long long e = (unsigned long long)blockIdx.x * THREADS + threadIdx.x; e < n;
       e += (unsigned long long)gridDim.x * THREADS) {
    const T v = in[e];
    for (int p = 0; p < passes; ++p) atomicAdd(&h[p * kRadixDigits + radix_pass_digit(v, (long long)e, p, len)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < passes * kRadixDigits; i += THREADS)
    if (h[i]) atomicAdd(&hist[i], h[i]);
}

// One block of 256 threads: which passes run and where each reads and writes (see RadixBuffers).
// plan[passes] is the number of passes that run.
__device__ __forceinline__ void radix_plan(const unsigned* hist, int passes, unsigned long long n, int* plan) {
  __shared__ int runs[kMaxRadixPasses];
  for (int p = 0; p < passes; ++p) {
    const bool constant = __syncthreads_or(hist[p * kRadixDigits + threadIdx.x] == n);
    if (threadIdx.x == 0) runs[p] = !constant;
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
    const int dst = (total - 1 - k) % 2 == 0 ? 2 : 1;  // the last pass lands in the output
    plan[p] = src * 4 + dst;
    src = dst;
    ++k;
  }
  plan[passes] = total;
}

template <class T>
__device__ __forceinline__ const T* radix_source(int code, const RadixBuffers& b) {
  const int src = code >> 2;
  return static_cast<const T*>(src == 0 ? b.input : src == 1 ? b.scratch : b.output);
}
__device__ __forceinline__ const long long* radix_source_index(int code, const RadixBuffers& b) {
  const int src = code >> 2;
  return src == 0 ? nullptr : src == 1 ? b.scratch_index : b.output_index;
}

// Per-tile digit counts of one pass, digit-major (counts[digit][tile]) so that one exclusive scan
// per digit gives every tile its first output position.
template <class T, int THREADS, int ITEMS>
__device__ __forceinline__ void radix_upsweep(int pass, const int* plan, RadixBuffers b, unsigned long long n,
                                              unsigned long long len, unsigned* counts) {
  const int code = plan[pass];
  if (code < 0) return;
  const T* src = radix_source<T>(code, b);
  const long long* src_index = radix_source_index(code, b);
  __shared__ unsigned h[kRadixDigits];
  for (int d = threadIdx.x; d < kRadixDigits; d += THREADS) h[d] = 0;
  __syncthreads();
  const unsigned long long base = (unsigned long long)blockIdx.x * THREADS * ITEMS;
  const bool row_pass = pass >= radix_traits<T>::kBytes;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned long long e = base + i * THREADS + threadIdx.x;
    if (e < n) {
      const long long index = row_pass ? (src_index ? src_index[e] : (long long)e) : 0;
      atomicAdd(&h[radix_pass_digit(src[e], index, pass, len)], 1u);
    }
  }
  __syncthreads();
  for (int d = threadIdx.x; d < kRadixDigits; d += THREADS) counts[(unsigned long long)d * gridDim.x + blockIdx.x] = h[d];
}

// One warp per digit: counts[digit][tile] becomes the tile's first output position for the digit
// (the elements of smaller digits plus those of the digit in earlier tiles).
__device__ __forceinline__ void radix_scan(int pass, const int* plan, const unsigned* hist, unsigned* counts,
                                           unsigned tiles) {
  if (plan[pass] < 0) return;
  const int lane = threadIdx.x, d = blockIdx.x;
  unsigned carry = 0;
  for (int k = lane; k < d; k += 32) carry += hist[pass * kRadixDigits + k];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) carry += __shfl_xor_sync(0xffffffffu, carry, o);
  unsigned* row = counts + (unsigned long long)d * tiles;
  for (unsigned start = 0; start < tiles; start += 32) {
    const unsigned t = start + lane;
    const unsigned v = t < tiles ? row[t] : 0u;
    unsigned inclusive = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned other = __shfl_up_sync(0xffffffffu, inclusive, o);
      if (lane >= o) inclusive += other;
    }
    if (t < tiles) row[t] = carry + inclusive - v;
    carry += __shfl_sync(0xffffffffu, inclusive, 31);
  }
}

// Ranks the tile by the pass's digit and writes each element (and its index) to its position.
template <class T, int THREADS, int ITEMS, bool kWithIndex>
__device__ __forceinline__ void radix_scatter(int pass, const int* plan, RadixBuffers b, unsigned long long n,
                                              unsigned long long len, const unsigned* counts) {
  const int code = plan[pass];
  if (code < 0) return;
  const T* src = radix_source<T>(code, b);
  const long long* src_index = radix_source_index(code, b);
  T* dst = static_cast<T*>((code & 3) == 1 ? b.scratch : b.output);
  long long* dst_index = (code & 3) == 1 ? b.scratch_index : b.output_index;
  __shared__ TileCounts<THREADS> tile;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned long long base = (unsigned long long)blockIdx.x * THREADS * ITEMS + warp * 32 * ITEMS + lane;
  const bool row_pass = pass >= radix_traits<T>::kBytes;
  T v[ITEMS];
  unsigned digit[ITEMS], rank[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned long long e = base + i * 32;
    digit[i] = 255u;  // past the end: ranked last, never written
    if (e < n) {
      v[i] = src[e];
      const long long index = row_pass ? (src_index ? src_index[e] : (long long)e) : 0;
      digit[i] = radix_pass_digit(v[i], index, pass, len);
    }
  }
  rank_tile<THREADS, ITEMS>(digit, rank, tile);
  for (int d = threadIdx.x; d < kRadixDigits; d += THREADS) tile.total[d] = counts[(unsigned long long)d * gridDim.x + blockIdx.x];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const unsigned long long e = base + i * 32;
    if (e < n) {
      const unsigned pos = tile.total[digit[i]] + rank[i];
      dst[pos] = v[i];
      if (kWithIndex) dst_index[pos] = src_index ? src_index[e] : (long long)e;
    }
  }
}

// After the passes: when none ran (every digit constant) the input is already in order; with an
// index payload over several rows, flat indices become indices within the row.
template <class T, bool kWithIndex>
__device__ __forceinline__ void radix_finish(const int* plan, int passes, RadixBuffers b, unsigned long long n,
                                             unsigned long long len) {
  const bool copy = plan[passes] == 0;
  if (!copy && (!kWithIndex || len == n)) return;
  for (unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
       e += (unsigned long long)gridDim.x * blockDim.x) {
    if (copy) static_cast<T*>(b.output)[e] = static_cast<const T*>(b.input)[e];
    if (kWithIndex) b.output_index[e] = copy ? (long long)(e % len) : (long long)((unsigned long long)b.output_index[e] % len);
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
