#include "runtime/streams/foreign_work.hpp"

#include "cuarray/runtime.hpp"

namespace cuarray::runtime {

// Held launches go first, for every device: the foreign work may wait on an event or a stream
// that another device's held launches feed.
ForeignWork::ForeignWork(int device) : on_device_((flush_launches(), device)) {}

}  // namespace cuarray::runtime
