#include "ops/linalg/solvers/lu_factor.hpp"

#include <vector>

#include "libs/cublas.hpp"
#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"
#include "ops/linalg/solvers/routine_choice.hpp"

namespace cuarray::linalg {
namespace {

using libs::CusolverDnHandle;

// The device array of the stack's matrix addresses that cuBLAS's batched routines take.
NDArray matrix_pointers(const ColumnMajorStack& s) {
  std::vector<uint64_t> addresses(static_cast<size_t>(s.batch()));
  for (int64_t i = 0; i < s.batch(); ++i) addresses[i] = reinterpret_cast<uint64_t>(s.matrix(i));
  return from_host(addresses.data(), Shape{s.batch()}, DType::UInt64);
}

// cuBLAS's typed batched LU routines of one precision.
template <class T> struct BatchedLu;
#define CUARRAY_BATCHED_LU(T, getrf, getrs)                                  \
  template <> struct BatchedLu<T> {                                         \
    static auto factor() { return libs::cublas().getrf; }                   \
    static auto solve() { return libs::cublas().getrs; }                    \
  };
CUARRAY_BATCHED_LU(float, cublasSgetrfBatched, cublasSgetrsBatched)
CUARRAY_BATCHED_LU(double, cublasDgetrfBatched, cublasDgetrsBatched)
CUARRAY_BATCHED_LU(cuComplex, cublasCgetrfBatched, cublasCgetrsBatched)
CUARRAY_BATCHED_LU(cuDoubleComplex, cublasZgetrfBatched, cublasZgetrsBatched)
#undef CUARRAY_BATCHED_LU

void factor_batched(LuFactors& f) {
  const ColumnMajorStack& m = f.lu;
  NDArray pointers = matrix_pointers(m);
  libs::with_cublas([&](cublasHandle_t h) {
    libs::visit_lapack_type(m.dtype(), [&]<class T>(T) {
      libs::check_cublas(BatchedLu<T>::factor()(h, int(m.rows()), reinterpret_cast<T* const*>(pointers.raw_data()),
                                                int(m.ld()), reinterpret_cast<int*>(f.pivots.raw_data()),
                                                f.status.word(0), int(m.batch())),
                         "cublas<t>getrfBatched");
    });
  });
}

void solve_batched(const LuFactors& f, cublasOperation_t trans, const ColumnMajorStack& b) {
  NDArray a_pointers = matrix_pointers(f.lu), b_pointers = matrix_pointers(b);
  int argument_error = 0;  // getrsBatched reports only bad arguments, on the host
  libs::with_cublas([&](cublasHandle_t h) {
    libs::visit_lapack_type(b.dtype(), [&]<class T>(T) {
      libs::check_cublas(BatchedLu<T>::solve()(h, trans, int(f.lu.rows()), int(b.cols()),
                                               reinterpret_cast<const T* const*>(a_pointers.raw_data()),
                                               int(f.lu.ld()), reinterpret_cast<const int*>(f.pivots.raw_data()),
                                               reinterpret_cast<T* const*>(b_pointers.raw_data()), int(b.ld()),
                                               &argument_error, int(b.batch())),
                         "cublas<t>getrsBatched");
    });
  });
}

}  // namespace

LuFactors lu_factor(ColumnMajorStack a) {
  const int64_t n = a.rows(), batch = a.batch();
  const bool batched = choose_lu_routine(n, batch) == LuRoutine::GetrfBatched;
  NDArray pivots = empty(with_tail(batch_shape_of(a.transposed().shape()), {n}), batched ? DType::Int32 : DType::Int64);
  LuFactors f{std::move(a), std::move(pivots), StatusWords(batch), batched};
  if (n == 0 || f.lu.batch() == 0) return f;
  if (batched) {
    factor_batched(f);
    return f;
  }
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
  if (f.batched) {
    solve_batched(f, trans, b);
    return;
  }
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
