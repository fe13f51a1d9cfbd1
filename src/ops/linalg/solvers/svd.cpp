// numpy.linalg.svd with gesvd, gesvdj, gesvdp, the batched Jacobi gesvdjBatched or cuarray's own
// batched Jacobi kernel for small matrices (routine_choice.hpp).
//
// gesvd needs rows >= cols, so a wide A (M <= N) is factored as A^T, which is its own C-order copy
// read column-major: A^T = U' S V'^H gives A = conj(V') S U'^T, so A's U is V'^H read in C order
// and A's Vh is U' read in C order, both without a copy. A tall A is copied column-major and its
// factors are transposed into C order. gesvdp and the Jacobi routines return V rather than V^H;
// RawSvd says which one it holds. Jacobi that does not converge is re-run with gesvd.
#include <algorithm>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"
#include "ops/linalg/solvers/jacobi_svd.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/routine_choice.hpp"
#include "ops/linalg/solvers/status_words.hpp"
#include "ops/linalg/solvers/svd_hermitian.hpp"

namespace cuarray::linalg {
namespace {

constexpr const char* kNoConvergence = "SVD did not converge";

// The factors of M (rows r >= cols c, k = c): u is r x (r or k), v is V^H (k x c) when v_is_vh,
// else V (c x k, or c x c for full matrices).
struct RawSvd {
  NDArray s;
  std::optional<ColumnMajorStack> u, v;
  bool v_is_vh;
};

struct SvdJob {
  const ColumnMajorStack& m;
  bool full, compute_uv;
  int64_t r() const { return m.rows(); }
  int64_t c() const { return m.cols(); }
  Shape batch() const { return batch_shape_of(m.transposed().shape()); }
};

RawSvd run_gesvd(const SvdJob& job, StatusWords& status) {
  const int64_t r = job.r(), c = job.c();
  const DType dtype = job.m.dtype();
  RawSvd out{empty(with_tail(job.batch(), {c}), real_dtype(dtype)), std::nullopt, std::nullopt, true};
  if (job.compute_uv) {
    out.u.emplace(job.batch(), r, job.full ? r : c, dtype);
    out.v.emplace(job.batch(), c, c, dtype);
  }
  const signed char jobu = !job.compute_uv ? 'N' : job.full ? 'A' : 'S', jobvt = job.compute_uv ? 'A' : 'N';
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(dtype), s_type = libs::cuda_data_type(real_dtype(dtype));
    auto u = [&](int64_t i) { return out.u ? out.u->matrix(i) : nullptr; };
    auto vt = [&](int64_t i) { return out.v ? out.v->matrix(i) : nullptr; };
    size_t device_bytes = 0, host_bytes = 0;
    CUARRAY_CUSOLVER_CALL(cusolverDnXgesvd_bufferSize, h.handle(), h.params(), jobu, jobvt, r, c, type,
                          job.m.matrix(0), job.m.ld(), s_type, out.s.raw_data(), type, u(0), r, type, vt(0), c, type,
                          &device_bytes, &host_bytes);
    NDArray work = device_workspace(device_bytes);
    HostWorkspace host_work(host_bytes);
    for (int64_t i = 0; i < job.m.batch(); ++i)
      CUARRAY_CUSOLVER_CALL(cusolverDnXgesvd, h.handle(), h.params(), jobu, jobvt, r, c, type, job.m.matrix(i),
                            job.m.ld(), s_type, out.s.raw_data() + i * c * out.s.itemsize(), type, u(i), r, type,
                            vt(i), c, type, work.raw_data(), device_bytes, host_work.data(), host_bytes,
                            status.word(i));
  });
  return out;
}

RawSvd run_gesvd(const SvdJob& job, StatusWords& status);

