// Grid sizing for grid-stride kernels.
#pragma once
#include <algorithm>
#include <cstdint>


namespace cuarray::ops {

inline constexpr unsigned kBlockThreads = 256;

// One thread per work item (a vector of elements, or one element): short-lived blocks keep every
// multiprocessor's memory pipeline full better than a few long grid-stride loops (measured on an
// H200: x + y on 1e8 float64). The kernels still loop, for grids past the hardware limit.
inline unsigned grid_for(int64_t threads) {
  // Kernels count threads in 32 bits (global_thread, grid_threads): keep the grid under 2**31.
  constexpr int64_t kMaxBlocks = (int64_t{1} << 31) / kBlockThreads;
  const int64_t blocks = (threads + kBlockThreads - 1) / kBlockThreads;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(blocks, kMaxBlocks)));
}

// Blocks of kBlockThreads covering `n` items, one thread each, for kernels without a grid-stride
// loop (they return past the last item).
inline unsigned blocks_covering(int64_t n) {
  return static_cast<unsigned>(std::clamp<int64_t>((n + kBlockThreads - 1) / kBlockThreads, 1, 0x7fffffff));
}

}  // namespace cuarray::ops
