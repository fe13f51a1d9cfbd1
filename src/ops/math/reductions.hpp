// How reduce() plans one NumPy reduction: the row that runs and its dtypes (docs/reductions.md).
#pragma once
#include <optional>

#include "cuarray/reduction.hpp"
#include "ops/engines/reduction/reduction.hpp"
#include "ops/math/reduction_table.hpp"

namespace cuarray::ops {

struct ReductionKernelPlan {
  ReductionSpec spec;
  const ReductionDef* def;  // the row that runs: a nan-form of an exact dtype runs its plain row
  DType compute;            // the dtype the kernel computes in
  DType out;                // the result's dtype: dtype=, else NumPy's rule (or the loop out= resolves)
};

// What reduce() runs for reduction `r` on an input of dtype `in`, with dtype= and the dtype of
// out= when given: the ufunc reductions resolve their loop with out's dtype as NumPy does
// (np.sum(float32, out=float64) adds in float64; np.sum(int8, out=int8) adds in int8), and mean
// and var sum in that loop unless NumPy passes a dtype itself (integers; float16 means).
ReductionKernelPlan plan_reduction(const Reduction& r, DType in, std::optional<DType> dtype = std::nullopt,
                                   std::optional<DType> out = std::nullopt);

}  // namespace cuarray::ops
