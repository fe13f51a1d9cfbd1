// Hooks between streams, the memory pool and the allocators that are not part of the public API.
#pragma once
#include <atomic>

#include "cuarray/runtime.hpp"

namespace cuarray {
// Moves the cached blocks freed on a (synchronized, dying) stream to the null stream's list.
void rehome_stream_blocks(int device, StreamHandle stream);
// A buffer that owns `ptr` from cuMemAlloc or cuMemAllocManaged and gives it back with cuMemFree.
std::shared_ptr<Buffer> adopt_device_allocation(void* ptr, size_t nbytes, int device);
// Whether `buffer` is stream-ordered memory (allocate_stream_ordered): a capture leaves it to the
// graph's own memory nodes.
bool is_stream_ordered(const Buffer& buffer);
namespace runtime {
// While any stream captures: memory allocated for work on a capturing stream is kept by the graph
// the capture makes (stream_capture.cpp). Every allocation reads the count: one relaxed load.
extern std::atomic<int> g_active_captures;
inline bool captures_active() { return g_active_captures.load(std::memory_order_relaxed) > 0; }
void keep_for_capture(int device, StreamHandle stream, const std::shared_ptr<Buffer>& buffer);
}  // namespace runtime
}  // namespace cuarray
