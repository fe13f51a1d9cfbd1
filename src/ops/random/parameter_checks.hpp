// NumPy's parameter checks for one distribution row: host-side for scalar parameters (before any
// GPU work), one device pass plus a one-byte read back when any parameter is an array.
#pragma once
#include <span>
#include <string>

#include "cuarray/random.hpp"
#include "ops/random/distribution_table.hpp"

namespace cuarray::random {

// Throws NumPy's exception and message for the first check (table order) any element fails.
void check_parameters(const DistributionDef& def, Api api, std::span<const Operand> params);

// NumPy's broadcast of the parameters (and of `size`, which must then be the result):
// np.broadcast's "shape mismatch" message, and "Output size ... is not compatible". The
// distributions broadcast (out, params...), integers (low, high, out): `size_last` names the order.
Shape output_shape(std::span<const Operand> params, const std::optional<Shape>& size, bool size_last = false);

// The device expression of a row's checks under an API's array rules: the index of the first
// check an element fails, 255 for none.
std::string check_expression(const DistributionDef& def, Api api);

// The loop dtype a parameter loads as.
DType param_dtype(ParamType t, DType result);

}  // namespace cuarray::random
