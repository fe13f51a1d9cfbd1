// The copy kernels compile with NVRTC for sm_80 and sm_90: the tiled transpose copy
// (transpose.cuh: plain copies of every element size, casts from and to every dtype, several batch
// ranks), the one-pass pad (pad.cuh: every mode and word size) and the join (join.cuh: every word
// size and piece-table capacity), in both index widths.
#include <gtest/gtest.h>

#include <string>

#include "expect_compiles.hpp"
#include "ops/engines/copy/join_copy.hpp"
#include "ops/padding/pad.hpp"
#include "ops/engines/copy/transpose_copy.hpp"

using namespace cuarray;
using test::expect_compiles;
using test::LocalMemory;

namespace {

std::string name(DType t) { return std::string(dtype_name(t)); }

}  // namespace

TEST(TransposeKernelCompile, PlainCopyOfEveryElementSize) {
  // One dtype per element size (1, 2, 4, 8, 16 bytes): a plain copy moves raw words.
  for (DType t : {DType::Int8, DType::Float16, DType::Float32, DType::Float64, DType::Complex128})
    for (bool index64 : {false, true})
      expect_compiles(ops::transpose_source(t, t, 1, index64), "copy " + name(t) + (index64 ? " 64-bit" : ""));
  for (int batch_rank : {2, 3})
    expect_compiles(ops::transpose_source(DType::Float32, DType::Float32, batch_rank, false),
                    "copy batch rank " + std::to_string(batch_rank));
}

TEST(TransposeKernelCompile, CastsFromAndToEveryDType) {
  for (int k = 0; k < kNumDTypes; ++k) {
    const DType t = static_cast<DType>(k);
    if (t != DType::Float64) expect_compiles(ops::transpose_source(t, DType::Float64, 1, false), name(t) + " -> float64");
    if (t != DType::Complex64) expect_compiles(ops::transpose_source(DType::Complex64, t, 1, false), "complex64 -> " + name(t));
  }
  expect_compiles(ops::transpose_source(DType::Float16, DType::Bool, 2, true), "float16 -> bool 64-bit");
  expect_compiles(ops::transpose_source(DType::UInt64, DType::Float16, 1, false), "uint64 -> float16");
}

TEST(PadKernelCompile, EveryModeAndWordSize) {
  for (PadMode mode : {PadMode::Constant, PadMode::Edge, PadMode::Reflect, PadMode::Symmetric, PadMode::Wrap})
    for (int word : {1, 2, 4, 8, 16})
      expect_compiles(ops::pad_source(mode, word, 2, word == 8),
                      "pad mode " + std::to_string(static_cast<int>(mode)) + " word " + std::to_string(word),
                      LocalMemory::None);
  for (int rank : {1, 3, 4})
    for (bool index64 : {false, true})
      expect_compiles(ops::pad_source(PadMode::Reflect, 4, rank, index64), "pad rank " + std::to_string(rank),
                      LocalMemory::None);
  for (int rank : {1, 3, 4})  // constant mode indexes its constants by the padded dim
    expect_compiles(ops::pad_source(PadMode::Constant, 16, rank, false), "pad constant rank " + std::to_string(rank),
                    LocalMemory::None);
}

TEST(JoinKernelCompile, EveryWordSizeAndCapacity) {
  for (int word : {1, 2, 4, 8, 16})
    for (int capacity : {4, 16, 64})
      for (bool index64 : {false, true})
        expect_compiles(ops::join_source(word, capacity, index64),
                        "join word " + std::to_string(word) + " capacity " + std::to_string(capacity) +
                            (index64 ? " 64-bit" : ""),
                        LocalMemory::None);
}
