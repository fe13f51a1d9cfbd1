// The reductions' rules as data: Reduction handles, the table's consistency, each row's result and
// compute dtypes (and what out= changes, as NumPy's np.<ufunc>.resolve_dtypes(..., reduction=True)
// resolves), and NumPy's checks of out= and where= with NumPy 2's messages: no GPU needed. On a
// GPU, reduce() itself: out=, initial= and where= with NumPy's results and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "gpu_test.hpp"
#include "ops/math/reduction_operands.hpp"
#include "ops/math/reductions.hpp"
#include "ops/ufunc/ufunc_table.hpp"

using namespace cuarray;
using ops::Empty;

namespace {

const Reduction& R(const char* name) {
  const Reduction* r = Reduction::find(name);
  EXPECT_NE(r, nullptr) << name;
  return *r;
}

ops::ReductionKernelPlan plan(const char* name, DType in, std::optional<DType> dtype = std::nullopt,
                              std::optional<DType> out = std::nullopt) {
  return ops::plan_reduction(R(name), in, dtype, out);
}

// The message of the ValueError check_reduction_operands throws ("" when it passes).
std::string operands_error(const Shape& in, std::initializer_list<int> reduced, bool keepdims,
                           std::optional<Shape> out, std::optional<Shape> where = std::nullopt) {
  try {
    ops::check_reduction_operands("add", in, std::span<const int>(reduced.begin(), reduced.size()), keepdims,
                                  out ? &*out : nullptr, where ? &*where : nullptr);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Value);
    return e.what();
  }
  return "";
}

const ops::ReductionDef& row(const char* name) { return ops::reduction_defs()[R(name).index()]; }

}  // namespace

TEST(ReductionRules, FindByNameAndAlias) {
  for (const char* name : {"sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all",
                           "count_nonzero", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
                           "nanargmin", "nanargmax", "_norm"})
    EXPECT_EQ(R(name).name(), name);
  EXPECT_EQ(Reduction::find("amin"), Reduction::find("min"));
  EXPECT_EQ(Reduction::find("amax"), Reduction::find("max"));
  EXPECT_EQ(Reduction::find("cumsum"), nullptr);
  EXPECT_EQ(Reduction::find(""), nullptr);
  EXPECT_EQ(&Reduction::all()[R("nanmax").index()], &R("nanmax"));
  EXPECT_TRUE(R("argmax").single_axis());
  EXPECT_TRUE(R("nanargmin").single_axis());
  EXPECT_FALSE(R("max").single_axis());
}

TEST(ReductionRules, ColumnsOfTheRows) {
  struct Case {
    const char* name;
    const char* ufunc;  // the ufunc NumPy reduces with (names the errors, folds initial=)
    bool folds_initial;
  };
  const Case cases[] = {{"sum", "add", true},          {"nansum", "add", true},       {"prod", "multiply", true},
                        {"nanprod", "multiply", true}, {"min", "minimum", true},      {"max", "maximum", true},
                        {"nanmin", "fmin", true},      {"nanmax", "fmax", true},      {"mean", "add", false},
                        {"var", "add", false},         {"std", "add", false},         {"nanmean", "add", false},
                        {"any", "logical_or", false},  {"all", "logical_and", false}, {"argmin", nullptr, false},
                        {"count_nonzero", nullptr, false}};
  for (const Case& c : cases) {
    const ops::ReductionDef& def = ops::reduction_defs()[R(c.name).index()];
    EXPECT_EQ(def.ufunc ? std::string(def.ufunc) : "", c.ufunc ? std::string(c.ufunc) : "") << c.name;
    EXPECT_EQ(def.has(ops::kFoldsInitial), c.folds_initial) << c.name;
  }
  const auto links = [](const char* name) { return ops::reduction_links(ops::reduction_defs()[R(name).index()]); };
  EXPECT_EQ(links("nanargmax").plain->name, "argmax");
  EXPECT_EQ(links("nanvar").plain->name, "var");
  EXPECT_EQ(links("mean").masked->name, "_masked_mean");
  EXPECT_EQ(links("sum").masked, nullptr);
  EXPECT_GE(links("std").then, 0);      // sqrt
  EXPECT_GE(links("nanstd").then, 0);
  EXPECT_EQ(links("var").then, -1);
}

