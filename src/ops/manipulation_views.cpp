// The manipulations that are views: split and array_split, flip, rot90, moveaxis (no device work).
#include <algorithm>
#include <string>

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

// Axes normalized as numpy.normalize_axis_tuple does (AxisError, then "repeated axis").
SmallVector<int, 8> axis_tuple(std::span<const int64_t> axes, int ndim, const std::string& argname = {}) {
  SmallVector<int, 8> out;
  for (int64_t a : axes) {
    if (a < -ndim || a >= ndim)
      throw_error(ErrorKind::Axis, (argname.empty() ? "" : argname + ": ") + "axis " + std::to_string(a) +
                                       " is out of bounds for array of dimension " + std::to_string(ndim));
    int ax = static_cast<int>(a < 0 ? a + ndim : a);
    if (std::find(out.begin(), out.end(), ax) != out.end())
      throw_error(ErrorKind::Value, argname.empty() ? "repeated axis" : "repeated axis in `" + argname + "` argument");
    out.push_back(ax);
  }
  return out;
}

NDArray reversed(const NDArray& a, int axis) {
  const int64_t n = a.shape()[axis];
  return a.slice(axis, n - 1, -1, -1);
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

NDArray flip(const NDArray& a, std::optional<std::span<const int64_t>> axes) {
  NDArray r = a;
  if (!axes) {
    for (int d = 0; d < a.ndim(); ++d) r = reversed(r, d);
    return r;
  }
  for (int ax : axis_tuple(*axes, a.ndim())) r = reversed(r, ax);
  return r;
}

NDArray rot90(const NDArray& a, int64_t k, int64_t axis0, int64_t axis1) {
  const int n = a.ndim();
  if (axis0 == axis1 || std::llabs(axis0 - axis1) == n) throw_error(ErrorKind::Value, "Axes must be different.");
  if (axis0 >= n || axis0 < -n || axis1 >= n || axis1 < -n)
    throw_error(ErrorKind::Value, "Axes=(" + std::to_string(axis0) + ", " + std::to_string(axis1) +
                                      ") out of range for array of ndim=" + std::to_string(n) + ".");
  const int a0 = normalize_axis(axis0, n), a1 = normalize_axis(axis1, n);
  k = ((k % 4) + 4) % 4;
  if (k == 0) return a;
  if (k == 2) return reversed(reversed(a, a0), a1);
  // A quarter turn is a flip of one axis and a swap of the two.
  return k == 1 ? reversed(a, a1).swapaxes(a0, a1) : reversed(a.swapaxes(a0, a1), a1);
}

NDArray moveaxis(const NDArray& a, std::span<const int64_t> source, std::span<const int64_t> destination) {
  SmallVector<int, 8> src = axis_tuple(source, a.ndim(), "source");
  SmallVector<int, 8> dst = axis_tuple(destination, a.ndim(), "destination");
  if (src.size() != dst.size())
    throw_error(ErrorKind::Value, "`source` and `destination` arguments must have the same number of elements");
  // The axes that stay keep their order; the moved ones are placed by increasing destination.
  SmallVector<int64_t, 6> order;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  SmallVector<size_t, 8> by_destination;
  for (size_t i = 0; i < dst.size(); ++i) by_destination.push_back(i);
  std::sort(by_destination.begin(), by_destination.end(), [&](size_t x, size_t y) { return dst[x] < dst[y]; });
  for (size_t i : by_destination) order.insert(static_cast<size_t>(dst[i]), src[i]);
  return a.transpose(order);
}

}  // namespace cuarray
