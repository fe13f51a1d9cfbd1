// A few persistent threads that split large host memcpy calls: one core copies pageable memory at
// roughly 10 GB/s, under PCIe's rate, so staging through pinned memory needs several.
#pragma once
#include <cstddef>

namespace cuarray::runtime {
void parallel_memcpy(void* dst, const void* src, size_t nbytes);
}  // namespace cuarray::runtime
