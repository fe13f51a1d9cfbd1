// searchsorted and the quantile family over sorted rows (src/ops/sorting/search.cpp; docs/sorting.md).
// Needs sort.cuh (radix_less: NumPy's order with NaNs last).
namespace cuarray {

// numpy.searchsorted on one sorted row `a` of n elements, through `sorter` when kSorter (the host
// has checked its range, the clamp only keeps reads in bounds). Pos: int when n < 2**31; the
// search is a chain of dependent loads, and 32-bit positions with no sorter test leave more
// warps per multiprocessor to hide them (measured on an H200: 1.6x on 1e7 queries).
template <class T, bool kRight, class Pos, bool kSorter>
__device__ __forceinline__ Pos search_sorted(const T* __restrict__ a, const long long* __restrict__ sorter, Pos n,
                                             const T& x) {
  Pos lo = 0, hi = n;
  while (lo < hi) {
    const Pos mid = lo + ((hi - lo) >> 1);
    Pos at = mid;
    if constexpr (kSorter) {
      const long long s = sorter[mid];
      at = s < 0 ? 0 : s >= n ? n - 1 : Pos(s);
    }
    const T& m = a[at];
    if (kRight ? !radix_less(x, m) : radix_less(m, x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Whether x equals an element of the sorted `a` by NumPy's == (NaN equals nothing, -0.0 is 0.0):
// the lower bound's element is not below x, so it is x exactly when x is not below it either.
template <class T, class Pos>
__device__ __forceinline__ bool sorted_contains(const T* __restrict__ a, Pos n, const T& x) {
  if (cuarray_isnan(x)) return false;
  const Pos at = search_sorted<T, false, Pos, false>(a, nullptr, n, x);
  return at < n && !radix_less(x, a[at]);
}

// NumPy's quantile methods (numpy/lib/_function_base_impl.py, _QuantileMethods), plus the median,
// which NumPy computes as the mean of the middle elements.
enum class QuantileMethod : int {
  Linear, Lower, Higher, Nearest, Midpoint, InvertedCdf, AveragedInvertedCdf, ClosestObservation,
  InterpolatedInvertedCdf, Hazen, Weibull, MedianUnbiased, NormalUnbiased, Median
};

// Which sorted elements a quantile reads: `lo` and `hi`, and the weight of `hi` (NumPy's gamma).
// `take`: the result is element lo itself in the input's dtype (the discontinuous methods).
struct QuantilePoint {
  long long lo, hi;
  double gamma;
  bool take;
};

// NumPy's _discrete_interpolation_to_boundaries: the floor where `at_floor`, else the next one.
__device__ __forceinline__ long long discrete_boundary(double index, bool odd_floor_only) {
  const double previous = floor(index);
  const double gamma = index - previous;
  const bool at_floor = gamma == 0 && (!odd_floor_only || fmod(previous, 2.0) == 1.0 || fmod(previous, 2.0) == -1.0);
  const long long r = (long long)(at_floor ? previous : previous + 1);
  return r < 0 ? 0 : r;
}

// The arithmetic is NumPy's, operation for operation (in float64), so ties round alike.
__device__ __forceinline__ QuantilePoint quantile_point(QuantileMethod method, long long n, double q) {
  const double nd = (double)n;
  auto virtual_index = [&](double alpha, double beta) { return nd * q + (alpha + q * (1 - alpha - beta)) - 1; };
  double v;
  switch (method) {
    case QuantileMethod::Lower: return {(long long)floor((nd - 1) * q), 0, 0.0, true};
    case QuantileMethod::Higher: return {(long long)ceil((nd - 1) * q), 0, 0.0, true};
    case QuantileMethod::Nearest: return {(long long)rint((nd - 1) * q), 0, 0.0, true};
    case QuantileMethod::InvertedCdf: return {discrete_boundary(nd * q - 1, false), 0, 0.0, true};
    case QuantileMethod::ClosestObservation: return {discrete_boundary(nd * q - 1 - 0.5, true), 0, 0.0, true};
    case QuantileMethod::Median: {
      const long long half = n / 2;
      return n % 2 ? QuantilePoint{half, half, 0.0, false} : QuantilePoint{half - 1, half, 0.5, false};
    }
    case QuantileMethod::Midpoint: v = 0.5 * (floor((nd - 1) * q) + ceil((nd - 1) * q)); break;
    case QuantileMethod::AveragedInvertedCdf: v = nd * q - 1; break;
    case QuantileMethod::InterpolatedInvertedCdf: v = virtual_index(0, 1); break;
    case QuantileMethod::Hazen: v = virtual_index(0.5, 0.5); break;
    case QuantileMethod::Weibull: v = virtual_index(0, 0); break;
    case QuantileMethod::MedianUnbiased: v = virtual_index(1 / 3.0, 1 / 3.0); break;
    case QuantileMethod::NormalUnbiased: v = virtual_index(3 / 8.0, 3 / 8.0); break;
    default: v = (nd - 1) * q; break;  // linear
  }
  // NumPy's _get_indexes: above the last element both neighbours are index -1 (the last), below
  // the first both are 0; gamma is taken against those (possibly -1) previous indexes.
  double previous = floor(v);
  long long lo = (long long)previous, hi = lo + 1;
  if (v >= nd - 1) {
    previous = -1;
    lo = hi = n - 1;
  }
  if (v < 0) {
    previous = 0;
    lo = hi = 0;
  }
  double gamma = v - previous;
  if (method == QuantileMethod::AveragedInvertedCdf) gamma = gamma == 0 ? 0.5 : 1.0;
  if (method == QuantileMethod::Midpoint) gamma = fmod(v, 1.0) == 0 ? 0.0 : 0.5;
  return {lo, hi, gamma, false};
}

// b - a in the input's own dtype, as NumPy's _lerp computes it (integers wrap).
template <class T>
__device__ __forceinline__ T difference(const T& b, const T& a) {
  if constexpr (is_integer_v<T>) return T(wrap_t<T>(b) - wrap_t<T>(a));
  else return b - a;
}

// NumPy's _lerp: a + (b - a) * t, or b - (b - a) * (1 - t) where t >= 0.5, in the result dtype R.
template <class T, class R>
__device__ __forceinline__ R quantile_lerp(const T& a, const T& b, double gamma) {
  const R diff = cuarray_cast<R>(difference(b, a));
  if (gamma >= 0.5) return cuarray_cast<R>(b) - diff * cuarray_cast<R>(1.0 - gamma);
  return cuarray_cast<R>(a) + diff * cuarray_cast<R>(gamma);
}

// NumPy's median: the mean of the middle element(s), summed in the mean's accumulator type.
template <class T, class R>
__device__ __forceinline__ R middle_mean(const T& a, const T& b, bool two) {
  using Acc = compute_t<R>;  // float16 means accumulate in float32
  if (!two) return cuarray_cast<R>(cuarray_cast<Acc>(a));
  return cuarray_cast<R>((cuarray_cast<Acc>(a) + cuarray_cast<Acc>(b)) / cuarray_cast<Acc>(2));
}

// Index of the first NaN of a sorted row (NaNs sort last): the count of the other elements.
template <class T>
__device__ __forceinline__ long long count_not_nan(const T* row, long long n) {
  if (!is_floating_v<T> && !is_complex_v<T>) return n;
  long long lo = 0, hi = n;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (cuarray_isnan(row[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// One quantile of one sorted row. A NaN in the row makes the result NaN; with `skip_nan` the NaNs
// are left out instead (an all-NaN row gives NaN).
template <class T, class R>
__device__ __forceinline__ R row_quantile(const T* row, long long n, double q, QuantileMethod method, bool skip_nan) {
  const long long valid = count_not_nan(row, n);
  const R nan = cuarray_cast<R>(__longlong_as_double(0x7ff8000000000000ll));
  if ((!skip_nan && valid < n) || valid == 0) return nan;
  const QuantilePoint p = quantile_point(method, valid, q);
  if (p.take) return cuarray_cast<R>(row[p.lo]);
  if (method == QuantileMethod::Median) return middle_mean<T, R>(row[p.lo], row[p.hi], p.lo != p.hi);
  return quantile_lerp<T, R>(row[p.lo], row[p.hi], p.gamma);
}

}  // namespace cuarray
