#include "ops/fft/fft_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace cuarray::fft {
namespace {

using libs::FftKind;

// One side's embedding of the transformed axes: its innermost stride and the embeddings
// embed[1..rank-1] (embed[0] is its outermost length, never read by cuFFT).
bool nest_axes(const Shape& shape, const Strides& strides, std::span<const int> axes, int64_t* embed,
               int64_t& stride) {
  const int rank = static_cast<int>(axes.size());
  // A length-1 axis has no stride of its own: it takes the one that nests it densely.
  int64_t inner = 1;
  int64_t effective[3];
  for (int k = rank - 1; k >= 0; --k) {
    const int64_t len = shape[axes[k]];
    const int64_t s = len == 1 ? inner : strides[axes[k]];
    if (s <= 0) return false;
    effective[k] = s;
    inner = s * len;
  }
  stride = effective[rank - 1];
  embed[0] = shape[axes[0]];
  for (int k = 1; k < rank; ++k) {
    if (effective[k - 1] % effective[k] != 0) return false;
    embed[k] = effective[k - 1] / effective[k];
    if (embed[k] < shape[axes[k]]) return false;
  }
  return true;
}

}  // namespace

std::optional<libs::FftLayout> fft_layout(const Shape& in_shape, const Strides& in_strides, const Shape& out_shape,
                                          const Strides& out_strides, std::span<const int> axes, FftKind kind) {
  const int ndim = static_cast<int>(in_shape.size());
  const int rank = static_cast<int>(axes.size());
  if (rank < 1 || rank > 3 || static_cast<int>(out_shape.size()) != ndim)
    throw std::logic_error("fft_layout: 1 to 3 axes of arrays of equal rank");
  libs::FftLayout layout;
  layout.rank = rank;
  bool transformed[kMaxDims] = {};
  for (int k = 0; k < rank; ++k) {
    const int ax = axes[k];
    if (transformed[ax]) throw std::logic_error("fft_layout: an axis twice");
    transformed[ax] = true;
    const bool halved = k == rank - 1 && kind != FftKind::C2C;
    const int64_t n = kind == FftKind::C2R ? out_shape[ax] : in_shape[ax];
    const int64_t complex_side = halved ? n / 2 + 1 : n;
    const int64_t in_len = kind == FftKind::C2R && halved ? complex_side : n;
    const int64_t out_len = kind == FftKind::R2C && halved ? complex_side : n;
    if (in_shape[ax] != in_len || out_shape[ax] != out_len)
      throw std::logic_error("fft_layout: the sides' lengths do not match the transform");
    layout.n[k] = n;
  }
  if (!nest_axes(in_shape, in_strides, axes, layout.inembed, layout.istride)) return std::nullopt;
  if (!nest_axes(out_shape, out_strides, axes, layout.onembed, layout.ostride)) return std::nullopt;

  // The other axes of more than one element, outermost (largest input stride) first, must fold
  // into one batch dimension on both sides.
  int batch_axes[kMaxDims];
  int count = 0;
  for (int d = 0; d < ndim; ++d) {
    if (transformed[d]) continue;
    if (in_shape[d] != out_shape[d]) throw std::logic_error("fft_layout: batch lengths differ");
    if (in_shape[d] == 0) return std::nullopt;  // nothing to transform; the caller skips it
    if (in_shape[d] == 1) continue;
    if (in_strides[d] <= 0 || out_strides[d] <= 0) return std::nullopt;
    batch_axes[count++] = d;
  }
  std::sort(batch_axes, batch_axes + count, [&](int a, int b) { return in_strides[a] > in_strides[b]; });
  layout.batch = 1;
  for (int i = 0; i < count; ++i) {
    const int d = batch_axes[i];
    if (i + 1 < count) {
      const int next = batch_axes[i + 1];
      if (in_strides[d] != in_strides[next] * in_shape[next] || out_strides[d] != out_strides[next] * out_shape[next])
        return std::nullopt;
    }
    layout.batch *= in_shape[d];
  }
  if (count > 0) {
    layout.idist = in_strides[batch_axes[count - 1]];
    layout.odist = out_strides[batch_axes[count - 1]];
  } else {
    // One transform: the distances are never used; give each its own extent.
    layout.idist = layout.istride;
    layout.odist = layout.ostride;
    for (int k = 0; k < rank; ++k) {
      layout.idist *= layout.inembed[k];
      layout.odist *= layout.onembed[k];
    }
  }
  return layout;
}

}  // namespace cuarray::fft
