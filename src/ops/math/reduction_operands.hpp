// NumPy's checks of a reduction's out= and where= operands, with NumPy's messages.
#pragma once
#include <span>
#include <string_view>

#include "cuarray/shape.hpp"

namespace cuarray::ops {

// The checks NumPy's ufunc reductions make (PyUFunc_ReduceWrapper, then its iterator:
// numpy/_core/src/multiarray/nditer_constr.c) on the input of shape `in` reduced over `reduced`
// (normalized, ascending), an out= of shape `*out` and a where= mask of shape `*where` (either may
// be null): ValueError "output parameter for reduction operation <ufunc> has the wrong number of
// dimensions ...", "operands could not be broadcast together with remapped shapes ...", "output
// operand requires a reduction along dimension ...", "non-broadcastable operand with shape ...",
// in NumPy's order. Passing means out has the result's shape and where broadcasts to `in`.
void check_reduction_operands(std::string_view ufunc, const Shape& in, std::span<const int> reduced, bool keepdims,
                              const Shape* out, const Shape* where);

}  // namespace cuarray::ops
