#include "ops/ufunc/ufunc_resolve.hpp"

#include <mutex>
#include <string>
#include <vector>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"

namespace cuarray::ops {
namespace {

std::vector<std::vector<ParsedLoop>> parse_all() {
  std::vector<std::vector<ParsedLoop>> all;
  for (const UfuncDef& def : ufunc_defs()) {
    std::vector<ParsedLoop> loops;
    for (const UfuncLoopDef& l : def.loops) {
      ParsedLoop p{};
      int k = 0;
      for (const char* c = l.types; *c; ++c) {
        if (*c == '-' || *c == '>') continue;
        p.types[k++] = *dtype_from_char(*c);
      }
      p.expr = l.expr ? l.expr : def.expr;
      loops.push_back(p);
    }
    all.push_back(std::move(loops));
  }
  return all;
}

[[noreturn]] void no_loop(const UfuncDef& def, std::span<const DType> dtypes) {
  std::string types = "(";
  for (size_t i = 0; i < dtypes.size(); ++i) types += (i ? ", " : "") + dtype_repr(dtypes[i]);
  types += dtypes.size() == 1 ? ",)" : ")";
  throw_error(ErrorKind::Type, "ufunc '" + std::string(def.name) + "' did not contain a loop with signature matching types " +
                                   types + " -> None");
}

// NEP 50: the dtype a weak Python scalar takes next to the strong operands' common dtype.
DType weak_dtype(Scalar::Kind kind, std::optional<DType> strong) {
  using K = Scalar::Kind;
  if (!strong) {
    switch (kind) {
      case K::Bool: return DType::Bool;
      case K::Int: return DType::Int64;
      case K::Float: return DType::Float64;
      case K::Complex: return DType::Complex128;
    }
  }
  DType s = *strong;
  switch (kind) {
    case K::Bool: return s;
    case K::Int: return s == DType::Bool ? DType::Int64 : s;
    case K::Float: return is_inexact(s) ? s : DType::Float64;
    case K::Complex:
      if (is_complex(s)) return s;
      return (s == DType::Float16 || s == DType::Float32) ? DType::Complex64 : DType::Complex128;
  }
  return s;
}

// Each input's dtype for resolution: strong ones as they are, weak ones per weak_dtype against
// the common dtype of everything (NumPy's "common DType" including the abstract Python types).
void assign_operand_dtypes(std::span<const OperandType> inputs, DType* out) {
  std::optional<DType> strong;
  for (const OperandType& t : inputs)
    if (!t.weak || t.weak_kind == Scalar::Kind::Bool) strong = strong ? promote_types(*strong, t.dtype) : t.dtype;
  std::optional<DType> common = strong;
  for (Scalar::Kind k : {Scalar::Kind::Int, Scalar::Kind::Float, Scalar::Kind::Complex})
    for (const OperandType& t : inputs)
      if (t.weak && t.weak_kind == k) common = weak_dtype(k, common);
  // With no strong operand each Python scalar keeps its own default dtype (ldexp(1.5, 3) is 'dl').
  for (size_t i = 0; i < inputs.size(); ++i)
    out[i] = (inputs[i].weak && inputs[i].weak_kind != Scalar::Kind::Bool && strong) ? *common : inputs[i].dtype;
}

// NumPy marks a Python int that took a strong operand's dtype; such an int may then feed a loop
// of any numeric type (ldexp(float16_array, 3) uses 'ei'), its value being checked on conversion.
// An int that only met bools (or other Python scalars) is a plain int64 (True + 3 is int64).
bool lenient_python_int(const OperandType& t, std::span<const OperandType> inputs) {
  if (!t.weak || t.weak_kind != Scalar::Kind::Int) return false;
  for (const OperandType& o : inputs)
    if ((!o.weak || o.weak_kind == Scalar::Kind::Bool) && o.dtype != DType::Bool) return true;
  return false;
}

bool input_castable(const OperandType& t, std::span<const OperandType> inputs, DType assigned, DType to,
                    Casting casting) {
  if (can_cast(assigned, to, casting)) return true;
  return to != DType::Bool && lenient_python_int(t, inputs);
}

const ParsedLoop* linear_search(std::span<const ParsedLoop> loops, int nin, std::span<const OperandType> inputs,
                                const DType* assigned, Casting casting) {
  for (const ParsedLoop& l : loops) {
    bool ok = true;
    for (int i = 0; i < nin && ok; ++i) ok = input_castable(inputs[i], inputs, assigned[i], l.types[i], casting);
    if (ok) return &l;
  }
  return nullptr;
}

const ParsedLoop* uniform_loop(std::span<const ParsedLoop> loops, int nin, DType t) {
  for (const ParsedLoop& l : loops) {
    bool ok = true;
    for (int i = 0; i < nin && ok; ++i) ok = l.types[i] == t;
    if (ok) return &l;
  }
  return nullptr;
}

}  // namespace

std::span<const ParsedLoop> parsed_loops(int index) {
  static const std::vector<std::vector<ParsedLoop>> all = parse_all();
  return all[index];
}

LoopChoice resolve_loop(int index, std::span<const OperandType> inputs, std::optional<DType> out_dtype, Casting casting) {
  const UfuncDef& def = ufunc_defs()[index];
  const auto loops = parsed_loops(index);
  const int nin = def.nin;
  LoopChoice choice{};
  assign_operand_dtypes(inputs, choice.operand_dtypes);
  const DType* assigned = choice.operand_dtypes;
  auto fail = [&]() -> LoopChoice { no_loop(def, std::span(assigned, nin)); };

  if (out_dtype) {
    // dtype= (NumPy's type_tuple_type_resolver): the first loop producing it whose inputs cast
    // safely (at most `casting`), else the homogeneous loop with every operand of that dtype.
    // With several outputs, dtype= applies to each (divmod(a, b, dtype=float32) is 'ff->ff').
    const Casting input_casting = std::min(casting, Casting::Safe);
    for (int homogeneous = 0; homogeneous < 2; ++homogeneous) {
      for (const ParsedLoop& l : loops) {
        bool outputs_match = true;
        for (int k = 0; k < def.nout; ++k) outputs_match = outputs_match && l.types[nin + k] == *out_dtype;
        if (!outputs_match) continue;
        bool ok = true;
        for (int i = 0; i < nin && ok; ++i)
          ok = homogeneous ? l.types[i] == *out_dtype && input_castable(inputs[i], inputs, assigned[i], l.types[i], casting)
                           : input_castable(inputs[i], inputs, assigned[i], l.types[i], input_casting);
        if (ok) {
          choice.loop = &l;
          return choice;
        }
      }
    }
    throw_error(ErrorKind::Type, "No loop matching the specified signature and casting was found for ufunc " +
                                     std::string(def.name));
  }

  // NumPy's result_type of all inputs: for three or more it is not a fold of pairs (clip of int8,
  // uint8 and float16 arrays is float16, not float32).
  const DType common = nin <= 2 ? promote_types(assigned[0], assigned[nin - 1])
                                : promote_types(std::span<const DType>(assigned, static_cast<size_t>(nin)));
  bool all_bool = true;
  for (int i = 0; i < nin; ++i) all_bool = all_bool && assigned[i] == DType::Bool;

  switch (def.resolver) {
    case TypeResolver::UniformNoBool:
      if (all_bool) {
        if (nin == 1)
          throw_error(ErrorKind::Type,
                      "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the "
                      "logical_not function instead.");
        throw_error(ErrorKind::Type,
                    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, "
                    "or the logical_xor function instead.");
      }
      [[fallthrough]];
    case TypeResolver::Uniform:
      choice.loop = uniform_loop(loops, nin, common);
      break;
    case TypeResolver::TrueDivide:
      choice.loop = uniform_loop(loops, nin, (is_integer(common) || common == DType::Bool) ? DType::Float64 : common);
      break;
    case TypeResolver::Absolute:
      choice.loop = is_complex(common) ? linear_search(loops, nin, inputs, assigned, Casting::Safe)
                                       : uniform_loop(loops, nin, common);
      break;
    case TypeResolver::Logical: {
      // NumPy 2's logical promoter: an exact loop when all inputs share a dtype, else the bool loop.
      bool same = !inputs[0].weak;
      for (int i = 1; i < nin; ++i) same = same && !inputs[i].weak && assigned[i] == assigned[0];
      choice.loop = same ? uniform_loop(loops, nin, assigned[0]) : nullptr;
      if (!choice.loop) choice.loop = uniform_loop(loops, nin, DType::Bool);
      break;
    }
    case TypeResolver::Linear:
    case TypeResolver::Comparison:
      choice.loop = linear_search(loops, nin, inputs, assigned, Casting::Safe);
      break;
  }
  if (!choice.loop) return fail();
  return choice;
}

const LoopChoice& resolve_loop_memo(int index, std::span<const OperandType> inputs, std::optional<DType> out_dtype,
                                    Casting casting) {
  // Signature: ufunc index, each input's dtype/weak kind (7 bits), dtype= and casting=.
  uint64_t key = static_cast<uint64_t>(index) + 1;
  for (const OperandType& t : inputs)
    key = key << 7 | static_cast<uint64_t>(t.dtype) | (t.weak ? 0x10u | static_cast<unsigned>(t.weak_kind) << 5 : 0u);
  key = (key << 5 | (out_dtype ? static_cast<uint64_t>(*out_dtype) + 1 : 0)) << 3 | static_cast<uint64_t>(casting);
  struct Memo {
    uint64_t key = 0;
    LoopChoice choice;
  };
  constexpr size_t kSlots = 256;
  thread_local Memo memo[kSlots];
  Memo& slot = memo[(key * 0x9e3779b97f4a7c15ull) >> 56];
  if (slot.key != key) {
    slot.choice = resolve_loop(index, inputs, out_dtype, casting);  // throws before the slot is claimed
    slot.key = key;
  }
  return slot.choice;
}

const ParsedLoop& resolve_reduce_like(int index, DType in, std::optional<DType> dtype, std::optional<DType> out) {
  const UfuncDef& def = ufunc_defs()[index];
  OperandType inputs[2] = {OperandType{in}, OperandType{in}};
  if (dtype) {
    inputs[0] = inputs[1] = OperandType{*dtype};
  } else if (def.resolver == TypeResolver::Logical) {
    inputs[0] = inputs[1] = OperandType{DType::Bool};
  } else if (out) {
    inputs[0] = OperandType{*out};
  } else if (def.has(kAccumulatesSmallIntsInInt64) && (in == DType::Bool || (is_integer(in) && itemsize(in) < 8))) {
    inputs[0] = OperandType{kind(in) == DTypeKind::UnsignedInt ? DType::UInt64 : DType::Int64};
  }
  const ParsedLoop& loop = *resolve_loop(index, inputs, dtype, Casting::Unsafe).loop;
  if (loop.types[0] != loop.types[2] || loop.types[1] != loop.types[2])
    throw_error(ErrorKind::Type,
                "No loop matching the specified signature and casting was found for ufunc " + std::string(def.name));
  return loop;
}

}  // namespace cuarray::ops
