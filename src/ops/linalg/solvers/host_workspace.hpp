// The host half of a cuSOLVER generic routine's workspace, from cuarray's pinned pool (the
// routines copy between it and the device asynchronously). Most routines ask for none.
#pragma once
#include <cstddef>
#include <memory>

#include "cuarray/runtime.hpp"

namespace cuarray::linalg {

class HostWorkspace {
 public:
  explicit HostWorkspace(size_t bytes) {
    if (bytes > 0) memory_ = allocate_pinned(bytes);
  }
  void* data() const { return memory_.get(); }

 private:
  std::shared_ptr<void> memory_;
};

}  // namespace cuarray::linalg
