// einsum's executor: one step of a path at a time, on arrays whose dims carry labels.
#pragma once
#include <string>
#include <string_view>

#include "cuarray/ndarray.hpp"
#include "ops/linalg/einsum/einsum_subscripts.hpp"

namespace cuarray::einsum_detail {

// An array and one label per dim. A dim may be 1 where its label is larger: it broadcasts.
struct LabeledArray {
  NDArray array;
  std::string labels;
};

// One operand to `out` labels (each once, all among x's): a repeated label becomes a diagonal
// (a strided view), labels left out are summed (in x's dtype), the rest transposed into out's
// order. A view of x's memory whenever nothing is summed.
NDArray reduce_to(const LabeledArray& x, std::string_view out);

// Two operands to `out` labels: labels only one of them needs are summed first; with no label to
// sum over together the product is an elementwise multiply (broadcast outer/Hadamard); else one
// matmul of (batch..., M, K) by (batch..., K, N), the batch dims broadcasting, their labels' dims
// grouped by reshape (a view where strides allow). The result is laid out as `out` when the
// labels allow, else transposed to it.
NDArray contract_pair(const LabeledArray& a, const LabeledArray& b, std::string_view out);

}  // namespace cuarray::einsum_detail
