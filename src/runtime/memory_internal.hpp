// Hooks between streams and the memory pool that are not part of the public API.
#pragma once
#include "cuarray/runtime.hpp"

namespace cuarray {
// Moves the cached blocks freed on a (synchronized, dying) stream to the null stream's list.
void rehome_stream_blocks(int device, StreamHandle stream);
}  // namespace cuarray
