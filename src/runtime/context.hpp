// Makes a device's primary context current on the calling thread before driver calls.
#pragma once

namespace cuarray::runtime {

// Cheap when the device is already active on this thread (one thread-local compare).
void activate(int device);

}  // namespace cuarray::runtime
