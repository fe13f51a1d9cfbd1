// numpy.linalg.eigh / eigvalsh on A's own C-order copy, read as A^T = conj(A) for Hermitian A:
// the same eigenvalues, conjugated eigenvectors, and A's lower triangle is its upper one. One
// cusolverDnXsyevBatched call for a stack of small matrices, else syevd per matrix
// (routine_choice.hpp).
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/routine_choice.hpp"
#include "ops/linalg/solvers/status_words.hpp"

namespace cuarray::linalg {

EigResult eigh(const NDArray& a, char uplo, bool compute_vectors) {
  if (uplo != 'L' && uplo != 'U') throw_error(ErrorKind::Value, "UPLO argument must be 'L' or 'U'");
  check_square(a);
  const DType dtype = solver_dtype(a.dtype());
  ColumnMajorStack m = ColumnMajorStack::transposed_of(a, dtype);
  const int64_t n = m.rows();
  NDArray w = empty(with_tail(batch_shape_of(a.shape()), {n}), real_dtype(dtype));
  if (a.size() == 0) return {w, compute_vectors ? m.transposed() : NDArray()};

  StatusWords status(m.batch());
  const cublasFillMode_t fill = uplo == 'L' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const cusolverEigMode_t job = compute_vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const bool batched = choose_eigh_routine(n, m.batch()) == EighRoutine::SyevBatched;
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(dtype), w_type = libs::cuda_data_type(real_dtype(dtype));
    size_t device_bytes = 0, host_bytes = 0;
    if (batched) {
      CUARRAY_CUSOLVER_CALL(cusolverDnXsyevBatched_bufferSize, h.handle(), h.params(), job, fill, n, type, m.matrix(0),
                            m.ld(), w_type, w.raw_data(), type, &device_bytes, &host_bytes, m.batch());
    } else {
      CUARRAY_CUSOLVER_CALL(cusolverDnXsyevd_bufferSize, h.handle(), h.params(), job, fill, n, type, m.matrix(0), m.ld(),
                            w_type, w.raw_data(), type, &device_bytes, &host_bytes);
    }
    NDArray work = device_workspace(device_bytes);
    HostWorkspace host_work(host_bytes);
    if (batched) {
      CUARRAY_CUSOLVER_CALL(cusolverDnXsyevBatched, h.handle(), h.params(), job, fill, n, type, m.matrix(0), m.ld(),
                            w_type, w.raw_data(), type, work.raw_data(), device_bytes, host_work.data(), host_bytes,
                            status.word(0), m.batch());
      return;
    }
    for (int64_t i = 0; i < m.batch(); ++i)
      CUARRAY_CUSOLVER_CALL(cusolverDnXsyevd, h.handle(), h.params(), job, fill, n, type, m.matrix(i), m.ld(), w_type,
                            w.raw_data() + i * n * w.itemsize(), type, work.raw_data(), device_bytes,
                            host_work.data(), host_bytes, status.word(i));
  });
  status.raise_if_failed("Eigenvalues did not converge");
  if (!compute_vectors) return {w, NDArray()};
  return {w, m.matrices_c_order(/*conjugate=*/true)};
}

}  // namespace cuarray::linalg
