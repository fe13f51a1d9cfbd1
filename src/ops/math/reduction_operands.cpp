// NumPy's operand checks of a ufunc reduction, step by step as its iterator makes them, so that
// each failure carries NumPy's message.
#include "ops/math/reduction_operands.hpp"

#include <algorithm>
#include <string>

#include "cuarray/errors.hpp"

namespace cuarray::ops {
namespace {

// NumPy's convert_shape_to_string: leading negative (new) axes are dropped, later ones print as
// "newaxis"; one dim prints "(n,)".
std::string shape_string(const Shape& dims, std::string_view ending) {
  size_t i = 0;
  while (i < dims.size() && dims[i] < 0) ++i;
  if (i == dims.size()) return "()" + std::string(ending);
  std::string s = "(";
  s += std::to_string(dims[i++]);
  for (; i < dims.size(); ++i) {
    s += ',';
    s += dims[i] < 0 ? "newaxis" : std::to_string(dims[i]);
  }
  s += dims.size() == 1 ? ",)" : ")";
  s += ending;
  return s;
}

struct ResultAxis {
  int axis;        // the out dim this input dim maps to; -1: none (a reduced dim without keepdims)
  bool reduction;  // a reduced dim
};

}  // namespace

void check_reduction_operands(std::string_view ufunc, const Shape& in, std::span<const int> reduced, bool keepdims,
                              const Shape* out, const Shape* where) {
  const int n = static_cast<int>(in.size());
  SmallVector<ResultAxis, 8> axes;
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const bool is_reduced = std::find(reduced.begin(), reduced.end(), i) != reduced.end();
    axes.push_back({is_reduced && !keepdims ? -1 : kept, is_reduced});
    if (!is_reduced || keepdims) ++kept;
  }
  if (out && static_cast<int>(out->size()) != kept)
    throw_error(ErrorKind::Value, "output parameter for reduction operation " + std::string(ufunc) +
                                      " has the wrong number of dimensions: Found " + std::to_string(out->size()) +
                                      " but expected " + std::to_string(kept) +
                                      (keepdims ? " (must match the operand's when keepdims=True)" : ""));

  // Broadcasting, operand by operand (out through its axis map, then the input, then the mask).
  Shape shape(static_cast<size_t>(n), 1);
  auto broadcast_error = [&] {
    std::string msg = "operands could not be broadcast together with remapped shapes [original->remapped]: ";
    if (out) {
      Shape remapped;
      for (const ResultAxis& r : axes) remapped.push_back(r.axis >= 0 ? (*out)[r.axis] : -1);
      msg += shape_string(*out, "->") + shape_string(remapped, " ");
    }
    msg += shape_string(in, " ");
    if (where) msg += shape_string(*where, " ");
    throw_error(ErrorKind::Value, msg);
  };
  auto meet = [&](int64_t& dim, int64_t len) {
    if (dim == 1) dim = len;
    else if (dim != len && len != 1) broadcast_error();
  };
  if (out)
    for (int i = 0; i < n; ++i)
      if (axes[i].axis >= 0) meet(shape[i], (*out)[axes[i].axis]);
  for (int i = 0; i < n; ++i) meet(shape[i], in[i]);
  if (where) {
    const int wn = static_cast<int>(where->size());
    if (wn > n) throw_error(ErrorKind::Value, "input operand has more dimensions than allowed by the axis remapping");
    for (int j = 0; j < wn; ++j) meet(shape[j + n - wn], (*where)[j]);
  }

  // What broadcasting allowed but a reduction forbids, innermost dim first: out may not broadcast
  // (a reduction it was not set up for), nor may the input.
  for (int i = n - 1; i >= 0; --i) {
    if (out) {
      const ResultAxis r = axes[i];
      if (r.reduction) {
        if (r.axis >= 0 && (*out)[r.axis] != 1)
          throw_error(ErrorKind::Value, "operand was set up as a reduction along axis " + std::to_string(r.axis) +
                                            ", but the length of the axis is " + std::to_string((*out)[r.axis]) +
                                            " (it has to be 1)");
      } else if (shape[i] != 1 && (*out)[r.axis] == 1) {
        throw_error(ErrorKind::Value, "output operand requires a reduction along dimension " + std::to_string(r.axis) +
                                          ", but the reduction is not enabled. The dimension size of 1 does not "
                                          "match the expected output shape.");
      }
    }
    if (shape[i] != 1 && in[i] == 1)
      throw_error(ErrorKind::Value, "non-broadcastable operand with shape " + shape_string(in, "") +
                                        " doesn't match the broadcast shape " + shape_string(shape, ""));
  }
}

}  // namespace cuarray::ops
