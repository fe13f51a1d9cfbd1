#include "ops/linalg/solvers/lu_factor.hpp"

#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"

namespace cuarray::linalg {

using libs::CusolverDnHandle;

LuFactors lu_factor(ColumnMajorStack a) {
  const int64_t n = a.rows(), batch = a.batch();
  NDArray pivots = empty(with_tail(batch_shape_of(a.transposed().shape()), {n}), DType::Int64);
  LuFactors f{std::move(a), std::move(pivots), StatusWords(batch)};
  if (n == 0 || f.lu.batch() == 0) return f;
  const ColumnMajorStack& m = f.lu;
  libs::with_cusolver([&](CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(m.dtype());
    size_t device_bytes = 0, host_bytes = 0;
    CUARRAY_CUSOLVER_CALL(cusolverDnXgetrf_bufferSize, h.handle(), h.params(), n, n, type, m.matrix(0), m.ld(), type,
                          &device_bytes, &host_bytes);
    NDArray work = device_workspace(device_bytes);
    HostWorkspace host_work(host_bytes);
    auto* pivots = reinterpret_cast<int64_t*>(f.pivots.raw_data());
    for (int64_t i = 0; i < m.batch(); ++i)
      CUARRAY_CUSOLVER_CALL(cusolverDnXgetrf, h.handle(), h.params(), n, n, type, m.matrix(i), m.ld(), pivots + i * n,
                            type, work.raw_data(), device_bytes, host_work.data(), host_bytes, f.status.word(i));
  });
  return f;
}

void lu_solve(const LuFactors& f, cublasOperation_t trans, const ColumnMajorStack& b) {
  const int64_t n = f.lu.rows(), k = b.cols();
  if (n == 0 || k == 0 || b.batch() == 0) return;
  // getrs reports only bad arguments, which would throw first; its words are not kept.
  StatusWords argument_status(1);
  libs::with_cusolver([&](CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(b.dtype());
    const auto* pivots = reinterpret_cast<const int64_t*>(f.pivots.raw_data());
    for (int64_t i = 0; i < b.batch(); ++i)
      CUARRAY_CUSOLVER_CALL(cusolverDnXgetrs, h.handle(), h.params(), trans, n, k, type, f.lu.matrix(i), f.lu.ld(),
                            pivots + i * n, type, b.matrix(i), b.ld(), argument_status.word(0));
  });
}

}  // namespace cuarray::linalg
