// The NumPy reductions as data (the ufunc table's counterpart, docs/reductions.md): each row holds
// the kernel's expressions and NumPy's rules as columns; reduce() reads the columns, never a name.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

namespace cuarray::ops {

// NumPy's result dtype when dtype= is not given.
enum class ResultRule : uint8_t {
  SumLike,  // sum/prod: bool and signed ints give int64, unsigned ints uint64, others keep theirs
  Same,     // min/max
  Mean,     // mean: bool and ints give float64
  Var,      // var/std: the real dtype of the Mean rule (complex64 gives float32)
  Bool,     // any/all
  Index,    // argmin/argmax/count_nonzero: int64
};

// The dtype the kernel computes in, from the result dtype; float16 always computes in float32
// (NumPy's float16 loops accumulate in float).
enum class ComputeRule : uint8_t {
  Result,       // the result dtype
  WideProduct,  // the result dtype, float32/complex64 widened to double: a long product loses a digit
                // per step in single precision (there is no pairwise trick for it), so round once
  Input,        // the input's dtype: comparisons and truth values
  Moments,      // var/std: a complex input keeps its complex dtype (complex mean, real M2)
  Int64,        // counts
};

enum class Empty : uint8_t {
  Identity,    // an empty reduction gives the identity (post-mapped: mean of nothing is NaN)
  NoIdentity,  // ValueError "zero-size array to reduction operation <ufunc> which has no identity"
  ArgError,    // ValueError "attempt to get argmin of an empty sequence"
};

enum ReductionFlags : uint8_t {
  kNoReductionFlags = 0,
  kOrdered = 1u << 0,          // arg reductions: one axis; `r` is the C-order flat index in the reduced dims
  kAllNanError = 1u << 1,      // nanargmin/nanargmax: an all-NaN slice raises ValueError
  kFoldsInitial = 1u << 2,     // takes initial=, folded into the result with the row's ufunc
  kRejectsAxisOf0d = 1u << 3,  // NumPy's mean/var/std (Python functions, not ufunc reductions) reject axis 0 of a 0-d array
  kInexactOnly = 1u << 4,      // nanmean/nanvar/nanstd: for an inexact input, dtype= and out= must be inexact (TypeError)
};

// Names a row refers to, resolved once by reduction_links().
struct ReductionRefs {
  const char* plain = nullptr;   // the row a nan-function is for exact dtypes (no NaN to skip; NumPy calls it)
  const char* masked = nullptr;  // the row that runs under where= (mean: its count differs per output)
  const char* then = nullptr;    // a ufunc NumPy applies into out= afterwards (std: sqrt), whose casting rule out= meets
};

// ReductionSpec's expressions (ops/engines/reduction/reduction.hpp says what each sees).
struct ReductionKernel {
  std::string_view map, combine, identity, post, acc_type = {}, step = {}, step4 = {};
};

struct ReductionDef {
  std::string_view name;  // NumPy's name; internal rows start with '_'
  // The ufunc NumPy reduces with: errors name it, it folds initial= and, for out=, it resolves the
  // loop with out's dtype. nullptr: none (arg reductions, counts, internal rows).
  const char* ufunc;
  ResultRule result;
  ComputeRule compute;
  Empty empty;
  uint8_t flags;  // ReductionFlags
  ReductionRefs refs;
  ReductionKernel kernel;

  bool has(ReductionFlags f) const { return (flags & f) != 0; }
};

std::span<const ReductionDef> reduction_defs();

// A row's references as table positions, resolved once.
struct ReductionLinks {
  const ReductionDef* plain = nullptr;
  const ReductionDef* masked = nullptr;
  int ufunc = -1;  // index into ufunc_defs(); -1: none
  int then = -1;
};
const ReductionLinks& reduction_links(const ReductionDef& def);

}  // namespace cuarray::ops