// The outputs of gesvdp and gesvdj, which return V rather than V^H: U (economy-size unless a full
// one is asked for) and V always, even for singular values alone, since both routines write them
// (null ones fault on the GPU); they are returned only when asked for.
RawSvd v_returning_factors(const SvdJob& job) {
  const int64_t r = job.r(), c = job.c();
  const DType dtype = job.m.dtype();
  RawSvd out{empty(with_tail(job.batch(), {c}), real_dtype(dtype)), std::nullopt, std::nullopt, false};
  out.u.emplace(job.batch(), r, job.compute_uv && job.full ? r : c, dtype);
  out.v.emplace(job.batch(), c, c, dtype);
  return out;
}

RawSvd run_gesvdp(const SvdJob& job, StatusWords& status) {
  const int64_t r = job.r(), c = job.c();
  // gesvdp makes only the economy-size U (its full-U mode fails with an internal error on the GPU):
  // a full U of a non-square matrix comes from gesvd.
  if (job.compute_uv && job.full && r != c) return run_gesvd(job, status);
  const DType dtype = job.m.dtype();
  RawSvd out = v_returning_factors(job);
  const cusolverEigMode_t jobz = job.compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int econ = job.compute_uv && job.full ? 0 : 1;
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    const cudaDataType type = libs::cuda_data_type(dtype), s_type = libs::cuda_data_type(real_dtype(dtype));
    auto u = [&](int64_t i) { return out.u->matrix(i); };
    auto v = [&](int64_t i) { return out.v->matrix(i); };
    size_t device_bytes = 0, host_bytes = 0;
    CUARRAY_CUSOLVER_CALL(cusolverDnXgesvdp_bufferSize, h.handle(), h.params(), jobz, econ, r, c, type,
                          job.m.matrix(0), job.m.ld(), s_type, out.s.raw_data(), type, u(0), r, type, v(0), c, type,
                          &device_bytes, &host_bytes);
    NDArray work = device_workspace(device_bytes);
    HostWorkspace host_work(host_bytes);
    for (int64_t i = 0; i < job.m.batch(); ++i) {
      double error_sigma = 0;  // gesvdp's estimate of its error, not needed: status says if it failed
      CUARRAY_CUSOLVER_CALL(cusolverDnXgesvdp, h.handle(), h.params(), jobz, econ, r, c, type, job.m.matrix(i),
                            job.m.ld(), s_type, out.s.raw_data() + i * c * out.s.itemsize(), type, u(i), r, type,
                            v(i), c, type, work.raw_data(), device_bytes, host_work.data(), host_bytes,
                            status.word(i), &error_sigma);
    }
  });
  return out;
}

// A gesvdjInfo_t with cuSOLVER's default tolerance and sweeps, destroyed with its scope.
class JacobiParameters {
 public:
  JacobiParameters() {
    libs::check_cusolver(libs::cusolver().cusolverDnCreateGesvdjInfo(&info_), "cusolverDnCreateGesvdjInfo");
  }
  ~JacobiParameters() { libs::cusolver().cusolverDnDestroyGesvdjInfo(info_); }
  JacobiParameters(const JacobiParameters&) = delete;
  JacobiParameters& operator=(const JacobiParameters&) = delete;
  gesvdjInfo_t get() const { return info_; }

 private:
  gesvdjInfo_t info_ = nullptr;
};

