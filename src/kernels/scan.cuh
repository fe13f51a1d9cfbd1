// Building blocks of the generated scan kernels. src/ops/engines/scan/scan.cpp writes the per-operation part: a
// struct `Ops` with the types in_t (storage), acc_t (what the scan combines) and out_t (storage)
// and the functions map (in_t -> acc_t), combine (acc_t, acc_t -> acc_t) and post (acc_t -> out_t).
// Three plans share these pieces (docs/scans.md): a thread per row, a warp per row, and tiles of one
// row chained by decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016).
namespace cuarray {

// Any trivially copyable value as 4-byte words: shuffles and the volatile tile status move words.
template <class T>
union ScanWords {
  T value;
  unsigned int w[(sizeof(T) + 3) / 4];
  __device__ ScanWords() {}
};

template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& v, Shuffle shuffle) {
  ScanWords<T> in, out;
  in.value = v;
#pragma unroll
  for (int w = 0; w < int(sizeof(in.w) / 4); ++w) out.w[w] = shuffle(in.w[w]);
  return out.value;
}
template <class T>
__device__ __forceinline__ T shfl_up_any(const T& v, int delta) {
  return shuffle_words(v, [&](unsigned int w) { return __shfl_up_sync(0xffffffffu, w, delta); });
}
template <class T>
__device__ __forceinline__ T shfl_down_any(const T& v, int delta) {
  return shuffle_words(v, [&](unsigned int w) { return __shfl_down_sync(0xffffffffu, w, delta); });
}
template <class T>
__device__ __forceinline__ T shfl_idx_any(const T& v, int lane) {
  return shuffle_words(v, [&](unsigned int w) { return __shfl_sync(0xffffffffu, w, lane); });
}

// Inclusive scan of one value per lane (Kogge-Stone over shuffles). No identity is needed: a lane
// only combines with lanes before it.
template <class Ops>
__device__ __forceinline__ typename Ops::acc_t warp_inclusive_scan(typename Ops::acc_t x, int lane) {
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const typename Ops::acc_t y = shfl_up_any(x, o);
    if (lane >= o) x = Ops::combine(y, x);
  }
  return x;
}

// A warp's segment of a row: K chunks of 32 * VEC consecutive elements; in chunk k, lane l holds
// elements start + (k * 32 + l) * VEC + j, j < VEC, so every load and store is coalesced (and a
// 16-byte vector when kVector). Elements past the row's end load the last element instead (no
// identity needed, never stored); they only pollute totals of a row's last segment, which nothing
// reads.
template <class Ops, int VEC, int K, bool kVector>
__device__ __forceinline__ void segment_load(typename Ops::acc_t (&x)[K][VEC], const char* row, index_t start,
                                             index_t n, offset_t stride, int lane) {
  using in_t = typename Ops::in_t;
  const bool full = start < n && n - start >= index_t(K * 32 * VEC);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const index_t i0 = start + index_t(k * 32 + lane) * VEC;
    if (kVector && full) {
      const Vec<in_t, VEC> v = *reinterpret_cast<const Vec<in_t, VEC>*>(row + offset_t(i0) * offset_t(sizeof(in_t)));
#pragma unroll
      for (int j = 0; j < VEC; ++j) x[k][j] = Ops::map(v.v[j]);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) {
        const index_t i = i0 + j < n ? i0 + j : n - 1;
        x[k][j] = Ops::map(*reinterpret_cast<const in_t*>(row + offset_t(i) * stride));
      }
    }
  }
}

// Turns the segment into its inclusive scan; returns the segment's total in every lane.
template <class Ops, int VEC, int K>
__device__ __forceinline__ typename Ops::acc_t segment_scan(typename Ops::acc_t (&x)[K][VEC], int lane) {
  using acc_t = typename Ops::acc_t;
  acc_t carry = x[0][0];  // the total of the chunks before k (read only for k > 0)
#pragma unroll
  for (int k = 0; k < K; ++k) {
#pragma unroll
    for (int j = 1; j < VEC; ++j) x[k][j] = Ops::combine(x[k][j - 1], x[k][j]);
    const acc_t lanes = warp_inclusive_scan<Ops>(x[k][VEC - 1], lane);
    acc_t before = shfl_up_any(lanes, 1);  // what precedes this lane within the chunk (lane > 0)
    if (k > 0) before = lane > 0 ? Ops::combine(carry, before) : carry;
    if (k > 0 || lane > 0) {
#pragma unroll
      for (int j = 0; j < VEC; ++j) x[k][j] = Ops::combine(before, x[k][j]);
    }
    carry = shfl_idx_any(x[k][VEC - 1], 31);
  }
  return carry;
}

