// The scatter-combine engine: target[where_i] = op(target[where_i], value_i) for every i of a
// selection, one element at a time with atomics, so repeated positions see each other's updates
// (NumPy's "unbuffered"). One generated kernel serves ufunc.at, bincount and the histograms; the
// atomic method comes from a table (docs/histograms.md).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"

namespace cuarray::ops {

// How one update is made atomic. The hardware atomics serve the loops whose three types equal the
// target's dtype and that have one; everything else runs the ufunc's expression in a
// compare-and-swap loop (1- and 2-byte types through their aligned 4-byte word), and 16-byte
// elements (complex128) under a striped lock.
enum class CombineMethod : uint8_t { Add, Max, Min, And, Or, Xor, CompareAndSwap, Lock };
CombineMethod combine_method(int ufunc_index, const ParsedLoop& loop, DType target);

// One integer index array of a selection.
struct ScatterIndex {
  NDArray array;    // integer or bool dtype
  Strides strides;  // byte strides over the selection's shape (0 where it broadcasts)
  int axis;         // the target dim it indexes (named in IndexError)
  int64_t length;   // that dim's length
  int64_t stride;   // that dim's byte stride in the target
};

// The target elements base + sum_d coord_d * strides_d + sum_k index_k * stride_k over `shape`.
struct ScatterSelection {
  char* base = nullptr;
  Shape shape;
  Strides strides;
  std::vector<ScatterIndex> indices;
};

enum class OutOfRange : uint8_t {
  Raise,  // NumPy indexing: negative indices count from the end; IndexError before anything is written
  Drop,   // bins: positions outside [0, length) are skipped (histograms mark dropped values with -1)
};

// target[selection] = ufunc(target[selection], value) as ufunc.at: `value` broadcasts to the
// selection's shape (ValueError otherwise); nullptr for a unary ufunc. The loop's output is cast
// to the target's dtype unsafely, as NumPy's ufunc.at does.
void scatter_combine(int ufunc_index, const ParsedLoop& loop, const NDArray& target, const ScatterSelection& selection,
                     const Operand* value, OutOfRange rule);

// The generated kernel's shape, for source generation and the NVRTC compile tests.
struct ScatterLayout {
  int rank;         // coalesced selection dims (>= 1)
  bool index64;     // 64-bit element counts and selection offsets
  bool privatized;  // block-local bins in shared memory (one index array, method Add on a real type)
  OutOfRange rule;
};
// `value`: the value array's dtype, nullopt for a scalar parameter; `has_value` false for unary ufuncs.
std::string scatter_source(const ParsedLoop& loop, int nin, DType target, bool has_value, std::optional<DType> value,
                           std::span<const DType> index_dtypes, CombineMethod method, const ScatterLayout& layout);

inline constexpr const char* kScatterKernelName = "cuarray_scatter";

}  // namespace cuarray::ops
