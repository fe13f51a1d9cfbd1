// Building blocks of the generated reduction kernels (src/ops/reduction_source.cpp writes the
// per-operation part). A block is TX x TY threads: x walks outputs, y walks the reduced elements.
namespace cuarray {

// Shuffles any trivially copyable value by 4-byte words.
template <class T>
__device__ __forceinline__ T cuarray_shfl_down(T v, int offset) {
  constexpr int kWords = (sizeof(T) + 3) / 4;
  union U {
    T value;
    unsigned int words[kWords];
    __device__ U() {}
  } in, out;
  in.value = v;
#pragma unroll
  for (int w = 0; w < kWords; ++w) out.words[w] = __shfl_down_sync(0xffffffffu, in.words[w], offset);
  return out.value;
}

// Combines the TY partial values of each x column; the result lands in threadIdx.y == 0.
template <class Acc, int TX, int TY, class Combine>
__device__ __forceinline__ Acc block_reduce_y(Acc acc, Acc* smem, Combine combine) {
  if (TY == 1) return acc;
  if (TX == 1) {
    // One output per block: warp shuffles for the last 32 lanes, shared memory between warps.
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc = combine(acc, cuarray_shfl_down(acc, o));
    if (TY <= 32) return acc;
    const int warp = threadIdx.y / 32, lane = threadIdx.y % 32;
    if (lane == 0) smem[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = lane < TY / 32 ? smem[lane] : smem[0];
      const int n = TY / 32;
      for (int o = 16; o > 0; o >>= 1) {
        Acc other = cuarray_shfl_down(acc, o);
        if (lane + o < n) acc = combine(acc, other);
      }
    }
    return acc;
  }
  smem[threadIdx.y * TX + threadIdx.x] = acc;
  __syncthreads();
#pragma unroll
  for (int s = TY / 2; s > 0; s >>= 1) {
    if (threadIdx.y < s) {
      acc = combine(acc, smem[(threadIdx.y + s) * TX + threadIdx.x]);
      smem[threadIdx.y * TX + threadIdx.x] = acc;
    }
    __syncthreads();
  }
  return acc;
}

}  // namespace cuarray