// One-sided Jacobi per matrix (econ for reduced factors); it returns V, as gesvdp does.
RawSvd run_gesvdj(const SvdJob& job, StatusWords& status) {
  const int64_t r = job.r(), c = job.c();
  const DType dtype = job.m.dtype();
  RawSvd out = v_returning_factors(job);
  const cusolverEigMode_t jobz = job.compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int econ = job.compute_uv && job.full ? 0 : 1;
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    JacobiParameters info;
    libs::visit_lapack_type(dtype, [&]<class T>(T) {
      using Lapack = libs::LapackTyped<T>;
      using Real = typename libs::RealOf<T>::type;
      auto s = [&](int64_t i) { return reinterpret_cast<Real*>(out.s.raw_data()) + i * c; };
      auto u = [&](int64_t i) { return static_cast<T*>(out.u->matrix(i)); };
      auto v = [&](int64_t i) { return static_cast<T*>(out.v->matrix(i)); };
      int lwork = 0;
      libs::check_cusolver(Lapack::gesvdj_buffer_size()(h.handle(), jobz, econ, int(r), int(c),
                                                        static_cast<T*>(job.m.matrix(0)), int(job.m.ld()), s(0),
                                                        u(0), int(r), v(0), int(c), &lwork, info.get()),
                           "cusolverDn<t>gesvdj_bufferSize");
      NDArray work = device_workspace(size_t(lwork) * sizeof(T));
      for (int64_t i = 0; i < job.m.batch(); ++i)
        libs::check_cusolver(Lapack::gesvdj()(h.handle(), jobz, econ, int(r), int(c), static_cast<T*>(job.m.matrix(i)),
                                              int(job.m.ld()), s(i), u(i), int(r), v(i), int(c),
                                              reinterpret_cast<T*>(work.raw_data()), lwork, status.word(i),
                                              info.get()),
                             "cusolverDn<t>gesvdj");
    });
  });
  if (!job.compute_uv) {
    out.u.reset();
    out.v.reset();
  }
  return out;
}

// One batched Jacobi call for the whole stack (r, c <= 32); it always forms the full U and V.
RawSvd run_gesvdj_batched(const SvdJob& job, StatusWords& status) {
  const int64_t r = job.r(), c = job.c();
  const DType dtype = job.m.dtype();
  RawSvd out{empty(with_tail(job.batch(), {c}), real_dtype(dtype)), std::nullopt, std::nullopt, false};
  // The routine writes U and V even when not asked for vectors, so both always exist.
  ColumnMajorStack u(job.batch(), r, r, dtype);
  out.v.emplace(job.batch(), c, c, dtype);
  const cusolverEigMode_t jobz = job.compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  libs::with_cusolver([&](libs::CusolverDnHandle& h) {
    JacobiParameters parameters;
    gesvdjInfo_t info = parameters.get();
    libs::visit_lapack_type(dtype, [&]<class T>(T) {
      using Lapack = libs::LapackTyped<T>;
      using Real = typename libs::RealOf<T>::type;
      auto* a = static_cast<T*>(job.m.matrix(0));
      auto* s = reinterpret_cast<Real*>(out.s.raw_data());
      auto* pu = static_cast<T*>(u.matrix(0));
      auto* pv = static_cast<T*>(out.v->matrix(0));
      int lwork = 0;
      libs::check_cusolver(Lapack::gesvdj_batched_buffer_size()(h.handle(), jobz, int(r), int(c), a, int(job.m.ld()),
                                                                s, pu, int(u.ld()), pv, int(out.v->ld()), &lwork, info,
                                                                int(job.m.batch())),
                           "cusolverDn<t>gesvdjBatched_bufferSize");
      NDArray work = device_workspace(size_t(lwork) * sizeof(T));
      libs::check_cusolver(Lapack::gesvdj_batched()(h.handle(), jobz, int(r), int(c), a, int(job.m.ld()), s, pu,
                                                    int(u.ld()), pv, int(out.v->ld()),
                                                    reinterpret_cast<T*>(work.raw_data()), lwork, status.word(0),
                                                    info, int(job.m.batch())),
                           "cusolverDn<t>gesvdjBatched");
    });
  });
  if (!job.compute_uv) {
    out.v.reset();
    return out;
  }
  if (job.full) {
    out.u.emplace(std::move(u));
  } else {
    out.u.emplace(job.batch(), r, c, dtype);
    out.u->matrices().assign(u.matrices().slice(u.matrices().ndim() - 1, 0, c, 1));
  }
  return out;
}

