// The set routines compare a sorted array with itself shifted by one place (a run of equal values
// starts where an element differs from the one before it) and write such compares into parts of
// masks, NumPy's out=.
#pragma once
#include <initializer_list>
#include <span>

#include "cuarray/ufunc.hpp"

namespace cuarray::ops {

// a[1:] and a[:-1] along axis 0; both empty when `a` is.
inline NDArray after_first(const NDArray& a) {
  const int64_t n = a.shape()[0];
  return a.slice(0, n > 0 ? 1 : 0, n, 1);
}
inline NDArray before_last(const NDArray& a) {
  const int64_t n = a.shape()[0];
  return a.slice(0, 0, n > 0 ? n - 1 : 0, 1);
}

// u(inputs) written into `out`, which has the inputs' broadcast shape.
inline void apply_into(const Ufunc& u, std::initializer_list<Operand> inputs, NDArray& out) {
  NDArray* const outs[] = {&out};
  u(std::span(inputs.begin(), inputs.size()), outs);
}

}  // namespace cuarray::ops
