// numpy.isin and the 1-D set operations, as NumPy's sort-based algorithms (docs/sets.md):
// membership is one binary-search kernel over the sorted test elements (in_sorted); intersect1d,
// union1d, setdiff1d and setxor1d work on unique() values and compare sorted neighbours.
#include "cuarray/indexing.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/sets.hpp"
#include "cuarray/sorting.hpp"
#include "ops/sets/shifted.hpp"

namespace cuarray {
namespace {

using ops::after_first;
using ops::before_last;

// Whether each element of the 1-D `element` equals one of the 1-D `test_elements`, compared in
// their common dtype (NumPy's concatenate promotion).
NDArray in_sorted_common(const NDArray& element, const NDArray& test_elements, bool invert) {
  const DType common = promote_types(element.dtype(), test_elements.dtype());
  return in_sorted(sort(test_elements.astype(common, false)), element.astype(common, false), invert);
}

// Both arrays flattened and joined, in their result_type.
NDArray join(const NDArray& ar1, const NDArray& ar2) {
  const NDArray parts[] = {ar1.ravel(), ar2.ravel()};
  return concatenate(parts, 0);
}

}  // namespace

NDArray isin(const NDArray& element, const NDArray& test_elements, bool invert) {
  return in_sorted_common(element.ravel(), test_elements.ravel(), invert).reshape(element.shape());
}

IntersectResult intersect1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique, bool return_indices) {
  static const Ufunc& equal = ufunc("equal");
  UniqueResult u1{.values = ar1.ravel()}, u2{.values = ar2.ravel()};
  if (!assume_unique) {
    const UniqueOptions first{.return_index = return_indices};
    u1 = unique(ar1, first);
    u2 = unique(ar2, first);
  }
  NDArray both = join(u1.values, u2.values), order;
  if (return_indices) {
    order = argsort(both);
    both = take(both, order, 0, IndexMode::Clip);
  } else {
    both = sort(both);
  }
  // A value of both (unique) arrays appears twice in a row, ar1's first.
  const NDArray twice = equal(after_first(both), before_last(both));
  IntersectResult r{.values = compress(twice, before_last(both), 0)};
  if (!return_indices) return r;
  NDArray in1 = compress(twice, before_last(order), 0);
  NDArray in2 = compress(twice, after_first(order), 0) - u1.values.shape()[0];
  if (!assume_unique) {  // positions among the unique values -> first occurrences in the input
    in1 = take(*u1.indices, in1, 0, IndexMode::Clip);
    in2 = take(*u2.indices, in2, 0, IndexMode::Clip);
  }
  r.comm1 = in1;
  r.comm2 = in2;
  return r;
}

NDArray union1d(const NDArray& ar1, const NDArray& ar2) { return unique(join(ar1, ar2)).values; }

NDArray setdiff1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique) {
  const NDArray kept = assume_unique ? ar1.ravel() : unique(ar1).values;
  const NDArray removed = assume_unique ? ar2.ravel() : unique(ar2).values;
  return compress(in_sorted_common(kept, removed, true), kept, 0);
}

NDArray setxor1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique) {
  static const Ufunc& not_equal = ufunc("not_equal");
  static const Ufunc& logical_and = ufunc("logical_and");
  const NDArray both = assume_unique ? sort(join(ar1, ar2)) : sort(join(unique(ar1).values, unique(ar2).values));
  const int64_t n = both.shape()[0];
  if (n == 0) return both;
  // A value is kept when it differs from both neighbours (the ends have one neighbour).
  NDArray differs = ones(Shape{n + 1}, DType::Bool);
  NDArray inner = differs.slice(0, 1, n, 1);
  ops::apply_into(not_equal, {Operand::of(after_first(both)), Operand::of(before_last(both))}, inner);
  return compress(logical_and(after_first(differs), before_last(differs)), both, 0);
}

}  // namespace cuarray
