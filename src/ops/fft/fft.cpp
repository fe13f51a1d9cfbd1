// numpy.fft's transforms: NumPy's argument checks and dtypes, the zero-padding/truncation to `s`,
// the choice of transform (C2C, R2C + Hermitian fill for real forward input, R2C, C2R) and the
// norm's scaling, around the plan runner of fft_execute.cpp (docs/fft.md).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/fft.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/fft/fft_execute.hpp"

namespace cuarray::fft {
namespace {

// NumPy 2: result_type(a, 1j): single precision for float16/float32/complex64, double for the rest.
DType complex_result(DType t) {
  return t == DType::Float16 || t == DType::Float32 || t == DType::Complex64 ? DType::Complex64 : DType::Complex128;
}

// The transform's arguments after NumPy's checks: axes in [0, ndim), lengths >= 1.
struct Request {
  std::vector<int> axes;
  std::vector<int64_t> s;
  bool repeated = false;
};

// NumPy checks each 1-D step from the last axis back: the length first, then the axis.
Request checked(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes) {
  if (s.size() != axes.size()) throw_error(ErrorKind::Value, "Shape and axes have different lengths.");
  Request r;
  r.axes.resize(axes.size());
  r.s.assign(s.begin(), s.end());
  for (size_t i = axes.size(); i-- > 0;) {
    if (s[i] < 1)
      throw_error(ErrorKind::Value, "Invalid number of FFT data points (" + std::to_string(s[i]) + ") specified.");
    r.axes[i] = normalize_axis(axes[i], a.ndim());
  }
  std::vector<int> sorted = r.axes;
  std::sort(sorted.begin(), sorted.end());
  r.repeated = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
  return r;
}

// `a` zero-padded or truncated to `lengths` along `axes`, in `dtype`: a view where it can be.
NDArray resized(const NDArray& a, std::span<const int> axes, std::span<const int64_t> lengths, DType dtype) {
  NDArray kept = a;
  Shape target = a.shape();
  bool pad = false;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int ax = axes[i];
    if (lengths[i] < kept.shape()[ax]) kept = kept.slice(ax, 0, lengths[i], 1);
    pad |= lengths[i] > a.shape()[ax];
    target[ax] = lengths[i];
  }
  if (!pad) return kept.dtype() == dtype ? kept : kept.astype(dtype);
  NDArray padded = zeros(target, dtype);
  NDArray region = padded;
  for (int ax : axes) region = region.slice(ax, 0, kept.shape()[ax], 1);
  region.assign(kept);
  return padded;
}

// An uninitialized array of `shape` whose axes lie in memory in the order of `like`'s, so that
// the output nests the same way the input does and one plan reaches both.
NDArray empty_in_order_of(const NDArray& like, const Shape& shape, DType dtype) {
  SmallVector<int64_t, 6> perm;
  for (int i = 0; i < like.ndim(); ++i) perm.push_back(i);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t x, int64_t y) {
    return std::llabs(like.strides()[x]) > std::llabs(like.strides()[y]);
  });
  Shape permuted;
  for (int64_t p : perm) permuted.push_back(shape[p]);
  SmallVector<int64_t, 6> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
  return empty(permuted, dtype).transpose(inverse);
}

// The factor numpy applies: 1, 1/sqrt(N) or 1/N by direction and norm.
double norm_factor(Norm norm, bool inverse, std::span<const int64_t> s) {
  double n = 1;
  for (int64_t v : s) n *= static_cast<double>(v);
  if (norm == Norm::Ortho) return 1 / std::sqrt(n);
  const bool scaled = inverse ? norm == Norm::Backward : norm == Norm::Forward;
  return scaled ? 1 / n : 1;
}

void scale(NDArray& a, double factor) {
  if (factor == 1 || a.size() == 0) return;
  static const Ufunc& multiply = ufunc("multiply");
  const Operand inputs[2] = {Operand::of(a), Operand::of(Scalar::from(factor))};
  NDArray* outs[1] = {&a};
  multiply(inputs, outs);
}

Norm swapped(Norm norm) {
  return norm == Norm::Backward ? Norm::Forward : norm == Norm::Forward ? Norm::Backward : Norm::Ortho;
}

NDArray complex_to_complex(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm,
                           bool inverse) {
  Request r = checked(a, s, axes);
  if (r.repeated) {  // NumPy's 1-D steps, last axis first
    NDArray result = a;
    for (size_t i = r.axes.size(); i-- > 0;) {
      const int64_t axis = r.axes[i];
      result = complex_to_complex(result, std::span<const int64_t>(&r.s[i], 1), std::span<const int64_t>(&axis, 1),
                                  norm, inverse);
    }
    return result;
  }
  if (r.axes.empty()) return a;
  const DType cdt = complex_result(a.dtype());
  NDArray out;
  if (!is_complex(a.dtype()) && !inverse) {
    const NDArray work = resized(a, r.axes, r.s, real_dtype(cdt));
    out = empty_in_order_of(work, work.shape(), cdt);
    transform_real_forward(work, out, r.axes);
  } else {
    const NDArray work = resized(a, r.axes, r.s, cdt);
    out = empty_in_order_of(work, work.shape(), cdt);
    transform_c2c(work, out, r.axes, inverse);
  }
  scale(out, norm_factor(norm, inverse, r.s));
  return out;
}