// What reduce() relies on without looking: every reference resolves, and the columns agree with
// each other (a rule that needs a ufunc has one; a nan-form and the row it runs for exact dtypes
// agree on the result, the empty case, initial= and the ufunc after, so only the kernel differs).
TEST(ReductionRules, TableIsConsistent) {
  const auto defs = ops::reduction_defs();
  ASSERT_EQ(Reduction::all().size(), defs.size());
  std::set<std::string_view> names;
  for (size_t i = 0; i < defs.size(); ++i) {
    const ops::ReductionDef& d = defs[i];
    const ops::ReductionLinks& links = ops::reduction_links(d);
    const std::string what(d.name);
    EXPECT_TRUE(names.insert(d.name).second) << what << " twice";
    EXPECT_EQ(Reduction::all()[i].index(), static_cast<int>(i));
    EXPECT_EQ(Reduction::find(d.name), &Reduction::all()[i]) << what;
    EXPECT_EQ(links.ufunc >= 0, d.ufunc != nullptr) << what << ": unknown ufunc";
    if (d.ufunc) EXPECT_EQ(ops::ufunc_defs()[links.ufunc].name, std::string_view(d.ufunc)) << what;
    EXPECT_EQ(links.plain != nullptr, d.refs.plain != nullptr) << what << ": unknown plain row";
    EXPECT_EQ(links.masked != nullptr, d.refs.masked != nullptr) << what << ": unknown masked row";
    EXPECT_EQ(links.then >= 0, d.refs.then != nullptr) << what << ": unknown ufunc after";
    if (d.has(ops::kFoldsInitial) || d.empty == Empty::NoIdentity) EXPECT_NE(d.ufunc, nullptr) << what;
    // The arg reductions: one axis, NumPy's "attempt to get argmin of an empty sequence".
    EXPECT_EQ(d.has(ops::kOrdered), d.empty == Empty::ArgError) << what;
    if (d.has(ops::kOrdered)) EXPECT_EQ(d.ufunc, nullptr) << what;
    if (d.has(ops::kAllNanError) || d.has(ops::kInexactOnly)) EXPECT_NE(links.plain, nullptr) << what;
    if (links.plain) {
      EXPECT_EQ(links.plain->result, d.result) << what;
      EXPECT_EQ(links.plain->empty, d.empty) << what;
      EXPECT_EQ(links.plain->has(ops::kFoldsInitial), d.has(ops::kFoldsInitial)) << what;
      EXPECT_EQ(links.plain->refs.then == nullptr, d.refs.then == nullptr) << what;
      EXPECT_EQ(links.plain->refs.plain, nullptr) << what << ": a plain row is not a nan-form";
    }
    if (links.masked) EXPECT_EQ(links.masked->result, d.result) << what;
  }
}

// Empty min/max and min/max under where= without initial= name the ufunc of their row (NumPy's
// messages), which the row holds: no name test picks "minimum" or "maximum".
TEST(ReductionRules, ReductionsWithoutIdentityNameTheirUfunc) {
  std::set<std::pair<std::string, std::string>> no_identity;
  for (const ops::ReductionDef& d : ops::reduction_defs())
    if (d.empty == Empty::NoIdentity) no_identity.emplace(d.name, d.ufunc);
  EXPECT_EQ(no_identity, (std::set<std::pair<std::string, std::string>>{
                             {"min", "minimum"}, {"max", "maximum"}, {"nanmin", "fmin"}, {"nanmax", "fmax"}}));
  EXPECT_EQ(row("argmin").empty, Empty::ArgError);
  EXPECT_EQ(row("sum").empty, Empty::Identity);
}

