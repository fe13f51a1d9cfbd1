// What runs when a stream cuarray created is destroyed: caches keyed by a stream's handle (the
// library plan caches) drop what they hold for it, because the driver may hand the same handle
// value to the next stream created.
#pragma once
#include "cuarray/runtime.hpp"

namespace cuarray::runtime {

// Called with the stream's device active, after the stream's work is done and before
// cuStreamDestroy: a hook may destroy library handles bound to the stream.
using StreamReleaseHook = void (*)(int device, StreamHandle stream) noexcept;

void on_stream_release(StreamReleaseHook hook);  // registers `hook` for every later release
void run_stream_release_hooks(int device, StreamHandle stream) noexcept;  // Stream::~Stream calls it

}  // namespace cuarray::runtime
