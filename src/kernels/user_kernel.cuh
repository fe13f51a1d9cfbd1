// What the body of a user ElementwiseKernel / ReductionKernel sees besides its parameters, under
// the names CuPy gives them: CArray for `raw` parameters, the indexer `_ind`, and the type names
// float16 and complex<T> (cuarray's own types, included when the kernel names them).
namespace cuarray {

// A raw array parameter: the body indexes it itself, x[i] by its C-order flat index (as CuPy's
// CArray does, whatever the strides) or x[idx] by one index per dimension. The trailing template
// parameters are CuPy's (contiguity, 32-bit indexing) and are accepted so that preambles written
// for CuPy compile; the layout is always read from shape and strides.
template <class T, int R, bool CContiguous = false, bool Index32 = false>
struct CArray {
  static constexpr int ndim = R;
  char* data_;
  int64_t size_;
  int64_t shape_[R > 0 ? R : 1];
  int64_t strides_[R > 0 ? R : 1];  // bytes

  __device__ T* data() const { return reinterpret_cast<T*>(data_); }
  __device__ ptrdiff_t size() const { return size_; }
  __device__ const int64_t* shape() const { return shape_; }
  __device__ const int64_t* strides() const { return strides_; }

  __device__ T& operator[](ptrdiff_t i) const {
    int64_t offset = 0;
#pragma unroll
    for (int d = R - 1; d > 0; --d) {
      offset += (i % shape_[d]) * strides_[d];
      i /= shape_[d];
    }
    if (R > 0) offset += i * strides_[0];
    return *reinterpret_cast<T*>(data_ + offset);
  }
  __device__ T& operator[](const ptrdiff_t (&idx)[R > 0 ? R : 1]) const {
    int64_t offset = 0;
#pragma unroll
    for (int d = 0; d < R; ++d) offset += idx[d] * strides_[d];
    return *reinterpret_cast<T*>(data_ + offset);
  }
  __device__ T& operator[](const int (&idx)[R > 0 ? R : 1]) const {
    int64_t offset = 0;
#pragma unroll
    for (int d = 0; d < R; ++d) offset += static_cast<int64_t>(idx[d]) * strides_[d];
    return *reinterpret_cast<T*>(data_ + offset);
  }
};

// `_ind` in a user kernel's body: the iteration's size and the current index.
struct CIndexer {
  ptrdiff_t size_, index_;
  __device__ ptrdiff_t size() const { return size_; }
  __device__ ptrdiff_t get() const { return index_; }
};

}  // namespace cuarray
using cuarray::CArray;
using cuarray::CIndexer;
