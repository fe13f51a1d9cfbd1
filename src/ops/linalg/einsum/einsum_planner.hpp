// einsum's contraction order: NumPy's greedy and optimal searches over label sets, with the
// same costs, memory limit and tie-breaking, so a path here is the one numpy.einsum_path gives.
#pragma once
#include <vector>

#include "cuarray/einsum.hpp"
#include "ops/linalg/einsum/einsum_subscripts.hpp"

namespace cuarray::einsum_detail {

using Path = std::vector<std::vector<int64_t>>;

// numpy's _greedy_path / _optimal_path over the terms' label sets.
Path greedy_path(const std::vector<LabelSet>& inputs, LabelSet output, const EinsumExpression& e, double memory_limit);
Path optimal_path(const std::vector<LabelSet>& inputs, LabelSet output, const EinsumExpression& e, double memory_limit);

// numpy.einsum_path's body after parsing: the path for `optimize`, the contraction list and the
// report (left empty without `with_report`: einsum itself needs only the contractions).
// optimize=None gives one contraction of every operand, as NumPy's does.
EinsumPath plan_einsum(const EinsumExpression& e, const EinsumOptimize& optimize, bool with_report = true);

}  // namespace cuarray::einsum_detail
