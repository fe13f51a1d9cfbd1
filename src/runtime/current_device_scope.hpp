// Makes a device the calling thread's current one for a scope (current_device(), the current
// stream and new allocations follow it), then restores the previous one, also when the scope
// ends by an exception. (runtime::ScopedActivation is the driver-context counterpart.)
#pragma once
#include "cuarray/runtime.hpp"

namespace cuarray::runtime {

class CurrentDeviceScope {
 public:
  explicit CurrentDeviceScope(int device) : previous_(current_device()) {
    if (device != previous_) set_current_device(device);
  }
  ~CurrentDeviceScope() {
    if (current_device() == previous_) return;
    try {
      set_current_device(previous_);
    } catch (...) {  // destructors must not throw; the previous id was valid when it was set
    }
  }
  CurrentDeviceScope(const CurrentDeviceScope&) = delete;
  CurrentDeviceScope& operator=(const CurrentDeviceScope&) = delete;

 private:
  int previous_;
};

}  // namespace cuarray::runtime