// Stores post(prefix + x) (just post(x) without a prefix) for the elements inside the row.
template <class Ops, int VEC, int K, bool kVector>
__device__ __forceinline__ void segment_store(const typename Ops::acc_t (&x)[K][VEC], bool has_prefix,
                                              const typename Ops::acc_t& prefix, char* row, index_t start,
                                              index_t n, offset_t stride, int lane) {
  using out_t = typename Ops::out_t;
  const bool full = start < n && n - start >= index_t(K * 32 * VEC);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const index_t i0 = start + index_t(k * 32 + lane) * VEC;
    if (kVector && full) {
      Vec<out_t, VEC> v;
#pragma unroll
      for (int j = 0; j < VEC; ++j) v.v[j] = Ops::post(has_prefix ? Ops::combine(prefix, x[k][j]) : x[k][j]);
      *reinterpret_cast<Vec<out_t, VEC>*>(row + offset_t(i0) * offset_t(sizeof(out_t))) = v;
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j)
        if (i0 + j < n)
          *reinterpret_cast<out_t*>(row + offset_t(i0 + j) * stride) =
              Ops::post(has_prefix ? Ops::combine(prefix, x[k][j]) : x[k][j]);
    }
  }
}

// The rows of a scan: row r starts at in + offset_of(r, kshape, kin) (and likewise out); element i
// of a row sits i * sin (sout) bytes further.
template <int RK>
struct ScanRows {
  Array<index_t, RK> shape;
  Array<offset_t, RK> in, out;
};

// Thread per row, the left-to-right fold. For rows scanned along an outer axis consecutive threads
// take consecutive rows, so every step is one coalesced access; and it is NumPy's exact order, the
// plan of non-associative ufuncs (subtract.accumulate, ...). Loads run kUnroll steps ahead of the
// dependent combines.
template <class Ops, int RK>
__device__ __forceinline__ void scan_sequential(const char* in, char* out, index_t rows, index_t n,
                                                const ScanRows<RK>& rs, offset_t sin, offset_t sout) {
  using acc_t = typename Ops::acc_t;
  using in_t = typename Ops::in_t;
  using out_t = typename Ops::out_t;
  constexpr int kUnroll = 8;
  for (index_t r = global_thread(); r < rows; r += grid_threads()) {
    const char* src = in + offset_of<index_t, offset_t, RK>(r, rs.shape, rs.in);
    char* dst = out + offset_of<index_t, offset_t, RK>(r, rs.shape, rs.out);
    acc_t acc = Ops::map(*reinterpret_cast<const in_t*>(src));
    *reinterpret_cast<out_t*>(dst) = Ops::post(acc);
    index_t i = 1;
    for (; n - i >= index_t(kUnroll); i += kUnroll) {
      acc_t v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = Ops::map(*reinterpret_cast<const in_t*>(src + offset_t(i + u) * sin));
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        acc = Ops::combine(acc, v[u]);
        *reinterpret_cast<out_t*>(dst + offset_t(i + u) * sout) = Ops::post(acc);
      }
    }
    for (; i < n; ++i) {
      acc = Ops::combine(acc, Ops::map(*reinterpret_cast<const in_t*>(src + offset_t(i) * sin)));
      *reinterpret_cast<out_t*>(dst + offset_t(i) * sout) = Ops::post(acc);
    }
  }
}

// Warp per row, one chunk of 32 * VEC elements at a time with the running total carried: the plan
// of many rows too short to split.
template <class Ops, int VEC, bool kVector, int RK>
__device__ __forceinline__ void scan_warp_rows(const char* in, char* out, index_t rows, index_t n,
                                               const ScanRows<RK>& rs, offset_t sin, offset_t sout) {
  using acc_t = typename Ops::acc_t;
  const int lane = threadIdx.x & 31;
  const index_t warps = grid_threads() / 32;
  for (index_t r = global_thread() / 32; r < rows; r += warps) {
    const char* src = in + offset_of<index_t, offset_t, RK>(r, rs.shape, rs.in);
    char* dst = out + offset_of<index_t, offset_t, RK>(r, rs.shape, rs.out);
    acc_t carry;
    for (index_t s = 0; s < n; s += 32 * VEC) {
      acc_t x[1][VEC];
      segment_load<Ops, VEC, 1, kVector>(x, src, s, n, sin, lane);
      const acc_t total = segment_scan<Ops, VEC, 1>(x, lane);
      segment_store<Ops, VEC, 1, kVector>(x, s > 0, carry, dst, s, n, sout, lane);
      carry = s > 0 ? Ops::combine(carry, total) : total;
    }
  }
}

