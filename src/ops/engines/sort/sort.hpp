// The radix sort engine (src/kernels/sort.cuh; docs/sorting.md): sorts the contiguous rows of an
// array, stably, in NumPy's order (NaNs last, -0.0 equal to 0.0, complex by real then imaginary).
// Rows short enough for one block's shared memory sort one block per row; longer rows go through
// device-wide Onesweep passes (a histogram of every digit in one read, then per pass one kernel that
// ranks each tile, finds its output positions by decoupled look-back and writes it in digit
// order), with the row number as the most significant digits when several rows share one sort.
#pragma once
#include <span>
#include <string>

#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// Sorts each of the rows of `in` (C-contiguous, viewed as rows of `row_len` elements). Writes the
// sorted values into `values` and/or the within-row source indices (int64) into `index`; either
// may be null. Outputs are C-contiguous with in's size and must not alias it.
void sort_rows(const NDArray& in, int64_t row_len, const NDArray* values, const NDArray* index);

// Sorts `keys` (contiguous unsigned integers) stably and moves each element of `payload`
// (contiguous, the same size, any dtype: moved as raw words) with its key. Outputs are contiguous
// and must not alias the inputs.
void sort_pairs(const NDArray& keys, const NDArray& payload, const NDArray& keys_out, const NDArray& payload_out);

// out[r][j] = in[r][index[r][j]] for C-contiguous rows of `row_len` (index from sort_rows).
void gather_rows(const NDArray& in, const NDArray& index, int64_t row_len, const NDArray& out);

// How rows of `row_len` elements of `dtype` sort: one block of threads * items elements per row,
// or (threads == 0) the device-wide passes.
struct RowSortPlan {
  int threads, items;
};
RowSortPlan plan_row_sort(DType dtype, int64_t row_len);
// What a device-wide pass moves with each key: nothing, the flat index (argsort and sorts of
// several rows) or the caller's words of `bytes` (sort_pairs).
struct RadixPayload {
  enum Kind : uint8_t { None, FlatIndex, Words } kind = None;
  uint8_t bytes = 0;
};
int radix_tile_items(DType dtype, RadixPayload payload);  // elements per thread of a device-wide pass tile
int radix_key_bytes(DType dtype);   // radix passes of a full key

// The fragments of kernels that read sorted rows (searchsorted, the quantiles): the common ones
// for `dtypes`, the sort's value order (sort.cuh) and order_stats.cuh.
std::string sorted_rows_prelude(std::span<const DType> dtypes);

// Kernel sources (also compiled by the NVRTC tests).
std::string block_sort_source(DType dtype, int threads, int items, bool with_index);
std::string radix_passes_source(DType dtype, RadixPayload payload, int items);
std::string gather_rows_source(DType dtype);

}  // namespace cuarray::ops