TEST(ReductionRules, ResultAndComputeDTypes) {
  struct Case {
    const char* name;
    DType in, out, compute;
  };
  using D = DType;
  const Case cases[] = {
      {"sum", D::Int8, D::Int64, D::Int64},             {"sum", D::UInt16, D::UInt64, D::UInt64},
      {"sum", D::Bool, D::Int64, D::Int64},             {"sum", D::Float16, D::Float16, D::Float32},
      {"sum", D::Complex64, D::Complex64, D::Complex64}, {"prod", D::Float32, D::Float32, D::Float64},
      {"prod", D::Complex64, D::Complex64, D::Complex128}, {"prod", D::Int8, D::Int64, D::Int64},
      {"mean", D::Int16, D::Float64, D::Float64},       {"mean", D::Float16, D::Float16, D::Float32},
      {"mean", D::Bool, D::Float64, D::Float64},        {"var", D::Complex64, D::Float32, D::Complex64},
      {"var", D::Int8, D::Float64, D::Float64},         {"std", D::Float16, D::Float16, D::Float32},
      {"min", D::Int8, D::Int8, D::Int8},               {"max", D::Float16, D::Float16, D::Float32},
      {"argmax", D::Float32, D::Int64, D::Float32},     {"any", D::Float64, D::Bool, D::Float64},
      {"count_nonzero", D::Float32, D::Int64, D::Int64}, {"nanprod", D::Float32, D::Float32, D::Float64},
      {"nanmean", D::Int32, D::Float64, D::Float64},    {"nanvar", D::Complex128, D::Float64, D::Complex128},
      {"_norm", D::Complex64, D::Float32, D::Complex64},
  };
  for (const Case& c : cases) {
    const ops::ReductionKernelPlan p = plan(c.name, c.in);
    EXPECT_EQ(p.out, c.out) << c.name << " of " << dtype_name(c.in);
    EXPECT_EQ(p.compute, c.compute) << c.name << " of " << dtype_name(c.in);
  }
  // dtype= is the result dtype and (widened for products and float16) the compute dtype.
  EXPECT_EQ(plan("sum", DType::Int8, DType::Int16).out, DType::Int16);
  EXPECT_EQ(plan("sum", DType::Int8, DType::Int16).compute, DType::Int16);
  EXPECT_EQ(plan("prod", DType::Int8, DType::Float32).compute, DType::Float64);
  EXPECT_EQ(plan("var", DType::Complex64, DType::Complex128).compute, DType::Complex128);
}

TEST(ReductionRules, NanFormsOfExactDTypesRunThePlainRow) {
  EXPECT_EQ(plan("nansum", DType::Int8).def->name, "sum");
  EXPECT_EQ(plan("nanmean", DType::Int32).def->name, "mean");
  EXPECT_EQ(plan("nanargmin", DType::Bool).def->name, "argmin");
  EXPECT_EQ(plan("nanmean", DType::Float32).def->name, "nanmean");
  EXPECT_EQ(plan("nanmax", DType::Complex64).def->name, "nanmax");
  EXPECT_EQ(plan("sum", DType::Int8).def->name, "sum");
}

