#include "ops/fft/fft_execute.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "cuarray/manipulation.hpp"
#include "cuarray/ufunc.hpp"
#include "libs/cufft.hpp"
#include "ops/fft/fft_layout.hpp"

namespace cuarray::fft {
namespace {

using libs::FftKind;

Strides element_strides(const NDArray& a) {
  Strides s = a.strides();
  for (int64_t& v : s) v /= a.itemsize();
  return s;
}

bool double_precision(const NDArray& a) { return a.dtype() == DType::Float64 || a.dtype() == DType::Complex128; }

// cuFFT refuses (CUFFT_INVALID_VALUE at execution) data not aligned to the transform's complex
// type, real data included: a view starting at an odd float64, e.g. x[:, 1::3], goes by a copy.
bool aligned_for_cufft(const NDArray& a, bool dbl) {
  return reinterpret_cast<uintptr_t>(a.raw_data()) % (dbl ? 16 : 8) == 0;
}

// One plan over `axes` from in to out; false when cuFFT's layout cannot express it.
bool try_plan(const NDArray& in, const NDArray& out, std::span<const int> axes, FftKind kind, bool inverse) {
  if (in.size() == 0 || out.size() == 0) return true;  // a batch of none: nothing to run
  const bool dbl = double_precision(in);
  if (!aligned_for_cufft(in, dbl) || !aligned_for_cufft(out, dbl)) return false;
  const std::optional<libs::FftLayout> layout =
      fft_layout(in.shape(), element_strides(in), out.shape(), element_strides(out), axes, kind);
  if (!layout) return false;
  const int device = out.device();
  libs::fft_plan_cache(device).lookup_and_exec<libs::FftPlan>(
      libs::fft_plan_key(kind, dbl, *layout),
      [&] { return std::make_unique<libs::FftPlan>(device, kind, dbl, *layout); },
      [&](libs::FftPlan& plan) { plan.execute(in.raw_data(), out.raw_data(), inverse); });
  return true;
}

// Executions of one plan that may stand in for copying a whole array (each costs a few
// microseconds of host time; the copies cost two passes over the data).
constexpr int64_t kMaxExecutionsInsteadOfCopy = 16;

// The axis other than `axis` with the largest stride among those of more than one element, or -1.
int outermost_other_axis(const NDArray& a, int axis) {
  int outer = -1;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != axis && a.shape()[d] > 1 && (outer < 0 || std::abs(a.strides()[d]) > std::abs(a.strides()[outer])))
      outer = d;
  return outer;
}

// One axis. Where one plan cannot reach it, the axis between two batch axes (a C-contiguous
// (B0, N, B1) along N) takes one execution per index of the outermost axis when there are few;
// otherwise (a negative stride, many outer indices) it goes through C-contiguous copies with the
// axis moved last.
void transform_axis(const NDArray& in, const NDArray& out, int axis, FftKind kind, bool inverse) {
  const int one[1] = {axis};
  if (try_plan(in, out, one, kind, inverse)) return;
  const int outer = outermost_other_axis(in, axis);
  const bool dbl = double_precision(in);
  auto every_index_aligned = [&] {
    for (int64_t i = 0; i < in.shape()[outer]; ++i)
      if (!aligned_for_cufft(in.index(outer, i), dbl) || !aligned_for_cufft(out.index(outer, i), dbl)) return false;
    return true;
  };
  if (outer >= 0 && in.shape()[outer] <= kMaxExecutionsInsteadOfCopy && every_index_aligned()) {
    const int inner[1] = {axis - (outer < axis ? 1 : 0)};
    if (try_plan(in.index(outer, 0), out.index(outer, 0), inner, kind, inverse)) {
      for (int64_t i = 1; i < in.shape()[outer]; ++i)
        try_plan(in.index(outer, i), out.index(outer, i), inner, kind, inverse);
      return;
    }
  }
  const int64_t source[1] = {axis}, destination[1] = {-1};
  const NDArray in_last = moveaxis(in, source, destination).copy(Order::C);
  NDArray out_view = moveaxis(out, source, destination);
  const NDArray out_last = empty(out_view.shape(), out.dtype());
  const int last[1] = {in.ndim() - 1};
  if (!try_plan(in_last, out_last, last, kind, inverse))
    throw std::logic_error("cuFFT layout of a contiguous last axis refused");
  out_view.assign(out_last);
}

// Axes ordered outermost first by the input's strides (the order a nested layout needs).
std::vector<int> by_stride(const NDArray& a, std::span<const int> axes) {
  std::vector<int> sorted(axes.begin(), axes.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](int x, int y) { return std::abs(a.strides()[x]) > std::abs(a.strides()[y]); });
  return sorted;
}

}  // namespace

