// NVRTC compiles (sm_80 and sm_90) of the scatter-combine kernels (ufunc.at, bincount), the
// reduceat kernel and the binning kernel of digitize/histogram, over the dtypes and variants they
// are generated for. No GPU needed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"
#include "expect_compiles.hpp"
#include "jit/nvrtc.hpp"
#include "ops/histograms/histogram_bins.hpp"
#include "ops/engines/scatter_combine/scatter_combine.hpp"
#include "ops/ufunc/ufunc_reduceat.hpp"
#include "ops/ufunc/ufunc_table.hpp"

using namespace cuarray;
using test::expect_compiles;

namespace {


const DType kAllDTypes[] = {DType::Bool,    DType::Int8,      DType::UInt8,     DType::Int16,  DType::UInt16,
                            DType::Int32,   DType::UInt32,    DType::Int64,     DType::UInt64, DType::Float16,
                            DType::Float32, DType::Float64,   DType::Complex64, DType::Complex128};

int ufunc_index(const char* name) { return Ufunc::find(name)->index(); }

// The loop of `ufunc` whose first type is `t`, if any.
const ops::ParsedLoop* loop_for(int index, DType t) {
  for (const ops::ParsedLoop& loop : ops::parsed_loops(index))
    if (loop.types[0] == t) return &loop;
  return nullptr;
}

std::string name(DType t) { return std::string(dtype_name(t)); }

}  // namespace

// Every element dtype through add (hardware add, compare-and-swap on the containing word, the
// complex componentwise add), multiply (CAS, and the lock for complex128), maximum and negative,
// with index arrays of several integer dtypes, value arrays and scalar values.
TEST(ScatterCompile, EveryDTypeEveryMethod) {
  const DType index_sets[][2] = {{DType::Int64, DType::Int8}, {DType::UInt64, DType::Bool}, {DType::Int32, DType::UInt16}};
  int variant = 0;
  for (DType t : kAllDTypes) {
    for (const char* ufunc : {"add", "multiply", "maximum", "negative", "bitwise_xor"}) {
      const int index = ufunc_index(ufunc);
      const ops::ParsedLoop* loop = loop_for(index, t);
      if (!loop) continue;
      const int nin = ops::ufunc_defs()[index].nin;
      const ops::CombineMethod method = ops::combine_method(index, *loop, t);
      const DType* ix = index_sets[variant % 3];
      const int nindex = 1 + variant % 2;
      const std::optional<DType> value = variant % 2 ? std::optional<DType>(DType::Float64) : std::nullopt;
      const ops::ScatterLayout layout{1 + variant % 3, variant % 2 == 0, false,
                                      variant % 2 ? ops::OutOfRange::Drop : ops::OutOfRange::Raise};
      ++variant;
      expect_compiles(ops::scatter_source(*loop, nin, t, nin > 1, value, std::span<const DType>(ix, nindex), method, layout),
                      std::string(ufunc) + ".at on " + name(t));
    }
  }
}

TEST(ScatterCompile, MethodTable) {
  const int add = ufunc_index("add"), maximum = ufunc_index("maximum"), multiply = ufunc_index("multiply");
  EXPECT_EQ(ops::combine_method(add, *loop_for(add, DType::Int64), DType::Int64), ops::CombineMethod::Add);
  EXPECT_EQ(ops::combine_method(add, *loop_for(add, DType::Float32), DType::Float32), ops::CombineMethod::Add);
  EXPECT_EQ(ops::combine_method(add, *loop_for(add, DType::Complex128), DType::Complex128), ops::CombineMethod::Add);
  EXPECT_EQ(ops::combine_method(add, *loop_for(add, DType::Int8), DType::Int8), ops::CombineMethod::CompareAndSwap);
  EXPECT_EQ(ops::combine_method(add, *loop_for(add, DType::Float16), DType::Float16), ops::CombineMethod::CompareAndSwap);
  // A loop of another dtype than the target (float64 values into a float32 array) never takes a hardware atomic.
  EXPECT_EQ(ops::combine_method(add, *loop_for(add, DType::Float64), DType::Float32), ops::CombineMethod::CompareAndSwap);
  EXPECT_EQ(ops::combine_method(maximum, *loop_for(maximum, DType::UInt32), DType::UInt32), ops::CombineMethod::Max);
  EXPECT_EQ(ops::combine_method(maximum, *loop_for(maximum, DType::Float64), DType::Float64),
            ops::CombineMethod::CompareAndSwap);
  EXPECT_EQ(ops::combine_method(multiply, *loop_for(multiply, DType::Complex128), DType::Complex128),
            ops::CombineMethod::Lock);
}

