// Every generated kernel family compiles with NVRTC for sm_80 and sm_90: each ufunc loop (linear
// vectorized and strided layouts), every cast and the reductions (the random kernels: test_random.cpp). No GPU
// is needed: NVRTC produces CUBIN for any architecture.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/errors.hpp"
#include "expect_compiles.hpp"
#include "jit/nvrtc.hpp"
#include "kernels/fragments.hpp"
#include "ops/engines/elementwise/elementwise_source.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/engines/reduction/reduction.hpp"
#include "ops/math/reductions.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"
#include "ops/ufunc/ufunc_table.hpp"

using namespace cuarray;
using test::expect_compiles;

namespace {


ops::ElementwiseLayout strided(int rank) { return {false, 1, rank, false, false}; }
ops::ElementwiseLayout linear(int vec) { return {true, vec, 1, false, false}; }

}  // namespace

class UfuncLoopCompile : public ::testing::TestWithParam<int> {};

TEST_P(UfuncLoopCompile, EveryLoopCompiles) {
  const int index = GetParam();
  const ops::UfuncDef& def = ops::ufunc_defs()[index];
  for (const ops::ParsedLoop& loop : ops::parsed_loops(index)) {
    ops::ElementwiseSpec spec{static_cast<uint64_t>(index), loop.expr, def.nin, def.nout, loop.types};
    // Inputs stored as the loop's own types; the first input a scalar in the strided variant.
    std::vector<std::optional<DType>> in(loop.types, loop.types + def.nin);
    std::vector<DType> out(loop.types + def.nin, loop.types + def.nin + def.nout);
    std::string what = std::string(def.name) + " loop " + std::to_string(&loop - ops::parsed_loops(index).data());
    expect_compiles(ops::elementwise_source(spec, in, out, linear(2)), what + " linear");
    if (def.nin > 1) in[0].reset();
    ops::ElementwiseLayout layout = strided(3);
    layout.has_where = true;
    expect_compiles(ops::elementwise_source(spec, in, out, layout), what + " strided+where");
  }
}

INSTANTIATE_TEST_SUITE_P(AllUfuncs, UfuncLoopCompile,
                         ::testing::Range(0, static_cast<int>(ops::ufunc_defs().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name = ops::ufunc_defs()[info.param].name;
                           for (char& c : name)
                             if (c == '_') c = 'U';
                           return name;
                         });

TEST(CastCompile, EveryDTypePair) {
  for (int a = 0; a < kNumDTypes; ++a) {
    for (int b = 0; b < kNumDTypes; ++b) {
      const DType loop[] = {static_cast<DType>(b), static_cast<DType>(b)};
      ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::Copy), "out0 = in0;", 1, 1, loop};
      std::optional<DType> in[] = {static_cast<DType>(a)};
      DType out[] = {static_cast<DType>(b)};
      const int vec = static_cast<int>(16 / std::max(itemsize(loop[0]), itemsize(static_cast<DType>(a))));
      expect_compiles(ops::elementwise_source(spec, in, out, linear(vec)),
                      std::string("cast ") + std::string(dtype_name(static_cast<DType>(a))) + " -> " +
                          std::string(dtype_name(static_cast<DType>(b))));
    }
  }
}

TEST(SourceGeneration, NamesOperandsAndLayout) {
  const DType loop[] = {DType::Float32, DType::Float32, DType::Float32};
  ops::ElementwiseSpec spec{0, "out0 = in0 + in1;", 2, 1, loop};
  std::optional<DType> in[] = {DType::Float64, std::nullopt};
  DType out[] = {DType::Float32};
  std::string s = ops::elementwise_source(spec, in, out, linear(2));
  EXPECT_NE(s.find("typedef double s0_t;"), std::string::npos);       // input storage
  EXPECT_NE(s.find("const in1_t sc1"), std::string::npos);            // scalar as a parameter
  EXPECT_NE(s.find("cuarray::Vec<s0_t, 2>"), std::string::npos);      // vector loads
  const size_t sig = s.find(ops::kElementwiseKernelName);
  EXPECT_EQ(s.substr(sig, s.find(')', sig) - sig).find("shape"), std::string::npos);  // linear: no shape parameter
  std::string t = ops::elementwise_source(spec, in, out, strided(2));
  EXPECT_NE(t.find("cuarray::Array<index_t, 2> shape"), std::string::npos);
}

// Every reduction of the table (sum ... nanargmax) for every input dtype, single pass and both
// halves of a split reduction (the first with a where= mask), as reduce() plans them. One test per
// reduction, so ctest runs them in parallel.
class ReductionCompile : public ::testing::TestWithParam<int> {};

TEST_P(ReductionCompile, EveryDType) {
  const Reduction& r = Reduction::all()[GetParam()];
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType in = static_cast<DType>(i);
    const ops::ReductionKernelPlan plan = ops::plan_reduction(r, in);
    const std::string what = std::string(r.name()) + " of " + std::string(dtype_name(in));
    expect_compiles(ops::reduction_source(plan.spec, in, plan.compute, plan.out, false, false, 2, 1,
                                          ops::ReducePlan{1, 256, 1, 256, false}), what);
    expect_compiles(ops::reduction_source(plan.spec, in, plan.compute, plan.out, false, true, 1, 2,
                                          ops::ReducePlan{32, 8, 4, 64, true, true}), what + " (masked partials)");
    expect_compiles(ops::reduction_source(plan.spec, in, plan.compute, plan.out, true, false, 1, 1,
                                          ops::ReducePlan{64, 4, 1, 8, false}), what + " (second pass)");
  }
}

// out= of any dtype is written by the kernel itself (every post-map casts with cuarray_cast), in
// the compute dtype the out= loop rules pick: each reduction into the dtypes whose conversions
// differ most (bool, float16, integers, complex), from a real, a complex and an integer input.
TEST_P(ReductionCompile, IntoOut) {
  const Reduction& r = Reduction::all()[GetParam()];
  const std::pair<DType, std::vector<DType>> cases[] = {
      {DType::Float32, {DType::Bool, DType::Int8, DType::UInt64, DType::Float16, DType::Complex128}},
      {DType::Complex64, {DType::Bool, DType::Float16, DType::Float64}},
      {DType::Int16, {DType::Bool, DType::Float16}},
  };
  for (const auto& [in, outs] : cases) {
    for (DType out : outs) {
      const ops::ReductionKernelPlan plan = ops::plan_reduction(r, in, std::nullopt, out);
      const std::string what = std::string(r.name()) + " of " + std::string(dtype_name(in)) + " into " +
                               std::string(dtype_name(out));
      expect_compiles(ops::reduction_source(plan.spec, in, plan.compute, out, false, false, 1, 1,
                                            ops::ReducePlan{1, 256, 1, 256, false}), what);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllReductions, ReductionCompile,
                         ::testing::Range(0, static_cast<int>(Reduction::all().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name(Reduction::all()[info.param].name());
                           for (char& c : name)
                             if (c == '_') c = 'U';
                           return name;
                         });