// np.<ufunc>.resolve_dtypes((out, in, None), reduction=True): the loop out= gives.
TEST(ReductionRules, OutChoosesTheLoopAsNumPy) {
  using D = DType;
  EXPECT_EQ(plan("sum", D::Float32, std::nullopt, D::Float64).compute, D::Float64);   // adds in float64
  EXPECT_EQ(plan("sum", D::Int8, std::nullopt, D::Int8).out, D::Int8);               // no int64 accumulation
  EXPECT_EQ(plan("sum", D::UInt8, std::nullopt, D::Bool).out, D::UInt8);             // [128, 128] sums to False
  EXPECT_EQ(plan("sum", D::Float32, std::nullopt, D::Float16).out, D::Float32);
  EXPECT_EQ(plan("prod", D::Int8, std::nullopt, D::Float64).out, D::Float64);        // multiplies in float64
  EXPECT_EQ(plan("nansum", D::Int64, std::nullopt, D::Float32).out, D::Float64);
  EXPECT_EQ(plan("max", D::UInt64, std::nullopt, D::Int64).out, D::Float64);
  EXPECT_EQ(plan("nanmin", D::Int8, std::nullopt, D::Int16).out, D::Int16);
  EXPECT_EQ(plan("any", D::Float32, std::nullopt, D::Int32).out, D::Bool);           // the logical loop is bool
  EXPECT_EQ(plan("argmax", D::Float32, std::nullopt, D::Int8).out, D::Int64);
  // mean and var sum into out= unless NumPy passes dtype= itself (integers; float16 means).
  EXPECT_EQ(plan("mean", D::Float32, std::nullopt, D::Float64).compute, D::Float64);
  EXPECT_EQ(plan("mean", D::Float32, std::nullopt, D::Int32).compute, D::Float64);
  EXPECT_EQ(plan("mean", D::Complex64, std::nullopt, D::Complex128).compute, D::Complex128);
  EXPECT_EQ(plan("mean", D::Int16, std::nullopt, D::Float32).compute, D::Float64);
  EXPECT_EQ(plan("mean", D::Float16, std::nullopt, D::Float64).compute, D::Float32);
  EXPECT_EQ(plan("var", D::Complex64, std::nullopt, D::Float64).compute, D::Complex128);
  EXPECT_EQ(plan("std", D::Float32, std::nullopt, D::Float64).compute, D::Float64);
  EXPECT_EQ(plan("var", D::Float16, std::nullopt, D::Float16).compute, D::Float32);
  EXPECT_EQ(plan("var", D::Int8, std::nullopt, D::Complex128).compute, D::Float64);
  // dtype= wins over out=.
  EXPECT_EQ(plan("sum", D::Float32, D::Float32, D::Float64).compute, D::Float32);
}

