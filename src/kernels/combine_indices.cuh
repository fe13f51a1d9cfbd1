// Combines the K index arrays of a multi-array index key (a[i, j], a[i, :, j], ...) into one
// flat index over the K indexed dims, in C order over those dims, so that the one gather/scatter
// kernel (gather.cuh) addresses them as an indexed group of rank K (src/ops/engines/gather/combine_indices.cpp).
// The generated part defines, before this fragment: index_t / offset_t, R (rank of the coalesced
// broadcast shape of the index arrays), K, out_t (the flat index's type), and
//   CUARRAY_INDEX_PARAMS               the K index pointers as kernel parameters (idx0, idx1, ...)
//   CUARRAY_FOR_EACH_INDEX(X)          X(k, type of index k, pointer of index k) for every k
// Index arrays may each have their own integer or bool dtype; they are read where they are, by
// byte strides over the broadcast shape (0 where one does not vary).
namespace cuarray {

// i normalized into [0, len) with NumPy's negative indices; false when out of range.
template <class T>
__device__ __forceinline__ bool normalized_index(T raw, long long len, long long& i) {
  if constexpr (kind_v<T> == Kind::Unsigned || kind_v<T> == Kind::Bool) {
    const unsigned long long u = (unsigned long long)raw;
    i = (long long)u;
    return u < (unsigned long long)len;
  } else {
    const long long v = (long long)raw;
    i = v < 0 ? v + len : v;
    return i >= 0 && i < len;
  }
}

}  // namespace cuarray

// out[o] = sum_k index_k[o] * mults[k] with every index_k checked against lens[k]. A bad index
// sets *error (the host reads it once per call and names the first bad index) and its flat
// index is written as 0, so that a gather launched before that read stays in bounds.
extern "C" __global__ void cuarray_combine_indices(out_t* out, CUARRAY_INDEX_PARAMS, index_t n,
                                                   cuarray::Array<index_t, R> shape,
                                                   cuarray::Array<offset_t, K * R> strides,
                                                   cuarray::Array<offset_t, K> lens, cuarray::Array<offset_t, K> mults,
                                                   unsigned int* error) {
  using namespace cuarray;
  for (index_t o = global_thread(); o < n; o += grid_threads()) {
    offset_t off[K];
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] = 0;
    for_each_dim_index<index_t, R>(o, shape, [&](int d, index_t i) {
#pragma unroll
      for (int k = 0; k < K; ++k) off[k] += static_cast<offset_t>(i) * strides.v[k * R + d];
    });
    long long flat = 0;
    bool ok = true;
#define CUARRAY_COMBINE_ONE(k, T, ptr)                                                   \
    {                                                                                    \
      long long i;                                                                       \
      ok &= normalized_index<T>(*reinterpret_cast<const T*>(ptr + off[k]), lens.v[k], i); \
      flat += i * (long long)mults.v[k];                                                 \
    }
    CUARRAY_FOR_EACH_INDEX(CUARRAY_COMBINE_ONE)
#undef CUARRAY_COMBINE_ONE
    if (!ok) {
      *error = 1u;
      flat = 0;
    }
    out[o] = static_cast<out_t>(flat);
  }
}
