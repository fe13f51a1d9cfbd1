// numpy.linalg.qr: Householder QR (cusolverDnXgeqrf) of a column-major copy of A, then Q formed
// from the reflectors (orgqr/ungqr). R is taken before Q overwrites the reflectors.
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/status_words.hpp"

namespace cuarray::linalg {
namespace {

// Householder reflectors of every matrix of `a` (in place) and their scales tau (..., k).
NDArray householder(const ColumnMajorStack& a) {
  const int64_t m = a.rows(), n = a.cols(), k = std::min(m, n);
  NDArray tau = empty(with_tail(batch_shape_of(a.transposed().shape()), {k}), a.dtype());
  if (k == 0 || a.batch() == 0) return tau;
  StatusWords argument_status(1);  // geqrf fails only on bad arguments
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(a.dtype());
    size_t device_bytes = 0, host_bytes = 0;
    CUARRAY_CUSOLVER_CALL(cusolverDnXgeqrf_bufferSize, h.handle(), h.params(), m, n, type, a.matrix(0), a.ld(), type,
                          tau.raw_data(), type, &device_bytes, &host_bytes);
    NDArray work = device_workspace(device_bytes);
    HostWorkspace host_work(host_bytes);
    for (int64_t i = 0; i < a.batch(); ++i)
      CUARRAY_CUSOLVER_CALL(cusolverDnXgeqrf, h.handle(), h.params(), m, n, type, a.matrix(i), a.ld(), type,
                            tau.raw_data() + i * k * tau.itemsize(), type, work.raw_data(), device_bytes,
                            host_work.data(), host_bytes, argument_status.word(0));
  });
  return tau;
}

// Forms, in place, the first q.cols() columns of the Q whose k reflectors q's first columns hold.
void form_q(const ColumnMajorStack& q, const NDArray& tau) {
  const int64_t k = tau.shape()[tau.ndim() - 1];
  const int m = static_cast<int>(q.rows()), n = static_cast<int>(q.cols());
  StatusWords argument_status(1);
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    libs::visit_lapack_type(q.dtype(), [&]<class T>(T) {
      using Lapack = libs::LapackTyped<T>;
      int lwork = 0;
      auto* tau0 = reinterpret_cast<const T*>(tau.raw_data());
      libs::check_cusolver(Lapack::orgqr_buffer_size()(h.handle(), m, n, int(k), static_cast<const T*>(q.matrix(0)),
                                                       int(q.ld()), tau0, &lwork),
                           "cusolverDn<t>orgqr_bufferSize");
      NDArray work = device_workspace(size_t(lwork) * sizeof(T));
      for (int64_t i = 0; i < q.batch(); ++i)
        libs::check_cusolver(Lapack::orgqr()(h.handle(), m, n, int(k), static_cast<T*>(q.matrix(i)), int(q.ld()),
                                             tau0 + i * k, reinterpret_cast<T*>(work.raw_data()), lwork,
                                             argument_status.word(0)),
                             "cusolverDn<t>orgqr");
    });
  });
}

}  // namespace

std::optional<QrMode> qr_mode_from_name(std::string_view name) {
  if (name == "reduced") return QrMode::Reduced;
  if (name == "complete") return QrMode::Complete;
  if (name == "r") return QrMode::R;
  if (name == "raw") return QrMode::Raw;
  return std::nullopt;
}

QrResult qr(const NDArray& a, QrMode mode) {
  check_at_least_2d(a);
  const DType dtype = solver_dtype(a.dtype());
  ColumnMajorStack factored = ColumnMajorStack::copy_of(a, dtype);
  const int64_t m = factored.rows(), n = factored.cols(), k = std::min(m, n);
  const Shape batch = batch_shape_of(a.shape());
  NDArray tau = householder(factored);
  if (mode == QrMode::Raw) return {factored.transposed(), tau};

  const int64_t q_cols = mode == QrMode::Complete ? m : k;
  NDArray r = triangle(factored.matrices().slice(a.ndim() - 2, 0, q_cols, 1), /*upper=*/true);
  if (mode == QrMode::R) return {r, NDArray()};

  // Q's first k columns start as the reflectors; complete mode's extra m - k columns join them.
  ColumnMajorStack q = q_cols == n ? std::move(factored) : ColumnMajorStack(batch, m, q_cols, dtype);
  if (q_cols != n && q.batch() > 0 && k > 0)
    q.matrices().slice(a.ndim() - 1, 0, k, 1).assign(factored.matrices().slice(a.ndim() - 1, 0, k, 1));
  if (k == 0) {
    // No reflectors: Q is the identity (its columns from an empty product of reflectors).
    if (q.batch() > 0 && m > 0) q.matrices().assign(eye(m, q_cols, 0, dtype));
  } else if (q.batch() > 0) {
    form_q(q, tau);
  }
  NDArray q_c = q.matrices_c_order();
  return {q_c, r};
}

}  // namespace cuarray::linalg
