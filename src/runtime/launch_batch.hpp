// Every launch of cuarray's own kernels goes through launch(): small launches are held per device
// and submitted together as one CUDA graph, since the driver spends 3-4 µs of CPU on each
// cuLaunchKernel but about 0.4 µs on a graph node (docs/launch-batching.md). Everything that puts
// other work into a stream, waits for one, or lets other code see device memory flushes first, so
// the device still receives all work in program order.
#pragma once
#include <cuda.h>

#include "cuarray/runtime.hpp"

namespace cuarray::runtime {

struct LaunchDims {
  LaunchDims(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  unsigned x, y, z;
};

// Launches cuarray kernel `f` on the current stream of the current device; `args` as
// cuLaunchKernel's kernelParams. A small launch may be held until the next flush.
void launch(CUfunction f, LaunchDims grid, LaunchDims block, void** args, unsigned shared_bytes = 0);

// Called by every Buffer whose address other code holds (NDArray::data(), memory imported from
// other libraries): launches are not held while any such buffer lives.
void note_shared_buffer(int delta);

}  // namespace cuarray::runtime
