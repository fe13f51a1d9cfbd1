// The one-pass kernel of numpy.pad's index-mapped modes (src/kernels/pad.cuh).
#pragma once
#include <string>

#include "cuarray/pad.hpp"

namespace cuarray::ops {

// The kernel for `mode` moving raw words of `word_bytes` over `rank` dims (at least 1).
std::string pad_source(PadMode mode, int word_bytes, int rank, bool index64);

}  // namespace cuarray::ops
