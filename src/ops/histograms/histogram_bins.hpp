// The binning kernel of digitize and the histograms: one thread per value, one rule from
// src/kernels/bins.cuh.
#pragma once
#include <optional>
#include <string>

#include "cuarray/histograms.hpp"

namespace cuarray::ops {

enum class BinRule : uint8_t {
  Uniform,          // np.histogram's equal-width arithmetic (UniformBins)
  HistogramSearch,  // np.histogram with given edges: binary search, last bin closed, -1 outside
  DigitizeLeft,     // np.digitize(right=True): searchsorted side='left'
  DigitizeRight,    // np.digitize(right=False): searchsorted side='right'
};

inline constexpr const char* kBinsKernelName = "cuarray_bins";

// `uniform` gives the dtypes of the Uniform rule's arithmetic; `reversed` searches the edges back
// to front and counts from the end (np.digitize with decreasing bins).
std::string bins_source(BinRule rule, DType x, DType edges, const std::optional<UniformBins>& uniform, bool reversed);

}  // namespace cuarray::ops
