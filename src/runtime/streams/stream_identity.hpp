// What identifies a stream to state kept per stream (the pool's free lists, the plan caches): its
// handle, except for the per-thread default stream (CU_STREAM_PER_THREAD, CuPy's Stream.ptds),
// whose one handle names a different stream in every thread. That one is identified per thread by
// an odd number from a counter (a stream handle is an aligned pointer, and 1 and 3 are not used),
// never reused, unlike a thread-local's address once its thread has exited.
#pragma once
#include <cuda.h>

#include <atomic>
#include <cstdint>

#include "cuarray/runtime.hpp"

namespace cuarray::runtime {

inline StreamHandle stream_identity(StreamHandle stream) {
  if (stream != CU_STREAM_PER_THREAD) return stream;
  static std::atomic<uintptr_t> next_thread{2};
  thread_local const uintptr_t key = next_thread.fetch_add(1, std::memory_order_relaxed) * 2 + 1;
  return reinterpret_cast<StreamHandle>(key);
}

}  // namespace cuarray::runtime
