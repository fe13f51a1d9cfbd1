// numpy.linalg.eig / eigvals with cusolverDnXgeev on a column-major copy of A.
//
// For a real A, geev works in real arithmetic and returns complex eigenvalues but real
// eigenvectors packed as LAPACK packs them: a conjugate pair w_j, w_j+1 = conj(w_j) (imaginary part
// of w_j positive) has vectors VR_j + i VR_j+1 and VR_j - i VR_j+1: the eigenvalues are read on the
// host to find the pairs, and the packed vectors are unpacked on the device with two gathers.
// NumPy 2.0-2.4 give real results when every eigenvalue of the stack is real (real_when_all_real);
// NumPy 2.5 always complex ones, which for eigenvalues alone needs no host read.
#include <cstring>
#include <vector>

#include "cuarray/indexing.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/ufunc.hpp"
#include "libs/cusolver.hpp"
#include "ops/linalg/solvers/host_workspace.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/status_words.hpp"

namespace cuarray::linalg {
namespace {

DType complex_of(DType real) { return real == DType::Float32 ? DType::Complex64 : DType::Complex128; }

// The imaginary parts of w (complex, (..., n)), on the host in float64.
std::vector<double> imaginary_parts(const NDArray& w) {
  NDArray imag = w.complex_part(true).astype(DType::Float64, true, Order::C);
  std::vector<double> host(static_cast<size_t>(imag.size()));
  if (!host.empty()) imag.copy_to_host(host.data());
  return host;
}

// VR's packed real vectors (columns of `packed`, (..., n, n) C-order) as complex ones.
NDArray unpack_conjugate_pairs(const NDArray& packed, const std::vector<double>& imag, DType complex_dtype) {
  const int64_t n = packed.shape()[packed.ndim() - 1];
  std::vector<int64_t> real_column(imag.size()), imag_column(imag.size());
  std::vector<double> imag_sign(imag.size());
  for (size_t i = 0; i < imag.size(); ++i) {
    const int64_t j = static_cast<int64_t>(i % n);
    if (imag[i] > 0) real_column[i] = j, imag_column[i] = j + 1, imag_sign[i] = 1;
    else if (imag[i] < 0) real_column[i] = j - 1, imag_column[i] = j, imag_sign[i] = -1;
    else real_column[i] = imag_column[i] = j, imag_sign[i] = 0;
  }
  Shape index_shape = batch_shape_of(packed.shape());
  index_shape.push_back(1);
  index_shape.push_back(n);
  const int64_t last = packed.ndim() - 1;
  NDArray re = take_along_axis(packed, from_host(real_column.data(), index_shape, DType::Int64), last);
  NDArray im = take_along_axis(packed, from_host(imag_column.data(), index_shape, DType::Int64), last);
  NDArray sign = from_host(imag_sign.data(), index_shape, DType::Float64).astype(packed.dtype());
  NDArray out = empty(packed.shape(), complex_dtype);
  out.complex_part(false).assign(re);
  out.complex_part(true).assign(multiply(im, sign));
  return out;
}

}  // namespace

EigResult eig(const NDArray& a, bool compute_vectors, bool real_when_all_real) {
  check_square(a);
  const DType dtype = solver_dtype(a.dtype());
  const bool real_input = !is_complex(dtype);
  const DType w_dtype = real_input ? complex_of(dtype) : dtype;
  ColumnMajorStack m = ColumnMajorStack::copy_of(a, dtype);
  const int64_t n = m.rows();
  NDArray w = empty(with_tail(batch_shape_of(a.shape()), {n}), w_dtype);
  ColumnMajorStack vr(batch_shape_of(a.shape()), compute_vectors ? n : 0, compute_vectors ? n : 0, dtype);
  if (a.size() > 0) {
    StatusWords status(m.batch());
    const cusolverEigMode_t job_r = compute_vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    libs::with_cusolver([&](libs::CusolverDnHandle& h) {
      const cudaDataType type = libs::cuda_data_type(dtype), w_type = libs::cuda_data_type(w_dtype);
      const int64_t ldvr = compute_vectors ? n : 1;
      size_t device_bytes = 0, host_bytes = 0;
      CUARRAY_CUSOLVER_CALL(cusolverDnXgeev_bufferSize, h.handle(), h.params(), CUSOLVER_EIG_MODE_NOVECTOR, job_r, n,
                            type, m.matrix(0), m.ld(), w_type, w.raw_data(), type, nullptr, 1, type,
                            compute_vectors ? vr.matrix(0) : nullptr, ldvr, type, &device_bytes, &host_bytes);
      NDArray work = device_workspace(device_bytes);
      HostWorkspace host_work(host_bytes);
      for (int64_t i = 0; i < m.batch(); ++i)
        CUARRAY_CUSOLVER_CALL(cusolverDnXgeev, h.handle(), h.params(), CUSOLVER_EIG_MODE_NOVECTOR, job_r, n, type,
                              m.matrix(i), m.ld(), w_type, w.raw_data() + i * n * w.itemsize(), type, nullptr, 1,
                              type, compute_vectors ? vr.matrix(i) : nullptr, ldvr, type, work.raw_data(),
                              device_bytes, host_work.data(), host_bytes, status.word(i));
    });
    status.raise_if_failed("Eigenvalues did not converge");
  }
  NDArray vectors = compute_vectors ? vr.matrices_c_order() : NDArray();
  if (!real_input || (!compute_vectors && !real_when_all_real)) return {w, vectors};
  std::vector<double> imag = imaginary_parts(w);
  bool all_real = true;
  for (double x : imag) all_real = all_real && x == 0;
  if (all_real && real_when_all_real) return {w.complex_part(false).copy(Order::C), vectors};
  return {w, compute_vectors ? unpack_conjugate_pairs(vectors, imag, w_dtype) : NDArray()};
}

}  // namespace cuarray::linalg
