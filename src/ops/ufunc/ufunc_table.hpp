// The ufunc definitions as data (NumPy's generate_umath.py style): names, loops, expressions.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

namespace cuarray::ops {

// How NumPy picks the loop for a call (see numpy/_core/code_generators/generate_umath.py typeresolver).
enum class TypeResolver : uint8_t {
  Linear,        // PyUFunc_DefaultTypeResolver: first loop whose inputs the operands cast to safely
  Uniform,       // PyUFunc_SimpleUniformOperationTypeResolver: all operands take result_type(inputs)
  UniformNoBool, // subtract/negative: Uniform, but bool inputs raise TypeError (NumPy's message)
  TrueDivide,    // integer/bool inputs use the float64 loop, else Uniform
  Comparison,    // PyUFunc_SimpleBinaryComparisonTypeResolver
  Absolute,      // PyUFunc_AbsoluteTypeResolver
  Logical,       // logical_and/or/xor/not: NumPy 2 promotes every numeric input to the bool loop
};
// NumPy's special rules, as flags on the ufunc's row (CuPy's model): the engines test a flag,
// never a name.
enum UfuncFlags : uint8_t {
  kNoFlags = 0,
  // An integer loop with a negative Python int exponent raises ValueError (NumPy's power).
  kRejectsNegativeIntegerPower = 1u << 0,
  // reduce/accumulate/reduceat of bool and integers narrower than 64 bits accumulate in int64
  // (unsigned: uint64) unless dtype= or out= is given (NumPy's add and multiply).
  kAccumulatesSmallIntsInInt64 = 1u << 1,
  // The loops are associative: a parallel scan gives NumPy's values (exactly for integers, bools
  // and selections; up to rounding order for float sums and products).
  kAssociative = 1u << 2,
  // reduceat of a float loop sums pairwise, as NumPy's add does (numpy/_core/src/umath/loops_utils.h.src).
  kPairwiseFloatSum = 1u << 3,
};

// The hardware atomic that makes one update of ufunc.at / bincount (the scatter-combine engine
// decides per dtype whether the device has it; docs/histograms.md).
enum class AtomicOp : uint8_t { None, Add, Max, Min, And, Or, Xor };

struct UfuncLoopDef {
  const char* types;  // "ff->f"
  const char* expr;   // nullptr: the ufunc's default expression
};
struct UfuncDef {
  const char* name;   // NumPy's name, e.g. "add"; internal helpers start with '_'
  uint8_t nin, nout;
  TypeResolver resolver;
  const char* expr;   // default body over in0.., out0.. e.g. "out0 = in0 + in1;"
  std::span<const UfuncLoopDef> loops;  // NumPy's loop order (it matters for Linear)
  const char* doc;    // one line
  uint8_t flags = kNoFlags;             // UfuncFlags
  AtomicOp atomic = AtomicOp::None;

  bool has(UfuncFlags f) const { return (flags & f) != 0; }
};
std::span<const UfuncDef> ufunc_defs();
const UfuncDef* find_ufunc(std::string_view name);

}  // namespace cuarray::ops
