#include "ops/engines/coalesce.hpp"

#include <cstdlib>

namespace cuarray::ops {

void coalesce(StridedView& v, bool sort) {
  // Drop length-1 dims.
  size_t w = 0;
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] == 1) continue;
    v.shape[w] = v.shape[d];
    for (int k = 0; k < v.count; ++k) v.strides[k][w] = v.strides[k][d];
    ++w;
  }
  v.shape.resize(w);
  for (int k = 0; k < v.count; ++k) v.strides[k].resize(w);

  // Stable insertion sort by decreasing |stride| of operand 0 (few dims: this is cheap).
  for (size_t i = 1; sort && i < w; ++i) {
    for (size_t j = i; j > 0 && std::llabs(v.strides[0][j - 1]) < std::llabs(v.strides[0][j]); --j) {
      std::swap(v.shape[j - 1], v.shape[j]);
      for (int k = 0; k < v.count; ++k) std::swap(v.strides[k][j - 1], v.strides[k][j]);
    }
  }

  // Merge dim i into i+1 when every operand steps through them as one.
  size_t out = 0;
  for (size_t d = 1; d < w; ++d) {
    bool mergeable = true;
    for (int k = 0; k < v.count && mergeable; ++k) mergeable = v.strides[k][out] == v.strides[k][d] * v.shape[d];
    if (mergeable) {
      v.shape[out] *= v.shape[d];
      for (int k = 0; k < v.count; ++k) v.strides[k][out] = v.strides[k][d];
    } else {
      ++out;
      v.shape[out] = v.shape[d];
      for (int k = 0; k < v.count; ++k) v.strides[k][out] = v.strides[k][d];
    }
  }
  size_t rank = w == 0 ? 0 : out + 1;
  v.shape.resize(rank);
  for (int k = 0; k < v.count; ++k) v.strides[k].resize(rank);
}

bool needs_index64(const StridedView& v, int64_t n) {
  constexpr int64_t kInt32Max = 0x7fffffff;
  if (n > kInt32Max) return true;
  for (int k = 0; k < v.count; ++k) {
    int64_t span = 0;
    for (size_t d = 0; d < v.shape.size(); ++d) span += std::llabs(v.strides[k][d]) * (v.shape[d] - 1);
    if (span > kInt32Max) return true;
  }
  return false;
}

}  // namespace cuarray::ops
