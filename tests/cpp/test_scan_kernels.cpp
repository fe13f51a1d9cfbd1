// The scan kernels compile with NVRTC for sm_80 and sm_90: every plan (thread per row, warp per
// row, look-back tiles; vector and strided loads) of cumsum for every input dtype, the nan-variants,
// every loop of every associative ufunc as tiles, and every accumulate-able loop of every other
// binary ufunc as the sequential fold. No GPU is needed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "expect_compiles.hpp"
#include "jit/nvrtc.hpp"
#include "ops/engines/scan/scan.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"
#include "ops/ufunc/ufunc_table.hpp"

using namespace cuarray;
using test::expect_compiles;

namespace {


int ufunc_index(std::string_view name) { return static_cast<int>(ops::find_ufunc(name) - ops::ufunc_defs().data()); }

// The loop of `ufunc` whose dtypes are all `t`, as accumulate() resolves it.
const ops::ParsedLoop* uniform_loop(int ufunc, DType t) {
  for (const ops::ParsedLoop& l : ops::parsed_loops(ufunc))
    if (l.types[0] == t && l.types[1] == t && l.types[2] == t) return &l;
  return nullptr;
}

bool accumulates(int ufunc, const ops::ParsedLoop& l) {
  const ops::UfuncDef& def = ops::ufunc_defs()[ufunc];
  return def.nin == 2 && def.nout == 1 && l.types[0] == l.types[2] && l.types[1] == l.types[2];
}

int vec_for(DType in, DType out) { return static_cast<int>(16 / std::max(itemsize(in), itemsize(out))); }

std::string name_of(DType t) { return std::string(dtype_name(t)); }

}  // namespace

// cumsum's add loop for each input dtype (widened as NumPy: int8 -> int64) in every plan.
TEST(ScanCompile, CumsumEveryDTypeEveryPlan) {
  const int add = ufunc_index("add");
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType in = static_cast<DType>(i);
    DType loop_dtype = in;
    if (in == DType::Bool || (is_integer(in) && itemsize(in) < 8))
      loop_dtype = kind(in) == DTypeKind::UnsignedInt ? DType::UInt64 : DType::Int64;
    const ops::ParsedLoop* loop = uniform_loop(add, loop_dtype);
    ASSERT_NE(loop, nullptr) << name_of(loop_dtype);
    const ops::AccumulatePlan p = ops::plan_accumulate(add, *loop, ops::ScanElementMap::Plain);
    const std::string what = "cumsum of " + name_of(in);
    const int vec = vec_for(in, p.loop), items = itemsize(p.acc) > 8 ? 8 : 16;
    using K = ops::ScanPlanKind;
    expect_compiles(ops::scan_source(p.spec, in, p.loop, p.acc, p.loop, 2, {K::Sequential, 1, 1, false}),
                    what + " sequential");
    expect_compiles(ops::scan_source(p.spec, in, p.loop, p.acc, p.loop, 1, {K::WarpRows, vec, items / vec, false}),
                    what + " warp rows");
    expect_compiles(ops::scan_source(p.spec, in, p.loop, p.acc, p.loop, 1, {K::Tiles, vec, std::max(1, items / vec), true}),
                    what + " vector tiles, 64-bit indices");
    expect_compiles(ops::scan_source(p.spec, in, p.loop, p.acc, p.loop, 3, {K::Tiles, 1, items, false}),
                    what + " strided tiles");
  }
}

TEST(ScanCompile, NanVariantsOfInexactDTypes) {
  for (DType t : {DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128}) {
    for (std::string_view u : {"add", "multiply"}) {
      const int index = ufunc_index(u);
      const ops::ParsedLoop* loop = uniform_loop(index, t);
      ASSERT_NE(loop, nullptr);
      const auto map = u == "add" ? ops::ScanElementMap::NanAsZero : ops::ScanElementMap::NanAsOne;
      const ops::AccumulatePlan p = ops::plan_accumulate(index, *loop, map);
      expect_compiles(ops::scan_source(p.spec, t, p.loop, p.acc, t, 1, {ops::ScanPlanKind::Tiles, vec_for(t, t), 2, false}),
                      "nan" + std::string(u) + " of " + name_of(t));
    }
  }
}

// Every accumulate-able loop of every binary ufunc: associative ones as tiles (their parallel
// plan), the others as the sequential fold (their only plan). One test per ufunc, so ctest can
// spread them.
class AccumulateCompile : public ::testing::TestWithParam<int> {};

TEST_P(AccumulateCompile, EveryUniformLoop) {
  const int index = GetParam();
  for (const ops::ParsedLoop& l : ops::parsed_loops(index)) {
    if (!accumulates(index, l)) continue;
    const ops::AccumulatePlan p = ops::plan_accumulate(index, l, ops::ScanElementMap::Plain);
    const DType t = p.loop;
    const std::string what = std::string(ops::ufunc_defs()[index].name) + ".accumulate of " + name_of(t);
    const ops::ScanPlan plan = p.spec.associative
                                   ? ops::ScanPlan{ops::ScanPlanKind::Tiles, 1, itemsize(p.acc) > 8 ? 8 : 16, false}
                                   : ops::ScanPlan{ops::ScanPlanKind::Sequential, 1, 1, false};
    expect_compiles(ops::scan_source(p.spec, t, t, p.acc, t, 2, plan), what);
  }
}

