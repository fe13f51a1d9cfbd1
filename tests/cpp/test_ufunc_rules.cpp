// NumPy's special ufunc rules as flags of the ufunc table, the loops reduce-like methods resolve,
// and the alias list (no GPU needed).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cuarray/ufunc.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"
#include "ops/ufunc/ufunc_table.hpp"

using namespace cuarray;

namespace {

const ops::UfuncDef& def(const char* name) { return ops::ufunc_defs()[ufunc(name).index()]; }

// The ufuncs carrying `flag`.
std::set<std::string> flagged(ops::UfuncFlags flag) {
  std::set<std::string> names;
  for (const ops::UfuncDef& d : ops::ufunc_defs())
    if (d.has(flag)) names.insert(d.name);
  return names;
}

}  // namespace

TEST(UfuncRules, FlagsSitOnNumPysUfuncs) {
  EXPECT_EQ(flagged(ops::kRejectsNegativeIntegerPower), std::set<std::string>{"power"});
  EXPECT_EQ(flagged(ops::kAccumulatesSmallIntsInInt64), (std::set<std::string>{"add", "multiply"}));
  EXPECT_EQ(flagged(ops::kPairwiseFloatSum), std::set<std::string>{"add"});
  EXPECT_EQ(flagged(ops::kAssociative),
            (std::set<std::string>{"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
                                   "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"}));
  EXPECT_FALSE(def("float_power").has(ops::kRejectsNegativeIntegerPower));  // float loops only
  EXPECT_FALSE(def("subtract").has(ops::kAssociative));
}

TEST(UfuncRules, AtomicsByUfunc) {
  EXPECT_EQ(def("add").atomic, ops::AtomicOp::Add);
  EXPECT_EQ(def("maximum").atomic, ops::AtomicOp::Max);
  EXPECT_EQ(def("fmax").atomic, ops::AtomicOp::Max);
  EXPECT_EQ(def("minimum").atomic, ops::AtomicOp::Min);
  EXPECT_EQ(def("fmin").atomic, ops::AtomicOp::Min);
  EXPECT_EQ(def("bitwise_and").atomic, ops::AtomicOp::And);
  EXPECT_EQ(def("bitwise_or").atomic, ops::AtomicOp::Or);
  EXPECT_EQ(def("bitwise_xor").atomic, ops::AtomicOp::Xor);
  EXPECT_EQ(def("multiply").atomic, ops::AtomicOp::None);
  EXPECT_EQ(def("subtract").atomic, ops::AtomicOp::None);
}

// np.add.reduce(np.zeros(3, in)).dtype and friends.
TEST(UfuncRules, ReduceLikeAccumulatesSmallIntsInInt64) {
  struct Case {
    const char* ufunc;
    DType in, loop;
  };
  const Case cases[] = {
      {"add", DType::Int8, DType::Int64},        {"add", DType::UInt16, DType::UInt64},
      {"add", DType::Bool, DType::Int64},        {"add", DType::Int64, DType::Int64},
      {"add", DType::UInt64, DType::UInt64},     {"add", DType::Float16, DType::Float16},
      {"multiply", DType::Int8, DType::Int64},   {"multiply", DType::UInt16, DType::UInt64},
      {"multiply", DType::Bool, DType::Int64},   {"maximum", DType::Int8, DType::Int8},
      {"maximum", DType::UInt16, DType::UInt16}, {"maximum", DType::Bool, DType::Bool},
      {"logical_or", DType::Int8, DType::Bool},
  };
  for (const Case& c : cases) {
    const ops::ParsedLoop& loop = ops::resolve_reduce_like(ufunc(c.ufunc).index(), c.in, std::nullopt, std::nullopt);
    EXPECT_EQ(loop.types[2], c.loop) << c.ufunc << " of " << dtype_name(c.in);
  }
  // dtype= or out= takes the int64 accumulation away: np.add.reduce(int8, out=int8) adds in int8.
  const int add = ufunc("add").index();
  EXPECT_EQ(ops::resolve_reduce_like(add, DType::Int8, std::nullopt, DType::Int8).types[2], DType::Int8);
  EXPECT_EQ(ops::resolve_reduce_like(add, DType::Int8, DType::Int16, std::nullopt).types[2], DType::Int16);
  EXPECT_EQ(ops::resolve_reduce_like(add, DType::Float32, std::nullopt, DType::Float64).types[2], DType::Float64);
}

TEST(UfuncRules, AliasesNameTableEntries) {
  std::set<std::string> aliases;
  for (const UfuncAlias& a : Ufunc::aliases()) {
    aliases.insert(std::string(a.alias));
    const Ufunc* target = Ufunc::find(a.name);
    ASSERT_NE(target, nullptr) << a.name;
    EXPECT_EQ(Ufunc::find(a.alias), target) << a.alias;
    EXPECT_EQ(target->name(), a.name);
  }
  EXPECT_EQ(aliases, (std::set<std::string>{"true_divide", "mod", "abs", "conj", "bitwise_not", "acos", "acosh",
                                            "asin", "asinh", "atan", "atan2", "atanh", "pow", "bitwise_invert",
                                            "bitwise_left_shift", "bitwise_right_shift"}));
  EXPECT_EQ(ufunc("abs").name(), "absolute");
  EXPECT_EQ(ufunc("pow").name(), "power");
  EXPECT_EQ(ufunc("bitwise_invert").name(), "invert");
  EXPECT_EQ(Ufunc::find("no_such_ufunc"), nullptr);
}
