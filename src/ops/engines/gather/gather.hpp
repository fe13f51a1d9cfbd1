// Gather and scatter through an integer index array (take, put, take_along_axis, x[idx],
// x[idx] = v). One iteration shape covers the result (gather) or the values (scatter); every
// operand is described by byte strides over it, so one kernel serves every axis and layout.
// Indices are bounds-checked on the device: a bad one (mode 'raise') sets a flag that the host
// reads once per call, then it raises IndexError naming the first bad index in C order.
#pragma once
#include <string>

#include "cuarray/indexing.hpp"
#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// The array read (gather) or written (scatter) at the index.
struct IndexedArray {
  NDArray array;
  Strides strides;        // over the iteration shape; 0 along the dims the index spans
  Shape group_shape;      // the dims an index addresses (one axis, or every dim for flat indexing)
  Strides group_strides;  // their byte strides; a normalized index unravels over them in C order
  int axis;               // named by IndexError ("... for axis <axis> with size ...")
};

// The index array over the iteration shape.
struct IndexOperand {
  NDArray array;      // integer dtype, any layout
  Strides strides;    // byte strides over the iteration shape (0 where it does not vary)
  Strides positions;  // C-order flat position within `array` over the iteration shape (in units)
};

// out[o] = src[o at index[o]]; `out` has the iteration shape.
void run_gather(const NDArray& out, const IndexedArray& src, const IndexOperand& index, IndexMode mode);

// Reads `index` back to the host (after the device flagged a bad one, or where no kernel checks)
// and raises NumPy's IndexError for its first index (C order) outside [-len, len); returns when
// every index is in range. `uint64_as_int64`: indexing reads uint64 index arrays as int64 (NumPy
// casts them to intp), take and put compare them unsigned.
void check_in_range(const NDArray& index, int64_t len, int axis, bool uint64_as_int64);
// NumPy's IndexError for an index (as printed) out of range for an axis of length len.
[[noreturn]] void raise_out_of_range(const std::string& index, int axis, int64_t len);

// dst[o at index[o]] = values[o]; `values` (dst's dtype) has the iteration shape. Where several
// positions address one element, the last position's value stays, as in NumPy. Nothing is
// written when an index is out of range in 'raise' mode.
void run_scatter(const IndexedArray& dst, const NDArray& values, const IndexOperand& index, IndexMode mode);

enum class GatherKernel : uint8_t { Gather, ScatterMark, Scatter, ScatterClaim, ScatterResolve, ScatterKeys, ScatterSorted };
std::string gather_source(GatherKernel kernel, DType index, int word_bytes, IndexMode mode, int rank, int group_rank,
                          bool index64);

}  // namespace cuarray::ops
