// Work that is not a launch of one of cuarray's kernels — a copy, an event, a wait, a call into a
// CUDA library — goes onto a stream only after the launches held before it (launch batching,
// docs/launch-batching.md): the guard submits those and makes the device's context current for
// its scope, so the foreign work keeps its place in program order. Every driver or library call
// that enqueues or waits on device work holds one; nothing else calls flush_launches() by hand.
#pragma once
#include "runtime/context.hpp"

namespace cuarray::runtime {

class ForeignWork {
 public:
  explicit ForeignWork(int device);
  ForeignWork(const ForeignWork&) = delete;
  ForeignWork& operator=(const ForeignWork&) = delete;

 private:
  ScopedActivation on_device_;
};

}  // namespace cuarray::runtime
