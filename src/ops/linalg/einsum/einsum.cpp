// numpy.einsum: parse, plan pairwise, run each contraction (einsum_contract.cpp).
#include "cuarray/einsum.hpp"

#include <string>
#include <vector>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "ops/linalg/einsum/einsum_contract.hpp"
#include "ops/linalg/einsum/einsum_planner.hpp"
#include "ops/linalg/einsum/einsum_subscripts.hpp"

namespace cuarray {
namespace {

using namespace einsum_detail;

// The dtype every product and sum runs in: dtype= or the operands' promotion, each operand
// castable to it under `casting` (c_einsum's iterator check and message).
DType compute_dtype(std::span<const NDArray> operands, const EinsumOptions& options) {
  std::vector<DType> dtypes;
  for (const NDArray& op : operands) dtypes.push_back(op.dtype());
  DType dtype = promote_types(dtypes);
  if (options.dtype) dtype = *options.dtype;
  for (size_t i = 0; i < operands.size(); ++i)
    if (!can_cast(operands[i].dtype(), dtype, options.casting))
      throw_error(ErrorKind::Type, "Iterator operand " + std::to_string(i) + " dtype could not be cast from " +
                                       dtype_repr(operands[i].dtype()) + " to " + dtype_repr(dtype) +
                                       " according to the rule '" + std::string(casting_name(options.casting)) + "'");
  return dtype;
}

// One contraction of the path: a single operand reduces; several multiply pairwise in the order
// given, each intermediate keeping only the labels still needed.
NDArray run_contraction(std::vector<LabeledArray> taken, const std::string& result) {
  if (taken.size() == 1) return reduce_to(taken[0], result);
  LabeledArray current = std::move(taken[0]);
  for (size_t j = 1; j < taken.size(); ++j) {
    std::string labels = result;
    if (j + 1 < taken.size()) {
      LabelSet needed = label_set(result);
      for (size_t k = j + 1; k < taken.size(); ++k) needed |= label_set(taken[k].labels);
      labels.clear();
      for (char c : current.labels + taken[j].labels)
        if ((needed >> label_index(c) & 1) && labels.find(c) == std::string::npos) labels += c;
    }
    current = {contract_pair(current, taken[j], labels), labels};
  }
  return current.array;
}

Order result_order(std::span<const NDArray> operands, Order order) {
  if (order != Order::A) return order;
  for (const NDArray& op : operands)
    if (!op.f_contiguous()) return Order::C;
  return Order::F;
}

}  // namespace

NDArray einsum(std::string_view subscripts, std::span<const NDArray> operands, const EinsumOptions& options) {
  const bool c_einsum = options.optimize.kind == EinsumOptimize::Kind::None;
  std::vector<Shape> shapes;
  for (const NDArray& op : operands) shapes.push_back(op.shape());
  const EinsumExpression e =
      parse_einsum(subscripts, shapes, c_einsum ? EinsumDialect::CEinsum : EinsumDialect::Path);
  const DType dtype = compute_dtype(operands, options);
  const int device = current_device();
  for (const NDArray& op : operands) check_device(op, device);
  if (options.out) check_device(*options.out, device, "output array");

  Shape result_shape;
  for (char c : e.output) result_shape.push_back(e.size_of(c));
  if (options.out) {
    if (options.out->shape() != result_shape)
      throw_error(ErrorKind::Value, "could not broadcast input array from shape " + shape_repr(result_shape) +
                                        " into shape " + shape_repr(options.out->shape()));
    if (!can_cast(dtype, options.out->dtype(), options.casting))
      throw_error(ErrorKind::Type, "Iterator requested dtype could not be cast from " + dtype_repr(dtype) + " to " +
                                       dtype_repr(options.out->dtype()) + ", the operand " +
                                       std::to_string(operands.size()) + " dtype, according to the rule '" +
                                       std::string(casting_name(options.casting)) + "'");
  }

  // c_einsum multiplies all operands at once; the same sums in greedy pairwise order run as GEMMs
  // and never hold an intermediate larger than the largest operand or the result.
  EinsumOptimize plan_options = options.optimize;
  if (c_einsum) plan_options.kind = EinsumOptimize::Kind::Greedy;
  const EinsumPath plan = plan_einsum(e, plan_options, false);

  std::vector<LabeledArray> pending;
  for (size_t i = 0; i < operands.size(); ++i) pending.push_back({operands[i].astype(dtype, false), e.inputs[i]});
  for (const EinsumContraction& c : plan.contractions) {
    std::vector<LabeledArray> taken;
    for (int64_t p : c.positions) {
      taken.push_back(std::move(pending[p]));
      pending.erase(pending.begin() + p);
    }
    const std::string result = c.equation.substr(c.equation.find("->") + 2);
    pending.push_back({run_contraction(std::move(taken), result), result});
  }
  NDArray result = pending[0].array;
  if (result.shape() != result_shape) result = result.broadcast_to(result_shape);

  if (options.out) {
    NDArray out = *options.out;
    out.assign(result);
    return out;
  }
  // A lone operand that needed no sum and no cast stays a view of it, as NumPy's; anything else
  // is a new array in the requested order (C for 'K': the products are laid out as the output).
  const bool view_of_input = operands.size() == 1 && result.buffer() == operands[0].buffer();
  const Order order = result_order(operands, options.order);
  if (view_of_input && order == Order::K) return result;
  if (order == Order::F) return result.f_contiguous() ? result : result.copy(Order::F);
  return result.c_contiguous() && !view_of_input ? result : result.copy(Order::C);
}

}  // namespace cuarray