// The messages NumPy 2 gives for np.add.reduce(np.ones(in), axis, keepdims=..., out=np.empty(out), where=...).
TEST(ReductionRules, OperandChecksMatchNumPy) {
  EXPECT_EQ(operands_error({3, 4}, {0}, false, Shape{4}), "");
  EXPECT_EQ(operands_error({3, 4}, {0}, true, Shape{1, 4}), "");
  EXPECT_EQ(operands_error({3, 4}, {0, 1}, false, Shape{}), "");
  EXPECT_EQ(operands_error({3, 4}, {}, false, Shape{3, 4}), "");
  EXPECT_EQ(operands_error({}, {}, false, Shape{}), "");
  EXPECT_EQ(operands_error({3, 4}, {1}, false, std::nullopt, Shape{4}), "");
  EXPECT_EQ(operands_error({3, 4}, {1}, false, Shape{3}, Shape{3, 1}), "");
  EXPECT_EQ(operands_error({3, 4}, {0}, false, Shape{5}),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (5,)->(5) (3,4) ");
  EXPECT_EQ(operands_error({3, 4}, {1}, false, Shape{4}),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (4,)->(4,newaxis) "
            "(3,4) ");
  EXPECT_EQ(operands_error({2, 3, 4}, {1}, false, Shape{2, 5}),
            "operands could not be broadcast together with remapped shapes [original->remapped]: "
            "(2,5)->(2,newaxis,5) (2,3,4) ");
  EXPECT_EQ(operands_error({3, 4}, {0}, true, Shape{1, 5}),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (1,5)->(1,5) (3,4) ");
  EXPECT_EQ(operands_error({3, 4}, {1}, false, Shape{5}, Shape{2, 1, 4}),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (5,)->(5,newaxis) "
            "(3,4) (2,1,4) ");
  EXPECT_EQ(operands_error({3, 4}, {0}, false, std::nullopt, Shape{2}),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,4) (2,) ");
  EXPECT_EQ(operands_error({3, 4}, {0}, false, Shape{1, 4}),
            "output parameter for reduction operation add has the wrong number of dimensions: Found 2 but expected 1");
  EXPECT_EQ(operands_error({3, 4}, {0}, true, Shape{4}),
            "output parameter for reduction operation add has the wrong number of dimensions: Found 1 but expected 2 "
            "(must match the operand's when keepdims=True)");
  EXPECT_EQ(operands_error({}, {}, false, Shape{3}),
            "output parameter for reduction operation add has the wrong number of dimensions: Found 1 but expected 0");
  EXPECT_EQ(operands_error({3, 4}, {1}, false, Shape{1}),
            "output operand requires a reduction along dimension 0, but the reduction is not enabled. The dimension "
            "size of 1 does not match the expected output shape.");
  EXPECT_EQ(operands_error({3, 4}, {0}, true, Shape{1, 1}),
            "output operand requires a reduction along dimension 1, but the reduction is not enabled. The dimension "
            "size of 1 does not match the expected output shape.");
  EXPECT_EQ(operands_error({3, 4}, {0}, true, Shape{3, 4}),
            "operand was set up as a reduction along axis 0, but the length of the axis is 3 (it has to be 1)");
  EXPECT_EQ(operands_error({3, 1}, {0}, false, Shape{5}),
            "non-broadcastable operand with shape (3,1) doesn't match the broadcast shape (3,5)");
  EXPECT_EQ(operands_error({3, 4}, {1}, false, Shape{3}, Shape{2, 1, 4}),
            "input operand has more dimensions than allowed by the axis remapping");
}

// ---- reduce() on a GPU ----

namespace {

template <class T>
NDArray device(const std::vector<T>& host, const Shape& shape, DType dtype) {
  return from_host(host.data(), shape, dtype);
}
NDArray device_bools(const std::vector<uint8_t>& host, const Shape& shape) {
  return from_host(host.data(), shape, DType::Bool);
}
template <class T>
std::vector<T> host(const NDArray& a) {
  std::vector<T> h(static_cast<size_t>(a.size()));
  a.copy_to_host(h.data());
  return h;
}

// The message of the cuarray::Error `call` throws, checking its kind ("" when none is thrown).
template <class F>
std::string error_of(ErrorKind kind, F&& call) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

const int64_t kAxis0[] = {0};
const int64_t kAxis1[] = {1};
const int64_t kBothAxes[] = {0, 1};

}  // namespace

// out= is written (directly, cast to its dtype, or through a view) and returned; keepdims needs
// out's dims kept.
TEST(ReductionGpu, OutIsWrittenAndReturned) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = device<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3}, DType::Float64);
  NDArray out = empty(Shape{3}, DType::Float64);
  NDArray got = reduce(R("sum"), a, kAxis0, std::nullopt, false, 0, {.out = &out});
  EXPECT_TRUE(same_view(got, out));
  EXPECT_EQ(host<double>(out), (std::vector<double>{5, 7, 9}));

  NDArray kept = empty(Shape{2, 1}, DType::Float32);
  got = reduce(R("max"), a, kAxis1, std::nullopt, true, 0, {.out = &kept});
  EXPECT_TRUE(same_view(got, kept));
  EXPECT_EQ(host<float>(kept), (std::vector<float>{3, 6}));

  NDArray small = empty(Shape{3}, DType::Int8);  // cast unsafely, as NumPy
  reduce(R("mean"), a, kAxis0, std::nullopt, false, 0, {.out = &small});
  EXPECT_EQ(host<int8_t>(small), (std::vector<int8_t>{2, 3, 4}));

  NDArray base = zeros(Shape{6}, DType::Int64);
  NDArray every_other = base.slice(0, 1, 6, 2);
  reduce(R("argmax"), a, kAxis0, std::nullopt, false, 0, {.out = &every_other});
  EXPECT_EQ(host<int64_t>(base), (std::vector<int64_t>{0, 1, 0, 1, 0, 1}));

  // out= overlapping the input: the result goes through a temporary.
  NDArray row = a.index(0, 0);
  reduce(R("sum"), a, kAxis0, std::nullopt, false, 0, {.out = &row});
  EXPECT_EQ(host<double>(a), (std::vector<double>{5, 7, 9, 4, 5, 6}));
}

