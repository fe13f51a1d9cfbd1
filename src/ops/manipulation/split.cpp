// numpy.split, array_split and their variants: views of the input (no device work).
#include <algorithm>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"

namespace cuarray {
namespace {

// numpy.split & co. read ary.shape[axis], which raises IndexError for a bad axis: AxisError is one.
int split_axis(const NDArray& a, int64_t axis) { return normalize_axis(axis, a.ndim()); }

// A Python slice bound on a length-n axis: negative counts from the end, then clamped to [0, n].
int64_t clamp_bound(int64_t i, int64_t n) {
  if (i < 0) i += n;
  return std::clamp<int64_t>(i, 0, n);
}

}  // namespace

std::vector<NDArray> split(const NDArray& a, std::span<const int64_t> indices, int64_t axis) {
  const int ax = split_axis(a, axis);
  const int64_t n = a.shape()[ax];
  std::vector<NDArray> pieces;
  pieces.reserve(indices.size() + 1);
  int64_t start = 0;
  for (size_t i = 0; i <= indices.size(); ++i) {
    const int64_t lo = clamp_bound(start, n);
    const int64_t hi = i < indices.size() ? clamp_bound(indices[i], n) : n;
    pieces.push_back(a.slice(ax, lo, std::max(lo, hi), 1));
    if (i < indices.size()) start = indices[i];
  }
  return pieces;
}

std::vector<NDArray> array_split(const NDArray& a, int64_t sections, int64_t axis) {
  const int ax = split_axis(a, axis);
  if (sections <= 0) throw_error(ErrorKind::Value, "number sections must be larger than 0.");
  const int64_t n = a.shape()[ax];
  const int64_t each = n / sections, extras = n % sections;
  std::vector<NDArray> pieces;
  pieces.reserve(static_cast<size_t>(sections));
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t length = each + (i < extras ? 1 : 0);
    pieces.push_back(a.slice(ax, start, start + length, 1));
    start += length;
  }
  return pieces;
}

std::vector<NDArray> split(const NDArray& a, int64_t sections, int64_t axis) {
  const int ax = split_axis(a, axis);
  if (sections != 0 && a.shape()[ax] % sections != 0)
    throw_error(ErrorKind::Value, "array split does not result in an equal division");
  return array_split(a, sections, ax);
}

}  // namespace cuarray
