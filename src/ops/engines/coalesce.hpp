// Dimension coalescing shared by the elementwise and reduction engines: drop length-1 dims, order
// dims so the primary operand's smallest stride is innermost, merge dims that are contiguous in
// every operand. Fewer dims means cheaper index math and, at rank 1, the linear kernel.
#pragma once
#include "cuarray/shape.hpp"

namespace cuarray::ops {

inline constexpr int kMaxOperands = 16;

struct StridedView {
  Shape shape;
  Strides strides[kMaxOperands];  // byte strides of each operand over `shape`
  int count = 0;
};

// Operand 0 decides the order (the output, for the elementwise engine). With sort == false the
// dims keep their order and are only merged (for indices that must stay C-order).
void coalesce(StridedView& v, bool sort = true);

// Whether `n` elements over `v` need 64-bit indices: n, or some operand's byte span, passes 2**31 - 1.
bool needs_index64(const StridedView& v, int64_t n);

}  // namespace cuarray::ops