// One check of out= per kind of reduction, with NumPy's message: the ufunc reductions' iterator
// errors, the arg reductions' own, and the casting rules of argmax (safe) and std (sqrt's).
TEST(ReductionGpu, OutErrorsAreNumPys) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = device<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3}, DType::Float64);
  NDArray two = empty(Shape{2}, DType::Float64);
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("sum"), a, kAxis0, std::nullopt, false, 0, {.out = &two}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,)->(2) (2,3) ");
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("std"), a, kAxis0, std::nullopt, false, 0, {.out = &two}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,)->(2) (2,3) ");
  NDArray scalar = empty(Shape{}, DType::Float64);
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("prod"), a, kAxis0, std::nullopt, true, 0, {.out = &scalar}); }),
            "output parameter for reduction operation multiply has the wrong number of dimensions: Found 0 but "
            "expected 2 (must match the operand's when keepdims=True)");
  NDArray indices = empty(Shape{2}, DType::Int64);
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("nanargmax"), a, kAxis0, std::nullopt, false, 0, {.out = &indices}); }),
            "output array does not match result of np.argmax.");
  NDArray narrow = empty(Shape{3}, DType::Int8);  // int64 indices into int8: NumPy casts them
  reduce(R("argmin"), a, kAxis0, std::nullopt, false, 0, {.out = &narrow});
  EXPECT_EQ(host<int8_t>(narrow), (std::vector<int8_t>{0, 0, 0}));
  NDArray unsigned_out = empty(Shape{3}, DType::UInt64);
  EXPECT_EQ(error_of(ErrorKind::Type,
                     [&] { reduce(R("argmin"), a, kAxis0, std::nullopt, false, 0, {.out = &unsigned_out}); }),
            "Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
  NDArray ints = empty(Shape{3}, DType::Int64);
  EXPECT_EQ(error_of(ErrorKind::Type, [&] { reduce(R("std"), a, kAxis0, std::nullopt, false, 0, {.out = &ints}); }),
            "Cannot cast ufunc 'sqrt' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'");
  EXPECT_EQ(error_of(ErrorKind::Type, [&] { reduce(R("nanmean"), a, kAxis0, std::nullopt, false, 0, {.out = &ints}); }),
            "If a is inexact, then out must be inexact");
}

// initial= is folded in with the row's ufunc after NumPy's conversion of the value to the loop's
// dtype, and only the reductions NumPy gives it take it.
TEST(ReductionGpu, InitialIsFoldedInCpp) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray small = device<int8_t>({1, -2, 3}, Shape{3}, DType::Int8);
  EXPECT_EQ(host<int64_t>(reduce(R("sum"), small, std::nullopt, std::nullopt, false, 0,
                                 {.initial = Scalar::from_double(1.5)})),
            std::vector<int64_t>{3});  // 1.5 truncates to the int64 loop's 1
  EXPECT_EQ(host<int8_t>(reduce(R("max"), small, std::nullopt, std::nullopt, false, 0,
                                {.initial = Scalar::from_int(5)})),
            std::vector<int8_t>{5});
  EXPECT_EQ(error_of(ErrorKind::Overflow, [&] {
              reduce(R("max"), small, std::nullopt, std::nullopt, false, 0, {.initial = Scalar::from_int(300)});
            }),
            "Python integer 300 out of bounds for int8");
  // An empty min/max gives initial; nanmin of integers folds with fmin like the float forms.
  const NDArray none = empty(Shape{0, 2}, DType::Float32);
  EXPECT_EQ(host<float>(reduce(R("nanmin"), none, kAxis0, std::nullopt, false, 0, {.initial = Scalar::from_double(4)})),
            (std::vector<float>{4, 4}));
  EXPECT_EQ(host<int8_t>(reduce(R("nanmin"), small, std::nullopt, std::nullopt, false, 0,
                                {.initial = Scalar::from_int(-7)})),
            std::vector<int8_t>{-7});
  // With out=: folded in the loop's dtype, then cast into out.
  const NDArray x = device<double>({0.25, 0.25, 0.5}, Shape{3}, DType::Float64);
  NDArray out = empty(Shape{}, DType::Int16);
  reduce(R("sum"), x, std::nullopt, std::nullopt, false, 0, {.initial = Scalar::from_int(2), .out = &out});
  EXPECT_EQ(host<int16_t>(out), std::vector<int16_t>{3});
  EXPECT_EQ(error_of(ErrorKind::Type, [&] {
              reduce(R("mean"), x, std::nullopt, std::nullopt, false, 0, {.initial = Scalar::from_int(1)});
            }),
            "mean() got an unexpected keyword argument 'initial'");
  error_of(ErrorKind::Type, [&] {  // complex into a real loop, as NumPy
    reduce(R("sum"), x, std::nullopt, std::nullopt, false, 0, {.initial = Scalar::from_complex({1, 1})});
  });
}

