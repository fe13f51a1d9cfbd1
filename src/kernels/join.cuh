// Several contiguous pieces copied side by side into one destination in one launch
// (src/ops/engines/copy/join_copy.cpp): numpy.concatenate of inputs that already have the result's dtype and
// memory order. The destination is `rows` rows of `width` words, row r starting at r * dst_stride;
// piece p fills columns [starts[p], starts[p + 1]) of every row and is itself rows of
// (starts[p + 1] - starts[p]) words, packed. One thread per destination word: the writes are
// coalesced, and a warp reads consecutive words of one piece (two at a boundary). The generated
// part defines word_t (a raw word of 1-16 bytes), index_t / offset_t and kPieces (the capacity of
// the piece tables; starts[pieces] is the width). The tables are __grid_constant__: indexed by a
// run-time piece number, plain parameters would be copied to local memory by every thread first.
extern "C" __global__ void __launch_bounds__(256)
    cuarray_join(word_t* dst, index_t rows, index_t width, index_t dst_stride, int pieces,
                 const __grid_constant__ cuarray::Array<const word_t*, kPieces> src,
                 const __grid_constant__ cuarray::Array<index_t, kPieces + 1> starts) {
  using namespace cuarray;
  // The tables move to shared memory: when pieces are narrower than a warp, lanes look up
  // different pieces, and divergent reads of parameters serialize where shared memory does not.
  __shared__ index_t piece_start[kPieces + 1];
  __shared__ const word_t* piece_src[kPieces];
  for (int p = threadIdx.x; p <= pieces; p += blockDim.x) {
    piece_start[p] = starts.v[p];
    if (p < pieces) piece_src[p] = src.v[p];
  }
  __syncthreads();
  const index_t n = rows * width;
  for (index_t i = global_thread(); i < n; i += grid_threads()) {
    const index_t row = rows == 1 ? 0 : i / width;
    const index_t col = i - row * width;
    int lo = 0, hi = pieces - 1;  // the last piece starting at or before col
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (piece_start[mid] <= col) lo = mid;
      else hi = mid - 1;
    }
    const index_t start = piece_start[lo];
    dst[row * dst_stride + col] = piece_src[lo][row * (piece_start[lo + 1] - start) + (col - start)];
  }
}
