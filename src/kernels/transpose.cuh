// Tiled transpose copy (src/ops/engines/copy/transpose_copy.cpp): dst = src (cast to dst's dtype) where the
// input runs fastest along dim "a" and the output along dim "b". A block stages a kTile x kTile
// tile through shared memory: it reads with its lanes along a (coalesced in the input), then
// writes with its lanes along b (coalesced in the output). The other dims are batch dims, each
// tile lying in one batch. The generated part defines, before this fragment: in_t / out_t (the
// storage types; raw words of the itemsize for a plain copy), word_t (a raw word of out_t's
// size: what shared memory holds, so that types with constructors need no shared initializer),
// index_t / offset_t, RB (rank of the batch shape, at least 1) and
// `out_t transpose_convert(const in_t&)`.
namespace cuarray {

constexpr int kTile = 32;  // a warp's width along a (reads) and along b (writes)
constexpr int kRows = 8;   // block rows: every thread moves kTile / kRows elements each way

}  // namespace cuarray

extern "C" __global__ void __launch_bounds__(cuarray::kTile * cuarray::kRows)
    cuarray_transpose_copy(const char* src, char* dst, index_t len_a, index_t len_b, index_t tiles_a,
                           index_t tiles_b, index_t ntiles, cuarray::Array<index_t, RB> batch_shape,
                           cuarray::Array<offset_t, RB> src_batch, cuarray::Array<offset_t, RB> dst_batch,
                           offset_t src_a, offset_t src_b, offset_t dst_a, offset_t dst_b) {
  using namespace cuarray;
  // Row b of the tile holds the elements along a; one word of padding per row puts a column's
  // elements in distinct banks (lane stride kTile + 1 words: conflict-free for 4, 8 and 16 bytes).
  __shared__ word_t tile[kTile][kTile + 1];
  const index_t tx = threadIdx.x, ty = threadIdx.y;
  for (index_t t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const index_t ta = t % tiles_a;
    const index_t rest = t / tiles_a;
    const index_t tb = rest % tiles_b;
    offset_t src_off = 0, dst_off = 0;
    for_each_dim_index<index_t, RB>(rest / tiles_b, batch_shape, [&](int d, index_t i) {
      src_off += static_cast<offset_t>(i) * src_batch.v[d];
      dst_off += static_cast<offset_t>(i) * dst_batch.v[d];
    });
    const index_t a0 = ta * kTile, b0 = tb * kTile;

    const index_t ra = a0 + tx;
    if (ra < len_a) {
      const char* p = src + src_off + static_cast<offset_t>(ra) * src_a;
#pragma unroll
      for (int k = 0; k < kTile; k += kRows) {
        const index_t rb = b0 + ty + k;
        if (rb < len_b)
          *reinterpret_cast<out_t*>(&tile[ty + k][tx]) =
              transpose_convert(*reinterpret_cast<const in_t*>(p + static_cast<offset_t>(rb) * src_b));
      }
    }
    __syncthreads();

    const index_t wb = b0 + tx;
    if (wb < len_b) {
      char* p = dst + dst_off + static_cast<offset_t>(wb) * dst_b;
#pragma unroll
      for (int k = 0; k < kTile; k += kRows) {
        const index_t wa = a0 + ty + k;
        if (wa < len_a) *reinterpret_cast<word_t*>(p + static_cast<offset_t>(wa) * dst_a) = tile[tx][ty + k];
      }
    }
    __syncthreads();  // the tile is reused by the next iteration
  }
}