// cuarray's own batched one-sided Jacobi (jacobi_svd.hpp, rows and cols <= 64): one launch for the
// stack, a full U completed in the kernel; it returns V, as gesvdj does.
RawSvd run_jacobi_small(const SvdJob& job, StatusWords& status) {
  const int64_t r = job.r(), c = job.c();
  const DType dtype = job.m.dtype();
  RawSvd out{empty(with_tail(job.batch(), {c}), real_dtype(dtype)), std::nullopt, std::nullopt, false};
  if (job.compute_uv) {
    out.u.emplace(job.batch(), r, job.full ? r : c, dtype);
    out.v.emplace(job.batch(), c, c, dtype);
  }
  jacobi_svd(job.m, out.s.raw_data(), out.u ? &*out.u : nullptr, out.v ? &*out.v : nullptr, status.word(0));
  return out;
}

// U and Vh of A (..., M, N) filled for an empty factorization (K = 0): identities where full.
SvdResult empty_svd(const Shape& batch, int64_t m, int64_t n, DType dtype, bool full, bool compute_uv) {
  const int64_t k = std::min(m, n);
  NDArray s = empty(with_tail(batch, {k}), real_dtype(dtype));
  if (!compute_uv) return {NDArray(), s, NDArray()};
  NDArray u = empty(with_tail(batch, {m, full ? m : k}), dtype), vh = empty(with_tail(batch, {full ? n : k, n}), dtype);
  if (u.size() > 0) u.assign(eye(m, full ? m : k, 0, dtype));
  if (vh.size() > 0) vh.assign(eye(full ? n : k, n, 0, dtype));
  return {u, s, vh};
}

}  // namespace

SvdResult svd(const NDArray& a, bool full_matrices, bool compute_uv, bool hermitian) {
  if (hermitian) return hermitian_svd(a, compute_uv);
  check_at_least_2d(a);
  const DType dtype = solver_dtype(a.dtype());
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  const Shape batch = batch_shape_of(a.shape());
  if (std::min(m, n) == 0 || product(batch) == 0) return empty_svd(batch, m, n, dtype, full_matrices, compute_uv);

  const bool wide = m <= n;  // factored as A^T, with no transposing copies
  auto factor_input = [&] {
    return wide ? ColumnMajorStack::transposed_of(a, dtype) : ColumnMajorStack::copy_of(a, dtype);
  };
  ColumnMajorStack input = factor_input();
  SvdJob job{input, full_matrices, compute_uv};
  StatusWords status(input.batch());
  RawSvd raw;
  switch (choose_svd_routine(m, n, input.batch(), compute_uv && full_matrices && m != n)) {
    case SvdRoutine::Gesvd: raw = run_gesvd(job, status); break;
    case SvdRoutine::Gesvdj: raw = run_gesvdj(job, status); break;
    case SvdRoutine::Gesvdp: raw = run_gesvdp(job, status); break;
    case SvdRoutine::GesvdjBatched: raw = run_gesvdj_batched(job, status); break;
    case SvdRoutine::JacobiSmall: raw = run_jacobi_small(job, status); break;
  }
  if (!raw.v_is_vh && error_checks() && status.any_failed()) {
    // Jacobi and the polar method can stop short where the QR iteration of gesvd still converges.
    ColumnMajorStack again = factor_input();
    StatusWords retry_status(again.batch());
    raw = run_gesvd(SvdJob{again, full_matrices, compute_uv}, retry_status);
    retry_status.raise_if_failed(kNoConvergence);
  } else {
    status.raise_if_failed(kNoConvergence);
  }
  if (!compute_uv) return {NDArray(), raw.s, NDArray()};
  const ColumnMajorStack &u = *raw.u, &v = *raw.v;
  if (wide) {
    // A = M^T: U_A = conj(V_M) = (V_M^H)^T, Vh_A = U_M^T.
    NDArray u_a = raw.v_is_vh ? v.transposed() : v.matrices_c_order(/*conjugate=*/true);
    return {u_a, raw.s, u.transposed()};
  }
  NDArray vh_a = raw.v_is_vh ? v.matrices_c_order() : conjugated(v.transposed());
  return {u.matrices_c_order(), raw.s, vh_a};
}

}  // namespace cuarray::linalg
