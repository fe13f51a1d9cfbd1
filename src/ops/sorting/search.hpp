// The kernel source of searchsorted and isin's membership test (also compiled by the NVRTC tests).
#pragma once
#include <cstdint>
#include <string>

#include "cuarray/dtype.hpp"

namespace cuarray::ops {

// What the search kernel writes per element of v: its int64 insertion point in `a` (through a
// sorter or not), or, for isin, whether it equals an element of `a` (bool; inverted by a flag).
enum class SearchOutput : uint8_t { Position, SorterPosition, Membership };
std::string searchsorted_source(DType dtype, SearchOutput output, bool index64);

}  // namespace cuarray::ops