// ---- tiles chained by decoupled look-back ----
//
// Scratch (zeroed before the launch): a tile counter, then the tiles' status. An accumulator of 4
// or 8 bytes travels with its flag in one 8- or 16-byte word, stored and loaded by one access (as
// CUB's tile state): no fence between value and flag, one round trip per poll; the words are in
// `aggregates`. Other accumulators take one flag per tile and two value slots per tile, the
// aggregate and the inclusive prefix (separate, so a reader that saw "aggregate" never reads a
// half-written prefix), a value written before its flag with a fence between.
enum : unsigned { kTileInvalid = 0, kTileAggregate = 1, kTilePrefix = 2 };

struct TileStatus {
  unsigned int* counter;
  unsigned int* flags;
  unsigned int* aggregates;  // packed words, or tiles x slot words
  unsigned int* prefixes;
};

template <class T>
constexpr bool kPackedTileStatus = sizeof(T) == 4 || sizeof(T) == 8;

template <class T>
__device__ __forceinline__ void publish_tile(const TileStatus& st, index_t tile, unsigned flag, const T& value) {
  ScanWords<T> u;
  u.value = value;
  if constexpr (sizeof(T) == 4) {
    const unsigned long long w = (unsigned long long)flag << 32 | u.w[0];
    asm volatile("st.volatile.global.u64 [%0], %1;" ::"l"(reinterpret_cast<unsigned long long*>(st.aggregates) + tile),
                 "l"(w)
                 : "memory");
  } else if constexpr (sizeof(T) == 8) {
    const unsigned long long v = (unsigned long long)u.w[1] << 32 | u.w[0];
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(
                     reinterpret_cast<unsigned long long*>(st.aggregates) + 2 * size_t(tile)),
                 "l"((unsigned long long)flag), "l"(v)
                 : "memory");
  } else {
    constexpr int kWords = sizeof(u.w) / 4;
    volatile unsigned int* dst = (flag == kTilePrefix ? st.prefixes : st.aggregates) + size_t(tile) * kWords;
#pragma unroll
    for (int w = 0; w < kWords; ++w) dst[w] = u.w[w];
    __threadfence();
    reinterpret_cast<volatile unsigned int*>(st.flags)[tile] = flag;
  }
}

// A tile's flag and (packed status only) its value, from one load.
template <class T>
__device__ __forceinline__ unsigned poll_tile(const TileStatus& st, long long tile, T& value) {
  ScanWords<T> u;
  unsigned flag;
  if constexpr (sizeof(T) == 4) {
    unsigned long long w;
    asm volatile("ld.volatile.global.u64 %0, [%1];"
                 : "=l"(w)
                 : "l"(reinterpret_cast<const unsigned long long*>(st.aggregates) + tile)
                 : "memory");
    flag = unsigned(w >> 32);
    u.w[0] = unsigned(w);
    value = u.value;
  } else if constexpr (sizeof(T) == 8) {
    unsigned long long f, v;
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(f), "=l"(v)
                 : "l"(reinterpret_cast<const unsigned long long*>(st.aggregates) + 2 * size_t(tile))
                 : "memory");
    flag = unsigned(f);
    u.w[0] = unsigned(v);
    u.w[1] = unsigned(v >> 32);
    value = u.value;
  } else {
    flag = reinterpret_cast<const volatile unsigned int*>(st.flags)[tile];
  }
  return flag;
}

// The value of a split-status tile whose flag has been seen (after a fence).
template <class T>
__device__ __forceinline__ T read_tile(const unsigned int* slots, long long tile) {
  ScanWords<T> u;
  constexpr int kWords = sizeof(u.w) / 4;
  const volatile unsigned int* src = slots + size_t(tile) * kWords;
#pragma unroll
  for (int w = 0; w < kWords; ++w) u.w[w] = src[w];
  return u.value;
}

