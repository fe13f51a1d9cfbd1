// Kernel sources of searchsorted and the quantiles (also compiled by the NVRTC tests).
#pragma once
#include <string>

#include "cuarray/dtype.hpp"

namespace cuarray::ops {

std::string searchsorted_source(DType dtype, bool sorter, bool index64);
std::string quantile_source(DType in, DType out);  // `out`: the result dtype

}  // namespace cuarray::ops
