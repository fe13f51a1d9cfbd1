// Makes a device's primary context current on the calling thread before driver calls.
#pragma once

namespace cuarray::runtime {

// Cheap when the device is already active on this thread (one thread-local compare).
void activate(int device);

// CudaRuntime "invalid device ordinal N (K device(s) present)" unless 0 <= device < device_count():
// the one wording every check of a device id shares.
void check_device_ordinal(int device);

// Activates `device` for a scope, then gives the thread back the context it had: for work done on
// another device's behalf in the middle of a caller's driver calls (submitting held launches).
class ScopedActivation {
 public:
  explicit ScopedActivation(int device);
  ~ScopedActivation();
  ScopedActivation(const ScopedActivation&) = delete;
  ScopedActivation& operator=(const ScopedActivation&) = delete;

 private:
  int previous_;
};

}  // namespace cuarray::runtime
