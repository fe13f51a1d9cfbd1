// NumPy 2's ufunc loop selection, including NEP 50 weak Python scalars (docs/ufuncs.md).
#pragma once
#include <optional>
#include <span>

#include "cuarray/ufunc.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray::ops {

inline constexpr int kMaxUfuncArgs = 8;

struct ParsedLoop {
  DType types[kMaxUfuncArgs];  // nin inputs then nout outputs
  const char* expr;            // never null: the ufunc's default filled in
};

// The loops of table entry `index`, parsed once.
std::span<const ParsedLoop> parsed_loops(int index);

struct LoopChoice {
  const ParsedLoop* loop;
  // The dtype each weak scalar input was given (NEP 50), for the OverflowError check; inputs that
  // were not weak hold their own dtype.
  DType operand_dtypes[kMaxUfuncArgs];
};

// Throws TypeError (no matching loop, bool subtract, ...) as NumPy does.
LoopChoice resolve_loop(int index, std::span<const OperandType> inputs, std::optional<DType> out_dtype, Casting casting);

// resolve_loop behind a per-thread memo keyed by the call's type signature: the per-call path
// does the table walk once per signature and thread.
const LoopChoice& resolve_loop_memo(int index, std::span<const OperandType> inputs, std::optional<DType> out_dtype,
                                    Casting casting);

// The loop of a reduce-like method (reduce, accumulate, reduceat) of the binary ufunc `index` on an
// input of dtype `in`: NumPy resolves it as a call on (out-or-dtype, in) with unsafe casting; the
// ufuncs flagged kAccumulatesSmallIntsInInt64 (add, multiply) accumulate bool and integers narrower
// than 64 bits in int64 (unsigned: uint64) when neither dtype= nor out= is given, and NumPy 2's logical promoter takes the bool loop unless
// dtype= asks otherwise. TypeError when the loop does not keep one dtype from input to result.
const ParsedLoop& resolve_reduce_like(int index, DType in, std::optional<DType> dtype, std::optional<DType> out);

}  // namespace cuarray::ops