// One loop of every unary and binary single-output ufunc (its last, usually the widest), as
// ufunc.at generates it, and the same loop writing into an int8 target through the CAS word path.
TEST(ScatterCompile, EveryUfunc) {
  for (size_t index = 0; index < ops::ufunc_defs().size(); ++index) {
    const ops::UfuncDef& def = ops::ufunc_defs()[index];
    if (def.name[0] == '_' || def.nout != 1 || def.nin > 2) continue;
    const ops::ParsedLoop& loop = ops::parsed_loops(static_cast<int>(index)).back();
    const DType target = loop.types[def.nin];
    const DType ix[] = {DType::Int64};
    const ops::ScatterLayout layout{2, false, false, ops::OutOfRange::Raise};
    expect_compiles(ops::scatter_source(loop, def.nin, target, def.nin > 1, loop.types[def.nin - 1], ix,
                                        ops::combine_method(static_cast<int>(index), loop, target), layout),
                    std::string(def.name) + ".at");
    expect_compiles(ops::scatter_source(loop, def.nin, DType::Int8, def.nin > 1, std::nullopt, ix,
                                        ops::CombineMethod::CompareAndSwap, layout),
                    std::string(def.name) + ".at into int8");
  }
}

// bincount's shared-memory bins: counts (int64 from a scalar 1) and float64 weight sums.
TEST(ScatterCompile, PrivatizedBins) {
  const int add = ufunc_index("add");
  for (DType t : {DType::Int64, DType::Float64}) {
    for (DType index : {DType::Int32, DType::UInt8, DType::Int64, DType::Bool}) {
      const DType ix[] = {index};
      const ops::ScatterLayout layout{1, false, true, ops::OutOfRange::Drop};
      const std::optional<DType> value = t == DType::Float64 ? std::optional<DType>(DType::Float32) : std::nullopt;
      expect_compiles(ops::scatter_source(*loop_for(add, t), 2, t, true, value, ix, ops::CombineMethod::Add, layout),
                      "bincount into " + name(t) + " by " + name(index));
    }
  }
}

TEST(ReduceatCompile, EveryBinaryUfuncLoop) {
  for (size_t index = 0; index < ops::ufunc_defs().size(); ++index) {
    const ops::UfuncDef& def = ops::ufunc_defs()[index];
    if (def.name[0] == '_' || def.nout != 1 || def.nin != 2) continue;
    int compiled = 0;
    for (const ops::ParsedLoop& loop : ops::parsed_loops(static_cast<int>(index))) {
      if (loop.types[0] != loop.types[2] || loop.types[1] != loop.types[2]) continue;
      // The first and the last reducible loop of each ufunc; add over every dtype.
      const bool last = &loop == &ops::parsed_loops(static_cast<int>(index)).back();
      if (compiled > 0 && !last && std::string_view(def.name) != "add") continue;
      const bool pairwise = std::string_view(def.name) == "add" && kind(loop.types[2]) == DTypeKind::Float;
      expect_compiles(ops::reduceat_source(loop, DType::Int16, loop.types[2], 1 + compiled % 3, pairwise),
                      std::string(def.name) + ".reduceat " + name(loop.types[2]) + (pairwise ? " (pairwise)" : ""));
      ++compiled;
    }
  }
}

TEST(BinsCompile, EveryRuleAndDType) {
  for (DType x : kAllDTypes) {
    if (is_complex(x)) continue;
    for (DType edges : {x == DType::Bool ? DType::Float64 : x, DType::Float64}) {
      expect_compiles(ops::bins_source(ops::BinRule::HistogramSearch, x, edges, std::nullopt, false),
                      "histogram search " + name(x) + " in " + name(edges));
      expect_compiles(ops::bins_source(ops::BinRule::DigitizeRight, x, edges, std::nullopt, x == DType::Int8),
                      "digitize " + name(x) + " in " + name(edges));
    }
    expect_compiles(ops::bins_source(ops::BinRule::DigitizeLeft, x, DType::Float32, std::nullopt, true),
                    "digitize right=True " + name(x));
    // Equal bins: the edges' dtype is x's when x is inexact, else float64; the arithmetic dtypes as NumPy promotes.
    const DType e = is_inexact(x) ? x : DType::Float64;
    const UniformBins same{x, e, e, {}, {}, {}, {}};
    const UniformBins wide{DType::Float64, e, DType::Float64, {}, {}, {}, {}};
    expect_compiles(ops::bins_source(ops::BinRule::Uniform, x, e, same, false), "uniform bins " + name(x));
    expect_compiles(ops::bins_source(ops::BinRule::Uniform, x, e, wide, false), "uniform bins (float64 range) " + name(x));
  }
}
