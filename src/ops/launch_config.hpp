// Grid sizing for grid-stride kernels.
#pragma once
#include <algorithm>
#include <cstdint>

#include "cuarray/runtime.hpp"

namespace cuarray::ops {

inline constexpr unsigned kBlockThreads = 256;

// Enough blocks to fill every multiprocessor at full occupancy; grid-stride loops take the rest.
inline unsigned grid_for(int64_t threads, int device) {
  const int64_t blocks = (threads + kBlockThreads - 1) / kBlockThreads;
  const int64_t resident = static_cast<int64_t>(device_properties(device).multiprocessor_count) * 8;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(blocks, resident)));
}

}  // namespace cuarray::ops
