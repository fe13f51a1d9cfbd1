// The compaction (select.cuh) and gather/scatter (gather.cuh) kernels compile with NVRTC for
// sm_80 and sm_90 over every predicate dtype, index dtype, element width, mode, and both index widths.
#include <gtest/gtest.h>

#include <string>

#include "cuarray/errors.hpp"
#include "expect_compiles.hpp"
#include "jit/nvrtc.hpp"
#include "ops/engines/gather/gather.hpp"
#include "ops/engines/select/select.hpp"
#include "ops/engines/sort/sort.hpp"

using namespace cuarray;
using test::expect_compiles;
using test::LocalMemory;
using ops::GatherKernel;
using ops::SelectMode;
using ops::SelectPass;

namespace {

const int kWords[] = {1, 2, 4, 8, 16};
const IndexMode kModes[] = {IndexMode::Raise, IndexMode::Wrap, IndexMode::Clip};

std::string name(DType t) { return std::string(dtype_name(t)); }

}  // namespace

TEST(SelectKernelCompile, ScanAndCountForEveryPredicateDType) {
  expect_compiles(ops::select_source(SelectPass::Scan, DType::Bool, 1, SelectMode::Values, 1, 1, false), "scan",
                  LocalMemory::None);
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType pred = static_cast<DType>(t);
    expect_compiles(ops::select_source(SelectPass::Count, pred, 1, SelectMode::Values, 2, 1, false), "count " + name(pred),
                    LocalMemory::None);
  }
  expect_compiles(ops::select_source(SelectPass::Count, DType::Bool, 1, SelectMode::Values, 1, 1, true), "count 64-bit",
                  LocalMemory::None);
}

TEST(SelectKernelCompile, WriteEveryModeWidthAndPredicate) {
  for (int word : kWords)
    for (SelectMode mode : {SelectMode::Values, SelectMode::Scatter})
      for (bool index64 : {false, true})
        expect_compiles(ops::select_source(SelectPass::Write, DType::Bool, word, mode, 1, 1, index64),
                        "write mode " + std::to_string(static_cast<int>(mode)) + " word " + std::to_string(word) +
                            (index64 ? " 64-bit" : ""), LocalMemory::None);
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType pred = static_cast<DType>(t);
    expect_compiles(ops::select_source(SelectPass::Write, pred, 4, SelectMode::Values, 3, 1, false), "values " + name(pred),
                    LocalMemory::None);
  }
  for (int rank : {1, 4})
    for (bool index64 : {false, true})
      expect_compiles(ops::select_source(SelectPass::Write, DType::Float64, 8, SelectMode::Indices, 2, rank, index64),
                      "indices rank " + std::to_string(rank), LocalMemory::None);
}

TEST(GatherKernelCompile, GatherEveryIndexDTypeModeAndWidth) {
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType idx = static_cast<DType>(t);
    if (!is_integer(idx) && idx != DType::Bool) continue;
    for (IndexMode mode : kModes)
      expect_compiles(ops::gather_source(GatherKernel::Gather, idx, 4, mode, 2, 1, false),
                      "gather " + name(idx) + " mode " + std::to_string(static_cast<int>(mode)), LocalMemory::None);
  }
  for (int word : kWords)
    expect_compiles(ops::gather_source(GatherKernel::Gather, DType::Int64, word, IndexMode::Raise, 3, 2, true),
                    "gather word " + std::to_string(word), LocalMemory::None);
}

TEST(GatherKernelCompile, ScatterEveryIndexDTypeModeAndWidth) {
  for (int t = 0; t < kNumDTypes; ++t) {
    const DType idx = static_cast<DType>(t);
    if (!is_integer(idx) && idx != DType::Bool) continue;
    for (bool index64 : {false, true})
      for (GatherKernel k : {GatherKernel::ScatterMark, GatherKernel::ScatterClaim, GatherKernel::ScatterResolve})
        expect_compiles(ops::gather_source(k, idx, 4, IndexMode::Raise, 2, 1, index64),
                        "mark/claim/resolve " + name(idx) + (index64 ? " index64" : ""), LocalMemory::None);
  }
  for (int word : kWords)
    for (IndexMode mode : kModes)
      expect_compiles(ops::gather_source(GatherKernel::Scatter, DType::Int32, word, mode, 2, 3, word == 8),
                      "scatter word " + std::to_string(word) + " mode " + std::to_string(static_cast<int>(mode)),
                      LocalMemory::None);
}

TEST(GatherKernelCompile, SortedScatterEveryWidth) {
  // Keys and values out of the operands, the pairs sort (index_t keys, word payloads), the write.
  for (int word : kWords)
    for (bool index64 : {false, true}) {
      const std::string what = " word " + std::to_string(word) + (index64 ? " index64" : "");
      expect_compiles(ops::gather_source(GatherKernel::ScatterKeys, DType::Int64, word, IndexMode::Raise, 2, 1, index64),
                      "scatter keys" + what, LocalMemory::None);
      expect_compiles(ops::gather_source(GatherKernel::ScatterSorted, DType::Int64, word, IndexMode::Wrap, 1, 2, index64),
                      "sorted scatter" + what, LocalMemory::None);
      const DType key = index64 ? DType::UInt64 : DType::UInt32;
      const ops::RadixPayload payload{ops::RadixPayload::Words, static_cast<uint8_t>(word)};
      expect_compiles(ops::radix_passes_source(key, payload, ops::radix_tile_items(key, payload)), "pairs sort" + what);
    }
}
