// Rearranging elements: flip, rot90 and moveaxis are views (no device work); roll copies one block
// per wrapped piece.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "ops/engines/copy/copy.hpp"

namespace cuarray {
namespace {

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

NDArray roll(const NDArray& a, std::span<const int64_t> shifts, std::optional<std::span<const int64_t>> axes) {
  if (!axes) {  // NumPy rolls the flattened array by every shift
    int64_t total = 0;
    for (int64_t s : shifts) total += s;
    const int64_t zero[] = {0};
    return roll(a.ravel(), std::span<const int64_t>(&total, 1), std::span<const int64_t>(zero)).reshape(a.shape());
  }
  if (shifts.size() != axes->size())
    throw_error(ErrorKind::Value, "'shift' and 'axis' must have the same number of elements");
  SmallVector<int64_t, 6> shift(static_cast<size_t>(a.ndim()), 0);
  for (size_t i = 0; i < shifts.size(); ++i) shift[normalize_axis((*axes)[i], a.ndim())] += shifts[i];
  NDArray result = empty_like(a);
  if (a.size() == 0) return result;
  // Each rolled axis splits every block into two: [0, n-s) -> [s, n) and [n-s, n) -> [0, s).
  std::vector<std::pair<NDArray, NDArray>> blocks = {{a, result}};
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t n = a.shape()[d], s = ((shift[d] % n) + n) % n;
    if (s == 0) continue;
    std::vector<std::pair<NDArray, NDArray>> split_blocks;
    for (const auto& [src, dst] : blocks) {
      split_blocks.emplace_back(src.slice(d, 0, n - s, 1), dst.slice(d, s, n, 1));
      split_blocks.emplace_back(src.slice(d, n - s, n, 1), dst.slice(d, 0, s, 1));
    }
    blocks = std::move(split_blocks);
  }
  for (const auto& [src, dst] : blocks) ops::copy_into(src, dst);
  return result;
}

}  // namespace cuarray
