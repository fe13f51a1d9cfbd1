// The kernel of ufunc.reduceat: one thread per output element folds its segment in order with the
// ufunc's loop in NumPy's order (in order, or NumPy's pairwise tree for float add).
#pragma once
#include <string>

#include "ops/ufunc/ufunc_resolve.hpp"

namespace cuarray::ops {

inline constexpr const char* kReduceatKernelName = "cuarray_reduceat";

// `in`: the input's storage dtype; `out`: the output's; `rank`: the input's dims (>= 1).
// `pairwise`: float add, which NumPy reduces as a[i] + pairwise_sum(a[i+1:j]) (float16 in float32,
// rounded once); the kernel then follows the same summation tree, so results match bit for bit.
std::string reduceat_source(const ParsedLoop& loop, DType in, DType out, int rank, bool pairwise = false);

}  // namespace cuarray::ops
