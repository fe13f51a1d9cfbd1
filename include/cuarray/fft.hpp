// numpy.fft's transforms on cuFFT (docs/fft.md), and the FFT plan cache of cupy.fft.config.
//
// Arguments are NumPy's once the Python layer has resolved its defaults: `s` holds one length per
// entry of `axes` (each >= 1: zero-padded or truncated to it; for irfftn, the last is the output's
// length), axes may be negative and, where NumPy allows, repeated (then the 1-D transforms run one
// after another in NumPy's order). Dtypes are NumPy 2's: float16/float32/complex64 compute in single
// precision and give complex64 (irfft & co.: float32, float16 for float16 input), everything else
// in double precision (complex128, float64). Results are new arrays; work is queued on the current
// stream of the current device.
//
// Errors are NumPy's: ValueError "Invalid number of FFT data points (0) specified." for a length
// below 1, "Shape and axes have different lengths.", AxisError for an axis out of range, TypeError
// for complex input to rfftn/ihfft.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray::fft {

// norm=: which direction is scaled, by 1/n ("backward": the inverse), 1/sqrt(n) both, or 1/n the forward.
enum class Norm { Backward, Ortho, Forward };
std::optional<Norm> norm_from_name(std::string_view name);  // "backward", "ortho", "forward"

NDArray fftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm = Norm::Backward);
NDArray ifftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm = Norm::Backward);
// Real input: the last axis is halved (s.back() / 2 + 1 outputs). Complex input is a TypeError.
NDArray rfftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm = Norm::Backward);
// The inverse of rfftn: s.back() is the output length along the last axis. cuFFT's complex-to-real
// transforms overwrite their input, so `a` is copied first, unless overwrite_input allows the
// transform to destroy it (a caller's temporary: convolve's spectra product).
NDArray irfftn(const NDArray& a, std::span<const int64_t> s, std::span<const int64_t> axes, Norm norm = Norm::Backward,
               bool overwrite_input = false);

inline NDArray fft(const NDArray& a, int64_t n, int64_t axis = -1, Norm norm = Norm::Backward) {
  return fftn(a, std::span<const int64_t>(&n, 1), std::span<const int64_t>(&axis, 1), norm);
}
inline NDArray ifft(const NDArray& a, int64_t n, int64_t axis = -1, Norm norm = Norm::Backward) {
  return ifftn(a, std::span<const int64_t>(&n, 1), std::span<const int64_t>(&axis, 1), norm);
}
inline NDArray rfft(const NDArray& a, int64_t n, int64_t axis = -1, Norm norm = Norm::Backward) {
  return rfftn(a, std::span<const int64_t>(&n, 1), std::span<const int64_t>(&axis, 1), norm);
}
inline NDArray irfft(const NDArray& a, int64_t n, int64_t axis = -1, Norm norm = Norm::Backward) {
  return irfftn(a, std::span<const int64_t>(&n, 1), std::span<const int64_t>(&axis, 1), norm);
}
// numpy.fft.hfft: irfft(conj(a), n, axis) with the norm's direction swapped; ihfft its inverse.
NDArray hfft(const NDArray& a, int64_t n, int64_t axis = -1, Norm norm = Norm::Backward);
NDArray ihfft(const NDArray& a, int64_t n, int64_t axis = -1, Norm norm = Norm::Backward);

// cupy.fft.config.get_plan_cache(): the FFT plan cache of one device. Limits follow CuPy: -1 is
// unlimited, 0 disables the cache, below -1 is ValueError "invalid input". Sizes count plans; memsizes
// count the bytes of work area the kept plans need while they run (taken from the memory pool at each
// execution, never held by an idle plan).
class FftPlanCache {
 public:
  explicit FftPlanCache(int device);
  int device() const { return device_; }
  void set_size(int64_t size);
  int64_t get_size() const;
  int64_t get_curr_size() const;
  void set_memsize(int64_t memsize);
  int64_t get_memsize() const;
  int64_t get_curr_memsize() const;
  void clear();
  std::string info() const;  // what show_info() prints

 private:
  int device_;
};

}  // namespace cuarray::fft
