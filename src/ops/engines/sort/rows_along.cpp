#include "ops/engines/sort/rows_along.hpp"

#include <algorithm>

namespace cuarray::ops {

RowsAlong rows_along(const NDArray& a, std::span<const int> reduced) {
  RowsAlong r;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) r.perm.push_back(d);
  r.kept = static_cast<int>(r.perm.size());
  for (int d : reduced) r.perm.push_back(d);
  r.row_len = 1;
  for (int d : reduced) r.row_len *= a.shape()[d];
  bool identity = true;
  for (int d = 0; d < a.ndim(); ++d) identity = identity && r.perm[d] == d;
  NDArray moved = identity ? a : a.transpose(std::span<const int64_t>(r.perm.data(), r.perm.size()));
  r.rows = moved.c_contiguous() ? moved : moved.copy(Order::C);
  return r;
}

NDArray restore_axes(const NDArray& moved, const RowsAlong& r) {
  Axes inverse(r.perm.size(), 0);
  bool identity = true;
  for (size_t i = 0; i < r.perm.size(); ++i) {
    inverse[r.perm[i]] = static_cast<int64_t>(i);
    identity = identity && r.perm[i] == static_cast<int64_t>(i);
  }
  if (identity) return moved;
  return moved.transpose(std::span<const int64_t>(inverse.data(), inverse.size())).copy(Order::C);
}

}  // namespace cuarray::ops