[[noreturn]] void complex_input_refused(int64_t n) {
  throw_error(ErrorKind::Type, std::string("ufunc '") + (n % 2 == 0 ? "rfft_n_even" : "rfft_n_odd") +
                                   "' not supported for the input types, and the inputs could not be safely "
                                   "coerced to any supported types according to the casting rule ''safe''");
}

NDArray complex_to_real(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm,
                        bool input_is_ours) {
  Request r = checked(a, s, axes);
  if (r.repeated) {  // NumPy's steps: ifft over all but the last (first to last), then irfft
    NDArray result = a;
    for (size_t i = 0; i + 1 < r.axes.size(); ++i) {
      const int64_t axis = r.axes[i];
      result = complex_to_complex(result, std::span<const int64_t>(&r.s[i], 1), std::span<const int64_t>(&axis, 1),
                                  norm, true);
    }
    const int64_t last_axis = r.axes.back();
    return complex_to_real(result, std::span<const int64_t>(&r.s.back(), 1),
                           std::span<const int64_t>(&last_axis, 1), norm, r.axes.size() > 1 || input_is_ours);
  }
  // NumPy: the output is result_type(a.real, 1.0): float16 input stays float16 (computed in float32).
  const DType cdt = complex_result(a.dtype());
  const DType result_dtype = a.dtype() == DType::Float16 ? DType::Float16 : real_dtype(cdt);
  std::vector<int64_t> in_lengths = r.s;
  in_lengths.back() = r.s.back() / 2 + 1;
  NDArray work = resized(a, r.axes, in_lengths, cdt);
  // cuFFT's complex-to-real transforms overwrite their input.
  if (!input_is_ours && work.buffer() == a.buffer()) work = work.copy();
  Shape out_shape = work.shape();
  out_shape[r.axes.back()] = r.s.back();
  NDArray out = empty_in_order_of(work, out_shape, real_dtype(cdt));
  transform_c2r(work, out, r.axes);
  scale(out, norm_factor(norm, true, r.s));
  return result_dtype == out.dtype() ? out : out.astype(result_dtype);
}

}  // namespace

std::optional<Norm> norm_from_name(std::string_view name) {
  if (name == "backward") return Norm::Backward;
  if (name == "ortho") return Norm::Ortho;
  if (name == "forward") return Norm::Forward;
  return std::nullopt;
}

NDArray fftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm) {
  return complex_to_complex(a, s, axes, norm, false);
}

NDArray ifftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm) {
  return complex_to_complex(a, s, axes, norm, true);
}

NDArray rfftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm) {
  Request r = checked(a, s, axes);
  if (r.axes.empty()) throw_error(ErrorKind::Index, "list index out of range");  // NumPy's s[-1]
  if (is_complex(a.dtype())) complex_input_refused(r.s.back());
  if (r.repeated) {  // NumPy's steps: rfft along the last axis, then fft over the others, last first
    const int64_t last_axis = r.axes.back();
    NDArray result = rfftn(a, std::span<const int64_t>(&r.s.back(), 1), std::span<const int64_t>(&last_axis, 1), norm);
    for (size_t i = r.axes.size() - 1; i-- > 0;) {
      const int64_t axis = r.axes[i];
      result = complex_to_complex(result, std::span<const int64_t>(&r.s[i], 1), std::span<const int64_t>(&axis, 1),
                                  norm, false);
    }
    return result;
  }
  const DType cdt = complex_result(a.dtype());
  const NDArray work = resized(a, r.axes, r.s, real_dtype(cdt));
  Shape out_shape = work.shape();
  out_shape[r.axes.back()] = r.s.back() / 2 + 1;
  NDArray out = empty_in_order_of(work, out_shape, cdt);
  transform_r2c(work, out, r.axes);
  scale(out, norm_factor(norm, false, r.s));
  return out;
}

NDArray irfftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm,
               bool overwrite_input) {
  if (axes.empty()) throw_error(ErrorKind::Index, "tuple index out of range");  // NumPy's a.shape[axes[-1]]
  return complex_to_real(a, s, axes, norm, overwrite_input);
}

NDArray hfft(const NDArray& a, int64_t n, int64_t axis, Norm norm) {
  static const Ufunc& conjugate = ufunc("conjugate");
  const NDArray conjugated = conjugate(a);
  return complex_to_real(conjugated, std::span<const int64_t>(&n, 1), std::span<const int64_t>(&axis, 1),
                         swapped(norm), true);
}

NDArray ihfft(const NDArray& a, int64_t n, int64_t axis, Norm norm) {
  static const Ufunc& conjugate = ufunc("conjugate");
  NDArray out = rfftn(a, std::span<const int64_t>(&n, 1), std::span<const int64_t>(&axis, 1), swapped(norm));
  const Operand inputs[1] = {Operand::of(out)};
  NDArray* outs[1] = {&out};
  conjugate(inputs, outs);
  return out;
}

}  // namespace cuarray::fft
