#include "runtime/memory/host_flag.hpp"

#include <mutex>
#include <vector>

#include "cuarray/runtime.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"

namespace cuarray::runtime {
namespace {

// Words handed to threads from pinned pages that live as long as the process. A thread gives
// its word back when it ends without calling the driver (driver calls from thread-exit
// destructors can deadlock against the driver's own teardown). Pinned host memory is mapped at the
// same address on every device under unified addressing (every 64-bit platform CUDA supports)
// and PORTABLE makes it usable from every context, so one word per thread serves all devices.
class WordPool {
 public:
  unsigned* take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) {
      void* page = nullptr;
      CU_CALL(cuMemHostAlloc, &page, kPageBytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
      // A cache line per word: threads on different cores never share one.
      for (size_t off = 0; off < kPageBytes; off += 64)
        free_.push_back(reinterpret_cast<unsigned*>(static_cast<char*>(page) + off));
    }
    unsigned* w = free_.back();
    free_.pop_back();
    return w;
  }
  void give(unsigned* w) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(w);
  }

 private:
  static constexpr size_t kPageBytes = 4096;
  std::mutex mutex_;
  std::vector<unsigned*> free_;
};

WordPool& pool() {
  static WordPool* p = new WordPool;  // never destroyed: threads may end after static destructors ran
  return *p;
}

struct ThreadWord {
  unsigned* word = nullptr;
  ~ThreadWord() {
    if (word) pool().give(word);
  }
};

}  // namespace

HostFlag::HostFlag(int device) : device_(device) {
  activate(device);  // a context must be current for the first page's allocation
  thread_local ThreadWord mine;
  if (!mine.word) mine.word = pool().take();
  word_ = mine.word;
  *static_cast<volatile unsigned*>(word_) = 0u;
}

bool HostFlag::raised() const {
  ForeignWork work(device_);
  CU_CALL(cuStreamSynchronize, reinterpret_cast<CUstream>(current_stream_handle()));
  return *static_cast<volatile unsigned*>(word_) != 0u;
}

}  // namespace cuarray::runtime
