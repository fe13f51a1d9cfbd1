// The kernel source of the quantile family (also compiled by the NVRTC tests).
#pragma once
#include <string>

#include "cuarray/dtype.hpp"

namespace cuarray::ops {

std::string quantile_source(DType in, DType out);  // `out`: the result dtype

}  // namespace cuarray::ops
