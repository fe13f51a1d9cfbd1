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
};
std::span<const UfuncDef> ufunc_defs();
const UfuncDef* find_ufunc(std::string_view name);

}  // namespace cuarray::ops
