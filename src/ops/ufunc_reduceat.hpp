// The kernel of ufunc.reduceat: one thread per output element folds its segment in order with the
// ufunc's loop, as NumPy's reduceat loop does. (NumPy's float add sums segments of 8 or more
// elements pairwise; there cuarray's in-order sum agrees to rounding, not bit for bit.)
#pragma once
#include <string>

#include "ufunc_resolve.hpp"

namespace cuarray::ops {

inline constexpr const char* kReduceatKernelName = "cuarray_reduceat";

// `in`: the input's storage dtype; `out`: the output's; `rank`: the input's dims (>= 1).
std::string reduceat_source(const ParsedLoop& loop, DType in, DType out, int rank);

}  // namespace cuarray::ops
