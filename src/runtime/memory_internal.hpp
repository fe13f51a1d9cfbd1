// Hooks between streams, the memory pool and the allocators that are not part of the public API.
#pragma once
#include "cuarray/runtime.hpp"

namespace cuarray {
// Moves the cached blocks freed on a (synchronized, dying) stream to the null stream's list.
void rehome_stream_blocks(int device, StreamHandle stream);
// A buffer that owns `ptr` from cuMemAlloc or cuMemAllocManaged and gives it back with cuMemFree.
std::shared_ptr<Buffer> adopt_device_allocation(void* ptr, size_t nbytes, int device);
}  // namespace cuarray