void transform_c2c(const NDArray& in, const NDArray& out, std::span<const int> axes, bool inverse) {
  std::vector<int> remaining = by_stride(in, axes);
  const NDArray* source = &in;
  // The innermost axes first, as many at once (up to cuFFT's three) as one plan reaches; the
  // first plan reads `in`, the later ones work in place on `out`.
  while (!remaining.empty()) {
    bool done = false;
    for (size_t group = std::min<size_t>(3, remaining.size()); group > 1 && !done; --group) {
      std::span<const int> inner(remaining.data() + remaining.size() - group, group);
      if (try_plan(*source, out, inner, FftKind::C2C, inverse)) {
        remaining.resize(remaining.size() - group);
        done = true;
      }
    }
    if (!done) {
      transform_axis(*source, out, remaining.back(), FftKind::C2C, inverse);
      remaining.pop_back();
    }
    source = &out;
  }
}

void transform_r2c(const NDArray& in, const NDArray& out, std::span<const int> axes) {
  const int halved = axes.back();
  std::vector<int> others = by_stride(in, axes.first(axes.size() - 1));
  if (axes.size() <= 3) {
    std::vector<int> all = others;
    all.push_back(halved);
    if (try_plan(in, out, all, FftKind::R2C, false)) return;
  }
  transform_axis(in, out, halved, FftKind::R2C, false);
  if (!others.empty()) transform_c2c(out, out, others, false);
}

void transform_c2r(const NDArray& in, const NDArray& out, std::span<const int> axes) {
  const int halved = axes.back();
  std::vector<int> others = by_stride(in, axes.first(axes.size() - 1));
  if (axes.size() <= 3) {
    std::vector<int> all = others;
    all.push_back(halved);
    if (try_plan(in, out, all, FftKind::C2R, true)) return;
  }
  if (!others.empty()) transform_c2c(in, in, others, true);
  transform_axis(in, out, halved, FftKind::C2R, true);
}

void transform_real_forward(const NDArray& in, const NDArray& out, std::span<const int> axes) {
  std::vector<int> sorted = by_stride(in, axes);
  const int halved = sorted.back();
  sorted.pop_back();
  const int64_t n = in.shape()[halved];
  const NDArray low = out.slice(halved, 0, n / 2 + 1, 1);
  const int one[1] = {halved};
  transform_r2c(in, low, one);
  // X[k] = conj(X[n - k]) for k in (n/2, n): the mirror of entries 1 .. (n+1)/2 - 1, one conj kernel.
  if (n >= 3 && out.size() > 0) {
    static const Ufunc& conjugate = ufunc("conjugate");
    NDArray high = out.slice(halved, n / 2 + 1, n, 1);
    const NDArray mirror = out.slice(halved, (n + 1) / 2 - 1, 0, -1);
    const Operand inputs[1] = {Operand::of(mirror)};
    NDArray* outs[1] = {&high};
    conjugate(inputs, outs);
  }
  if (!sorted.empty()) transform_c2c(out, out, sorted, false);
}

}  // namespace cuarray::fft
