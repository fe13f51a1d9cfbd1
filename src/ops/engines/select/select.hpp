// Stream compaction: the elements of an array where a predicate is nonzero, in C order, in one
// scan-based pass (docs/select.md). Counting the selection per tile and scanning the tile counts
// happen when a Selection is made; the size of the result is read back then (the one
// device->host synchronization); each use then writes the selected elements, their indices, or
// scatters values into them.
#pragma once
#include <string>

#include "ops/engines/coalesce.hpp"
#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// What the write pass does with each selected element (the values of select.cuh's SelectMode).
enum class SelectMode : uint8_t {
  Values = 0,   // out[rank] = values[j]
  Indices = 1,  // out[rank] = the multi-index (or flat index) of j
  Scatter = 2,  // target[j] = values[rank]
};

// The three kernels of one compaction.
enum class SelectPass : uint8_t { Count, Scan, Write };

class Selection {
 public:
  // `pred` is read as bool (nonzero; for complex either part), over its logical shape in C order,
  // whatever its strides: broadcast views select whole rows or columns.
  explicit Selection(const NDArray& pred);

  int64_t count() const { return count_; }

  // The selected elements of `values` (pred's shape, any layout) as a 1-D array of count().
  NDArray gather(const NDArray& values) const;
  // int64 indices of the selected elements.
  enum class IndexLayout {
    Flat,        // (count,): C-order flat indices (flatnonzero)
    PerElement,  // (count, ndim): one row per element (argwhere)
    PerDim,      // (ndim, count): one row per dimension (nonzero)
  };
  NDArray indices(IndexLayout layout) const;
  // target[selected] = values, where target has pred's shape and `values` is contiguous and
  // holds count() elements of target's dtype.
  void scatter(const NDArray& target, const NDArray& values) const;

 private:
  void write(SelectMode mode, const NDArray* strided, const char* in, char* out, int word_bytes, const Shape& ishape,
             int64_t idim_stride, int64_t irank_stride) const;

  NDArray pred_;
  NDArray offsets_;  // per tile: the selected elements before it; the last entry is the total
  int64_t tiles_ = 0;
  int64_t count_ = 0;
};

// The CUDA source of one pass. `word_bytes`: the size of an element moved by Values/Scatter;
// `rank`: the coalesced iteration rank; `index_rank`: the rank indices are unravelled over.
std::string select_source(SelectPass pass, DType pred, int word_bytes, SelectMode mode, int rank, int index_rank,
                          bool index64);

}  // namespace cuarray::ops