// The public ufuncs with at least one loop accumulate() can use (ldexp has none).
std::vector<int> accumulating_ufuncs() {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(ops::ufunc_defs().size()); ++i) {
    if (ops::ufunc_defs()[i].name[0] == '_') continue;
    for (const ops::ParsedLoop& l : ops::parsed_loops(i)) {
      if (accumulates(i, l)) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(BinaryUfuncs, AccumulateCompile, ::testing::ValuesIn(accumulating_ufuncs()),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name = ops::ufunc_defs()[info.param].name;
                           for (char& c : name)
                             if (c == '_') c = 'U';
                           return name;
                         });

TEST(ScanSource, NamesThePlanAndTypes) {
  const int add = ufunc_index("add");
  const ops::AccumulatePlan p = ops::plan_accumulate(add, *uniform_loop(add, DType::Float16), ops::ScanElementMap::Plain);
  EXPECT_EQ(p.acc, DType::Float32);  // parallel float16 scans combine in float32
  const std::string s = ops::scan_source(p.spec, DType::Float16, p.loop, p.acc, DType::Float16, 1,
                                         {ops::ScanPlanKind::Tiles, 8, 2, false});
  EXPECT_NE(s.find("typedef float acc_t;"), std::string::npos);
  EXPECT_NE(s.find("cuarray::scan_tiles<ScanOps, 8, 2, true, 1>"), std::string::npos);
  const int subtract = ufunc_index("subtract");
  const ops::AccumulatePlan q =
      ops::plan_accumulate(subtract, *uniform_loop(subtract, DType::Float16), ops::ScanElementMap::Plain);
  EXPECT_FALSE(q.spec.associative);
  EXPECT_EQ(q.acc, DType::Float16);  // the fold rounds every step as NumPy's loop
}

// The host plan (no GPU): the shapes whose mixed dtypes (bool -> int64, float16 combined in
// float32) raised "scan too large" on the GPU plan as one row of a few tiles at most.
namespace {
ops::ScanGeometry contiguous(Shape shape, int axis, DType in, DType out) {
  ops::ScanGeometry g;
  g.shape = shape;
  g.in_strides = c_strides(shape, itemsize(in));
  g.out_strides = c_strides(shape, itemsize(out));
  g.axis = axis;
  g.in_itemsize = itemsize(in);
  g.out_itemsize = itemsize(out);
  g.in_addr = 0x7f0000000000;
  g.out_addr = 0x7f0000100000;
  g.in_span = shape_size(shape) * itemsize(in);
  g.out_span = shape_size(shape) * itemsize(out);
  return g;
}
}  // namespace

TEST(ScanPlanHost, MixedDTypesPlanSmallScans) {
  using K = ops::ScanPlanKind;
  // cumsum of 37 bools: int64 accumulator and output; a warp per row, vectors of 2.
  ops::ScanLayout l = ops::plan_scan(contiguous(Shape{37}, 0, DType::Bool, DType::Int64), DType::Int64, true, 132);
  EXPECT_EQ(l.plan.kind, K::WarpRows);
  EXPECT_EQ(l.n, 37);
  EXPECT_EQ(l.nrows, 1);
  EXPECT_EQ(l.tiles_per_row, 1);
  EXPECT_EQ(l.plan.vec, 2);
  EXPECT_EQ(l.plan.chunks, 8);
  EXPECT_FALSE(l.plan.index64);
  // maximum.accumulate of float16 combining in float32.
  l = ops::plan_scan(contiguous(Shape{23}, 0, DType::Float16, DType::Float16), DType::Float32, true, 132);
  EXPECT_EQ(l.plan.kind, K::WarpRows);
  EXPECT_EQ(l.plan.vec, 8);
  EXPECT_EQ(l.plan.chunks, 2);
  EXPECT_EQ(l.nrows * l.tiles_per_row, 1);
  // A long float16 row: tiles.
  l = ops::plan_scan(contiguous(Shape{100000}, 0, DType::Float16, DType::Float16), DType::Float32, true, 132);
  EXPECT_EQ(l.plan.kind, K::Tiles);
  EXPECT_EQ(l.tiles_per_row, (100000 + 4095) / 4096);
  // 6x7 along each axis, bool -> int64 and float16/float32.
  for (DType in : {DType::Bool, DType::Float16}) {
    const DType out = in == DType::Bool ? DType::Int64 : DType::Float16;
    const DType acc = in == DType::Bool ? DType::Int64 : DType::Float32;
    for (int axis : {0, 1}) {
      l = ops::plan_scan(contiguous(Shape{6, 7}, axis, in, out), acc, true, 132);
      EXPECT_EQ(l.plan.kind, K::Sequential) << axis;  // rows of 6 or 7 <= 16 elements
      EXPECT_EQ(l.n, axis == 0 ? 6 : 7);
      EXPECT_EQ(l.nrows, axis == 0 ? 7 : 6);
      EXPECT_EQ(l.sin, axis == 0 ? 7 * itemsize(in) : itemsize(in));
      EXPECT_EQ(l.sout, axis == 0 ? 7 * itemsize(out) : itemsize(out));
    }
  }
  // Outer axis of a tall array: strided tiles, and a 37-long outer scan of 6 rows.
  l = ops::plan_scan(contiguous(Shape{37, 6}, 0, DType::Bool, DType::Int64), DType::Int64, true, 132);
  EXPECT_EQ(l.plan.kind, K::Tiles);
  EXPECT_EQ(l.nrows, 6);
  EXPECT_EQ(l.tiles_per_row, 1);
  // Non-associative: always the fold.
  l = ops::plan_scan(contiguous(Shape{37}, 0, DType::Float16, DType::Float16), DType::Float16, false, 132);
  EXPECT_EQ(l.plan.kind, K::Sequential);
}
