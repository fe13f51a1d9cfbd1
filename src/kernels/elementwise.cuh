// Building blocks of the generated elementwise kernels (src/ops/engines/elementwise/elementwise_source.cpp writes the
// per-operation part: operand types, the element function and the kernel signature).
namespace cuarray {

// N consecutive elements moved as one aligned load or store (16 bytes at most).
template <class T, int N>
struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

template <int N>
struct Ptrs {
  char* p[N > 0 ? N : 1];  // a user kernel whose arrays are all raw has no pointer operands
};

template <class T, int N>
struct Array {
  T v[N];
};

__device__ __forceinline__ unsigned int global_thread() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ unsigned int grid_threads() { return gridDim.x * blockDim.x; }

// Splits linear index i over R dims (dim R-1 fastest) and calls visit(d, index along d).
template <class Index, int R, class Visit>
__device__ __forceinline__ void for_each_dim_index(Index i, const Array<Index, R>& shape, Visit visit) {
#pragma unroll
  for (int d = R - 1; d >= 0; --d) {
    Index idx = i;
    if (d > 0) {
      idx = i % shape.v[d];
      i /= shape.v[d];
    }
    visit(d, idx);
  }
}

// Pointers to element i in each of NPTR operands over R coalesced dims.
template <class Index, class Offset, int NPTR, int R>
__device__ __forceinline__ void strided_pointers(Index i, const Ptrs<NPTR>& base, const Array<Index, R>& shape,
                                                 const Array<Offset, NPTR * R>& strides, char* (&q)[NPTR]) {
#pragma unroll
  for (int k = 0; k < NPTR; ++k) q[k] = base.p[k];
  for_each_dim_index<Index, R>(i, shape, [&](int d, Index idx) {
#pragma unroll
    for (int k = 0; k < NPTR; ++k) q[k] += static_cast<Offset>(idx) * strides.v[k * R + d];
  });
}

// Byte offset of element i of one operand.
template <class Index, class Offset, int R>
__device__ __forceinline__ Offset offset_of(Index i, const Array<Index, R>& shape, const Array<Offset, R>& strides) {
  Offset off = 0;
  for_each_dim_index<Index, R>(i, shape, [&](int d, Index idx) { off += static_cast<Offset>(idx) * strides.v[d]; });
  return off;
}

}  // namespace cuarray
