// How dtypes are spelled in generated kernel source, and which fragments every kernel starts with.
#pragma once
#include <string>
#include <string_view>

#include "cuarray/dtype.hpp"

namespace cuarray::ops {

std::string_view kernel_type_name(DType t);  // "float", "cuarray::complex<double>", ...

// prelude, float16, complex, convert and ufunc_math fragments, in order.
void append_common_fragments(std::string& source);

}  // namespace cuarray::ops