// Warp 0 of tile `tile` (row's first tile `first` < tile): the combined total of every earlier tile
// of the row. 32 predecessors are inspected at a time, nearest in lane 0; the window's values up to
// the nearest tile with a published prefix are combined (higher lanes on the left). Tiles take
// their index from an atomic counter in launch order, so every predecessor is running or done and
// publishes its aggregate without waiting: the spin cannot deadlock.
template <class Ops>
__device__ __forceinline__ typename Ops::acc_t look_back(const TileStatus& st, index_t tile, index_t first, int lane) {
  using acc_t = typename Ops::acc_t;
  acc_t exclusive;
  bool have = false;
  for (long long end = (long long)tile - 1;; end -= 32) {
    const long long j = end - lane;
    const bool outside = j < (long long)first;  // before the row: never read, never combined
    unsigned flag;
    acc_t v;
    // A waiting warp backs off between polls (as CUB's look-back does): thousands of warps polling
    // flags without pause contend in L2 with the tiles' own loads and stores.
    for (unsigned delay = 64;; delay = delay < 512 ? 2 * delay : delay) {
      flag = outside ? unsigned(kTilePrefix) : poll_tile(st, j, v);
      if (!__any_sync(0xffffffffu, flag == kTileInvalid)) break;
      __nanosleep(delay);
    }
    if constexpr (!kPackedTileStatus<acc_t>) {
      __threadfence();
      if (!outside) v = read_tile<acc_t>(flag == kTilePrefix ? st.prefixes : st.aggregates, j);
    }
    if (outside) {
      ScanWords<acc_t> zero;
#pragma unroll
      for (int w = 0; w < int(sizeof(zero.w) / 4); ++w) zero.w[w] = 0;
      v = zero.value;
    }
    const unsigned prefix_lanes = __ballot_sync(0xffffffffu, flag == kTilePrefix);
    const int last = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;  // lanes 0..last take part
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const acc_t other = shfl_down_any(v, o);
      if ((lane & (2 * o - 1)) == 0 && lane + o <= last) v = Ops::combine(other, v);
    }
    const acc_t window = shfl_idx_any(v, 0);
    exclusive = have ? Ops::combine(window, exclusive) : window;
    have = true;
    if (prefix_lanes) return exclusive;
  }
}

// One tile of kWarps segments per block. The tile index comes from the counter (not blockIdx);
// tile g is tile g % tiles_per_row of row g / tiles_per_row.
template <class Ops, int VEC, int K, bool kVector, int RK>
__device__ __forceinline__ void scan_tiles(const char* in, char* out, index_t n, index_t tiles_per_row,
                                           const ScanRows<RK>& rs, offset_t sin, offset_t sout, const TileStatus& st) {
  using acc_t = typename Ops::acc_t;
  constexpr int kWarps = 8;
  constexpr index_t kSegment = 32 * VEC * K;
  __shared__ unsigned int tile_index;
  __shared__ __align__(16) unsigned char totals_raw[kWarps * sizeof(acc_t)];
  __shared__ __align__(16) unsigned char prefix_raw[sizeof(acc_t)];
  acc_t* totals = reinterpret_cast<acc_t*>(totals_raw);
  acc_t* tile_prefix = reinterpret_cast<acc_t*>(prefix_raw);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  if (threadIdx.x == 0) tile_index = atomicAdd(st.counter, 1u);
  __syncthreads();
  const index_t g = tile_index;
  const index_t row = g / tiles_per_row, t = g - row * tiles_per_row;
  const char* src = in + offset_of<index_t, offset_t, RK>(row, rs.shape, rs.in);
  char* dst = out + offset_of<index_t, offset_t, RK>(row, rs.shape, rs.out);
  const index_t start = t * (kWarps * kSegment) + index_t(warp) * kSegment;

  acc_t x[K][VEC];
  segment_load<Ops, VEC, K, kVector>(x, src, start, n, sin, lane);
  const acc_t total = segment_scan<Ops, VEC, K>(x, lane);
  if (lane == 0) totals[warp] = total;
  __syncthreads();

  acc_t prefix = totals[0];  // the warps before this one (warp > 0)
  for (int w = 1; w < warp; ++w) prefix = Ops::combine(prefix, totals[w]);
  if (warp == 0) {
    acc_t aggregate = totals[0];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) aggregate = Ops::combine(aggregate, totals[w]);
    if (t == 0) {
      if (lane == 0) publish_tile(st, g, kTilePrefix, aggregate);
    } else {
      if (lane == 0) publish_tile(st, g, kTileAggregate, aggregate);
      const acc_t exclusive = look_back<Ops>(st, g, g - t, lane);
      if (lane == 0) {
        publish_tile(st, g, kTilePrefix, Ops::combine(exclusive, aggregate));
        *tile_prefix = exclusive;
      }
    }
  }
  __syncthreads();
  bool has_prefix = warp > 0;
  if (t > 0) {
    prefix = has_prefix ? Ops::combine(*tile_prefix, prefix) : *tile_prefix;
    has_prefix = true;
  }
  segment_store<Ops, VEC, K, kVector>(x, has_prefix, prefix, dst, start, n, sout, lane);
}

}  // namespace cuarray
