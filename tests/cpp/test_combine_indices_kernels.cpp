// The combine kernel of multi-array index keys (combine_indices.cuh) compiles with NVRTC for
// sm_80 and sm_90: every index dtype (integers and bool) in every operand slot, mixed dtypes,
// K from 1 to the most one kernel takes, ranks 1-4, both index widths and both output widths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expect_compiles.hpp"
#include "ops/engines/gather/combine_indices.hpp"

using namespace cuarray;
using test::expect_compiles;
using test::LocalMemory;

namespace {

std::vector<DType> index_dtypes() {
  std::vector<DType> out;
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType d = static_cast<DType>(t);
    if (is_integer(d) || d == DType::Bool) out.push_back(d);
  }
  return out;
}

std::string name(DType t) { return std::string(dtype_name(t)); }

}  // namespace

TEST(CombineIndicesCompile, EveryIndexDTypeAlongsideInt64) {
  for (DType t : index_dtypes()) {
    const DType pair[] = {t, DType::Int64};
    expect_compiles(ops::combine_indices_source(pair, 2, false, false), "first " + name(t), LocalMemory::None);
    const DType swapped[] = {DType::Int64, t};
    expect_compiles(ops::combine_indices_source(swapped, 3, true, true), "second " + name(t), LocalMemory::None);
  }
}

TEST(CombineIndicesCompile, OperandCountsRanksAndWidths) {
  const std::vector<DType> all = index_dtypes();
  for (int k : {1, 3, ops::kMaxCombinedIndices}) {
    std::vector<DType> dtypes;
    for (int i = 0; i < k; ++i) dtypes.push_back(all[static_cast<size_t>(i) % all.size()]);
    for (int rank : {1, 4})
      for (bool index64 : {false, true})
        expect_compiles(ops::combine_indices_source(dtypes, rank, index64, index64),
                        "k " + std::to_string(k) + " rank " + std::to_string(rank) + (index64 ? " 64-bit" : ""),
                        LocalMemory::None);
  }
  const DType two[] = {DType::Int32, DType::UInt16};
  expect_compiles(ops::combine_indices_source(two, 2, false, true), "32-bit iteration, 64-bit flat index",
                  LocalMemory::None);
}
