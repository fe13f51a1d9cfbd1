// numpy.linalg.cholesky(a, upper) with cusolverDnXpotrf on A's own C-order copy, read as A^T.
//
// For Hermitian A, A^T = conj(A). Factoring its upper triangle, A^T = R^H R, gives A = R^T conj(R):
// the lower factor L = R^T, which is R's column-major buffer read in C order. The upper factor
// (upper=True) comes the same way from the lower triangle. potrf reads the triangle of A^T that
// is the wanted triangle of A, as LAPACK does in NumPy, and leaves the other alone, so the other
// triangle of the result is cleared afterwards.
#include "cuarray/linalg.hpp"
#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/status_words.hpp"

namespace cuarray::linalg {

NDArray cholesky(const NDArray& a, bool upper) {
  check_square(a);
  const DType dtype = solver_dtype(a.dtype());
  ColumnMajorStack m = ColumnMajorStack::transposed_of(a, dtype);
  const int64_t n = m.rows();
  if (a.size() == 0) return m.transposed();
  StatusWords status(m.batch());
  const cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(dtype);
    size_t device_bytes = 0, host_bytes = 0;
    CUARRAY_CUSOLVER_CALL(cusolverDnXpotrf_bufferSize, h.handle(), h.params(), fill, n, type, m.matrix(0), m.ld(), type,
                          &device_bytes, &host_bytes);
    NDArray work = device_workspace(device_bytes);
    HostWorkspace host_work(host_bytes);
    for (int64_t i = 0; i < m.batch(); ++i)
      CUARRAY_CUSOLVER_CALL(cusolverDnXpotrf, h.handle(), h.params(), fill, n, type, m.matrix(i), m.ld(), type,
                            work.raw_data(), device_bytes, host_work.data(), host_bytes, status.word(i));
  });
  status.raise_if_failed("Matrix is not positive definite");
  return triangle(m.transposed(), upper);
}

}  // namespace cuarray::linalg
