// NumPy's counting functions on the GPU: bincount, digitize, and the binning step of
// histogram/histogram2d/histogramdd (whose edge and density logic lives in cuarray/_histograms.py).
#pragma once
#include <optional>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// np.bincount(x, weights, minlength): x 1-D of non-negative integers (or bools); int64 counts, or
// float64 sums of `weights`. TypeError for non-integer x or complex weights, ValueError for a
// negative value, a length mismatch or a negative minlength.
NDArray bincount(const NDArray& x, const NDArray* weights = nullptr, int64_t minlength = 0);

// np.digitize(x, bins, right): the int64 bin of each element. `bins` is 1-D and monotonic,
// increasing unless `decreasing` (the caller checks, as NumPy does, on the host).
NDArray digitize(const NDArray& x, const NDArray& bins, bool right, bool decreasing);

// NumPy's arithmetic for equal-width histogram bins: values are kept when first_keep <= v <= last_keep
// (compared in `keep`), then bin = (v - first_sub) [in `sub`] / denom * n [in `div`], corrected
// against the edges. The dtypes are the ones NumPy's expression promotes to (the caller derives
// them with NumPy's own result_type).
struct UniformBins {
  DType keep, sub, div;
  Scalar first_keep, last_keep, first_sub, denom;
};

// The histogram bin of every element of `a` (flattened): int64, -1 for values outside the edges and
// NaN. Equal bins follow `uniform`'s arithmetic, otherwise a binary search over `edges`, both with
// NumPy's rule that the last bin includes its right edge.
NDArray histogram_bins(const NDArray& a, const NDArray& edges, const std::optional<UniformBins>& uniform);

// Counts (int64) or sums of `weights` (float64, complex128 for complex weights) per bin over
// `nbins` bins; bins outside [0, nbins), such as histogram_bins' -1, are skipped.
NDArray count_bins(const NDArray& bins, int64_t nbins, const NDArray* weights = nullptr);

}  // namespace cuarray