// where= masks elements out; min/max need initial= with it and name their ufunc when they have
// none, as do empty reductions; the arg reductions take no mask.
TEST(ReductionGpu, WhereAndEmptyRules) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = device<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3}, DType::Float64);
  const NDArray mask = device_bools({1, 0, 1}, Shape{3});
  EXPECT_EQ(host<double>(reduce(R("mean"), a, kAxis1, std::nullopt, false, 0, {.where = &mask})),
            (std::vector<double>{2, 5}));
  EXPECT_EQ(host<double>(reduce(R("max"), a, kBothAxes, std::nullopt, false, 0,
                                {.where = &mask, .initial = Scalar::from_int(0)})),
            std::vector<double>{6});
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("min"), a, kAxis1, std::nullopt, false, 0, {.where = &mask}); }),
            "reduction operation 'minimum' does not have an identity, so to use a where mask one has to specify "
            "'initial'");
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("nanmax"), a, kAxis1, std::nullopt, false, 0, {.where = &mask}); }),
            "reduction operation 'fmax' does not have an identity, so to use a where mask one has to specify "
            "'initial'");
  EXPECT_EQ(error_of(ErrorKind::Type, [&] { reduce(R("argmin"), a, kAxis1, std::nullopt, false, 0, {.where = &mask}); }),
            "argmin() got an unexpected keyword argument 'where'");
  const NDArray numbers = device<int64_t>({1, 0, 1}, Shape{3}, DType::Int64);
  EXPECT_EQ(error_of(ErrorKind::Type, [&] { reduce(R("sum"), a, kAxis1, std::nullopt, false, 0, {.where = &numbers}); }),
            "Cannot cast array data from dtype('int64') to dtype('bool') according to the rule 'safe'");

  const NDArray none = empty(Shape{2, 0}, DType::Float64);
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("max"), none, kAxis1); }),
            "zero-size array to reduction operation maximum which has no identity");
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("nanmin"), none, kAxis1); }),
            "zero-size array to reduction operation fmin which has no identity");
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("nanargmin"), none, kAxis1); }),
            "attempt to get argmin of an empty sequence");
  EXPECT_EQ(host<double>(reduce(R("sum"), none, kAxis1)), (std::vector<double>{0, 0}));

  const NDArray nans = device<double>({NAN, 1, 2, NAN}, Shape{2, 2}, DType::Float64);
  EXPECT_EQ(host<int64_t>(reduce(R("nanargmin"), nans, kAxis0)), (std::vector<int64_t>{1, 0}));
  const NDArray all_nan_row = device<double>({NAN, NAN, 1, 2}, Shape{2, 2}, DType::Float64);
  EXPECT_EQ(error_of(ErrorKind::Value, [&] { reduce(R("nanargmax"), all_nan_row, kAxis1); }),
            "All-NaN slice encountered");
}
