// Stream compaction: the selected elements of a predicate, kept in C order (src/ops/engines/select/select.cpp).
// The generated part defines, before this fragment: pred_t (the predicate's storage type),
// word_t (a raw word of the values' itemsize), index_t / offset_t (32- or 64-bit index math),
// R (rank of the coalesced iteration shape), RI (rank the flat index is unravelled over in
// index mode), kItems (elements per thread) and kMode (SelectMode below).
//
// Element j of the iteration is item k of thread t of tile b with j = b * kTile + k * kThreads + t
// (striped: every load of a warp is coalesced). The C order inside a tile is therefore
// (k, warp, lane), which is how the write pass ranks the selected elements.
namespace cuarray {

enum SelectMode : int {
  kSelectValues = 0,   // out[rank] = values[j]          (x[mask], extract, compress)
  kSelectIndices = 1,  // out[rank, d] = unravel(j)[d]   (nonzero, argwhere, flatnonzero)
  kSelectScatter = 2,  // values[j] = in[rank]           (x[mask] = v)
};

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kTile = kThreads * kItems;
static_assert((kItems * kWarps) % 32 == 0, "the rank scan gives every lane the same number of entries");

struct SelectOffsets {
  offset_t pred, value;
};

// Byte offsets of element j in the predicate and in the values.
__device__ __forceinline__ SelectOffsets select_offsets(index_t j, const Array<index_t, R>& shape,
                                                        const Array<offset_t, R>& pstrides,
                                                        const Array<offset_t, R>& vstrides) {
  SelectOffsets o{0, 0};
  for_each_dim_index<index_t, R>(j, shape, [&](int d, index_t i) {
    o.pred += static_cast<offset_t>(i) * pstrides.v[d];
    o.value += static_cast<offset_t>(i) * vstrides.v[d];
  });
  return o;
}

__device__ __forceinline__ bool select_pred(const char* pred, offset_t off) {
  return cuarray_cast<bool>(*reinterpret_cast<const pred_t*>(pred + off));
}

}  // namespace cuarray

// Pass 1: the number of selected elements in each tile.
extern "C" __global__ void __launch_bounds__(cuarray::kThreads)
    cuarray_select_count(const char* pred, index_t n, cuarray::Array<index_t, R> shape,
                         cuarray::Array<offset_t, R> pstrides, unsigned int* tile_counts) {
  using namespace cuarray;
  __shared__ unsigned int warp_sums[kWarps];
  const index_t base = static_cast<index_t>(blockIdx.x) * kTile + threadIdx.x;
  Array<offset_t, R> none{};
  unsigned int count = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const index_t j = base + static_cast<index_t>(k) * kThreads;
    if (j < n) count += select_pred(pred, select_offsets(j, shape, pstrides, none).pred);
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) count += __shfl_down_sync(0xffffffffu, count, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int total = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) total += warp_sums[w];
    tile_counts[blockIdx.x] = total;
  }
}

// Pass 2 (one block of 1024 threads): offsets[t] = exclusive prefix sum of tile_counts,
// offsets[ntiles] = the total, which the host reads to size the output.
extern "C" __global__ void __launch_bounds__(1024)
    cuarray_select_scan(const unsigned int* tile_counts, unsigned long long ntiles, unsigned long long* offsets) {
  __shared__ unsigned long long warp_sums[32];
  const unsigned long long per = (ntiles + 1023) / 1024;
  const unsigned long long first = threadIdx.x * per;
  const unsigned long long last = first + per < ntiles ? first + per : ntiles;
  unsigned long long sum = 0;
  for (unsigned long long t = first; t < last; ++t) sum += tile_counts[t];
  // Inclusive scan of the thread sums: within warps by shuffles, then over the warp totals.
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned long long incl = sum;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    unsigned long long v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += v;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    unsigned long long w = warp_sums[lane];
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      unsigned long long v = __shfl_up_sync(0xffffffffu, w, o);
      if (lane >= o) w += v;
    }
    warp_sums[lane] = w;
  }
  __syncthreads();
  unsigned long long running = incl - sum + (warp > 0 ? warp_sums[warp - 1] : 0ull);
  for (unsigned long long t = first; t < last; ++t) {
    offsets[t] = running;
    running += tile_counts[t];
  }
  if (threadIdx.x == 1023) offsets[ntiles] = running;
}

// Pass 3: each selected element gets its rank (tile offset + the count before it in the tile,
// from per-(item, warp) ballots) and is written there (or, scattering, read from there).
extern "C" __global__ void __launch_bounds__(cuarray::kThreads)
    cuarray_select_write(const char* pred, const char* in, char* out, index_t n, cuarray::Array<index_t, R> shape,
                         cuarray::Array<offset_t, R> pstrides, cuarray::Array<offset_t, R> vstrides,
                         const unsigned long long* offsets, cuarray::Array<index_t, RI> ishape,
                         long long idim_stride, long long irank_stride) {
  using namespace cuarray;
  __shared__ unsigned int prefix[kItems * kWarps];  // selected elements before (item k, warp w)
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const index_t base = static_cast<index_t>(blockIdx.x) * kTile + threadIdx.x;
  unsigned int ballots[kItems];
  offset_t voff[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const index_t j = base + static_cast<index_t>(k) * kThreads;
    bool p = false;
    voff[k] = 0;
    if (j < n) {
      const SelectOffsets o = select_offsets(j, shape, pstrides, vstrides);
      p = select_pred(pred, o.pred);
      voff[k] = o.value;
    }
    ballots[k] = __ballot_sync(0xffffffffu, p);
    if (lane == 0) prefix[k * kWarps + warp] = __popc(ballots[k]);
  }
  __syncthreads();
  if (warp == 0) {  // exclusive scan of the kItems * kWarps counts, in C order (k major)
    constexpr int kPer = kItems * kWarps / 32;
    unsigned int own[kPer], sum = 0;
#pragma unroll
    for (int e = 0; e < kPer; ++e) {
      own[e] = prefix[lane * kPer + e];
      sum += own[e];
    }
    unsigned int incl = sum;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      unsigned int v = __shfl_up_sync(0xffffffffu, incl, o);
      if (lane >= o) incl += v;
    }
    unsigned int running = incl - sum;
#pragma unroll
    for (int e = 0; e < kPer; ++e) {
      prefix[lane * kPer + e] = running;
      running += own[e];
    }
  }
  __syncthreads();
  const unsigned long long tile_offset = offsets[blockIdx.x];
  const unsigned int below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    if (!(ballots[k] >> lane & 1u)) continue;
    const unsigned long long rank = tile_offset + prefix[k * kWarps + warp] + __popc(ballots[k] & below);
    if constexpr (kMode == kSelectValues) {
      reinterpret_cast<word_t*>(out)[rank] = *reinterpret_cast<const word_t*>(in + voff[k]);
    } else if constexpr (kMode == kSelectScatter) {
      *reinterpret_cast<word_t*>(out + voff[k]) = reinterpret_cast<const word_t*>(in)[rank];
    } else {
      const index_t j = base + static_cast<index_t>(k) * kThreads;
      long long* dst = reinterpret_cast<long long*>(out) + static_cast<long long>(rank) * irank_stride;
      for_each_dim_index<index_t, RI>(j, ishape, [&](int d, index_t i) { dst[d * idim_stride] = (long long)i; });
    }
  }
}
