// numpy.unique as NumPy's sort-based algorithm (docs/sets.md): sort (argsort when indices or the
// inverse are asked for), mark where runs of equal values start, compact. Along an axis the
// subarrays become rows, ordered by lexsort over their columns. Gathers and scatters whose indices
// are in range by construction use IndexMode::Clip, which skips Raise's read of the device flag.
#include <vector>

#include "cuarray/indexing.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/scan.hpp"
#include "cuarray/sets.hpp"
#include "cuarray/sorting.hpp"
#include "ops/sets/shifted.hpp"

namespace cuarray {
namespace {

using ops::after_first;
using ops::apply_into;
using ops::before_last;

// a's elements (rows, for a 2-D `a`) at indices known to be in range.
NDArray gather(const NDArray& a, const NDArray& indices) { return take(a, indices, 0, IndexMode::Clip); }

// A bool mask of n elements whose first is true; the caller fills the rest (mask[1:]).
NDArray mask_of_runs(int64_t n) {
  NDArray mask = empty(Shape{n}, DType::Bool);
  if (n > 0) mask.slice(0, 0, 1, 1).fill(Scalar::from_bool(true));
  return mask;
}

// Over the sorted 1-D array: true where a run of equal values starts. NaN never equals NaN, so
// every NaN starts a run, unless collapse_nan: NaNs sort last, so an element after a NaN is a NaN
// too and joins the first NaN's run (NumPy's equal_nan; for complex every value with a NaN part is
// one NaN, represented by the first in sort order).
NDArray first_of_runs(const NDArray& sorted, bool collapse_nan) {
  static const Ufunc& not_equal = ufunc("not_equal");
  static const Ufunc& logical_and = ufunc("logical_and");
  static const Ufunc& logical_not = ufunc("logical_not");
  static const Ufunc& isnan = ufunc("isnan");
  NDArray mask = mask_of_runs(sorted.shape()[0]);
  if (mask.size() == 0) return mask;
  NDArray starts = after_first(mask);
  const NDArray previous = before_last(sorted);
  apply_into(not_equal, {Operand::of(after_first(sorted)), Operand::of(previous)}, starts);
  if (collapse_nan && is_inexact(sorted.dtype()))
    apply_into(logical_and, {Operand::of(starts), Operand::of(logical_not(isnan(previous)))}, starts);
  return mask;
}

// Over the rows of a row-sorted 2-D array: true where a run of equal rows starts. Rows are equal
// when every element is == (NumPy's structured compare: NaN is never equal).
NDArray first_of_row_runs(const NDArray& sorted_rows) {
  static const Ufunc& not_equal = ufunc("not_equal");
  NDArray mask = mask_of_runs(sorted_rows.shape()[0]);
  if (mask.size() == 0) return mask;
  NDArray starts = after_first(mask);
  if (sorted_rows.shape()[1] == 0) {
    starts.fill(Scalar::from_bool(false));
    return mask;
  }
  const int64_t columns[] = {1};
  starts.assign(reduce("any", not_equal(after_first(sorted_rows), before_last(sorted_rows)), columns));
  return mask;
}

// The indices, inverse and counts asked for, from the run-start mask over the sorted order and
// the permutation `perm` that sorted the n input elements (unset when neither indices nor the
// inverse are asked for).
void add_run_results(UniqueResult& r, const NDArray& mask, const NDArray& perm, int64_t n, const UniqueOptions& o) {
  static const Ufunc& subtract = ufunc("subtract");
  if (o.return_index) r.indices = compress(mask, perm, 0);
  if (o.return_inverse) {
    const NDArray run_of_sorted = cumsum(mask, std::nullopt, DType::Int64) - 1;
    NDArray inverse = empty(Shape{n}, DType::Int64);
    if (n > 0) put(inverse, perm, run_of_sorted, IndexMode::Clip);
    r.inverse_indices = inverse;
  }
  if (o.return_counts) {
    const NDArray starts = flatnonzero(mask);
    const int64_t k = starts.shape()[0];
    NDArray counts = empty(Shape{k}, DType::Int64);
    if (k > 0) {
      NDArray but_last = before_last(counts), last = counts.slice(0, k - 1, k, 1);
      apply_into(subtract, {Operand::of(after_first(starts)), Operand::of(before_last(starts))}, but_last);
      apply_into(subtract, {Operand::of(Scalar::from_int(n)), Operand::of(starts.slice(0, k - 1, k, 1))}, last);
    }
    r.counts = counts;
  }
}

UniqueResult unique_flat(const NDArray& a, const UniqueOptions& o) {
  const NDArray flat = a.ravel();
  NDArray perm, ordered;
  if (o.return_index || o.return_inverse) {
    perm = argsort(flat);  // stable: each run starts at its first occurrence, as NumPy's mergesort
    ordered = gather(flat, perm);
  } else {
    ordered = sort(flat);
  }
  const NDArray mask = first_of_runs(ordered, o.equal_nan);
  UniqueResult r{.values = compress(mask, ordered, 0)};
  add_run_results(r, mask, perm, flat.shape()[0], o);
  return r;
}

// lexsort keys that order the rows as NumPy's structured compare does: the first column most
// significant (lexsort's last key), each column in sort order (NaNs last), except that NumPy's
// float16 fields put NaN before every number: a float16 column gets a more significant key,
// isnan == false first.
std::vector<NDArray> row_keys(const NDArray& rows) {
  static const Ufunc& logical_not = ufunc("logical_not");
  static const Ufunc& isnan = ufunc("isnan");
  std::vector<NDArray> keys;
  for (int64_t j = rows.shape()[1] - 1; j >= 0; --j) {
    const NDArray column = rows.index(1, j);
    keys.push_back(column);
    if (rows.dtype() == DType::Float16) keys.push_back(logical_not(isnan(column)));
  }
  return keys;
}

// unique along `axis`: the subarrays it indexes are flattened (C order) into rows and compared
// lexicographically, first element most significant, as NumPy's structured view of them.
UniqueResult unique_rows(const NDArray& a, int axis, const UniqueOptions& o) {
  std::vector<int64_t> order{axis};
  for (int d = 0; d < a.ndim(); ++d)
    if (d != axis) order.push_back(d);
  const NDArray moved = a.transpose(order);
  const int64_t n = moved.shape()[0];
  int64_t m = 1;
  for (int d = 1; d < moved.ndim(); ++d) m *= moved.shape()[d];
  const NDArray rows = moved.reshape(Shape{n, m});
  const NDArray perm = n == 0 || m == 0
                           ? arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64)
                           : lexsort(row_keys(rows));
  const NDArray sorted_rows = gather(rows, perm);
  const NDArray mask = first_of_row_runs(sorted_rows);
  const NDArray kept = compress(mask, sorted_rows, 0);
  Shape shape{kept.shape()[0]};
  for (int d = 1; d < moved.ndim(); ++d) shape.push_back(moved.shape()[d]);
  std::vector<int64_t> back(order.size());
  for (size_t i = 0; i < order.size(); ++i) back[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
  UniqueResult r{.values = kept.reshape(shape).transpose(back)};
  add_run_results(r, mask, perm, n, o);
  return r;
}

}  // namespace

UniqueResult unique(const NDArray& a, const UniqueOptions& options) {
  if (!options.axis || a.ndim() == 1) {
    if (options.axis) normalize_axis(*options.axis, a.ndim());
    UniqueResult r = unique_flat(a, options);
    // NumPy 2 shapes the inverse like the input (a 0-d input: a 0-d inverse).
    if (r.inverse_indices) r.inverse_indices = r.inverse_indices->reshape(a.shape());
    return r;
  }
  return unique_rows(a, normalize_axis(*options.axis, a.ndim()), options);
}

}  // namespace cuarray
