#include "runtime/memory/host_copy_workers.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace cuarray::runtime {
namespace {

class HostCopyWorkers {
 public:
  explicit HostCopyWorkers(int n) {
    for (int i = 0; i < n; ++i) threads_.emplace_back([this, i] { loop(i); });
  }
  int size() const { return static_cast<int>(threads_.size()); }

  // Copies part 0 on the calling thread and parts 1..n on the workers, then waits for them.
  void run(char* dst, const char* src, size_t nbytes) {
    // Parts of ceil(nbytes / parts) rounded up to 64 bytes cover every byte: rounding the floor
    // up lost the tail of a size such as 2**20 + 7 (1-byte dtypes) whose floor is a multiple of 64.
    const size_t parts = threads_.size() + 1;
    const size_t part = ((nbytes + parts - 1) / parts + 63) & ~size_t(63);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      dst_ = dst;
      src_ = src;
      nbytes_ = nbytes;
      part_ = part;
      pending_ = static_cast<int>(threads_.size());
      ++generation_;
    }
    wake_.notify_all();
    std::memcpy(dst, src, std::min(part, nbytes));
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  void loop(int index) {
    unsigned long seen = 0;
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      size_t begin = std::min(nbytes_, part_ * static_cast<size_t>(index + 1));
      size_t end = std::min(nbytes_, begin + part_);
      char* dst = dst_;
      const char* src = src_;
      lock.unlock();
      if (end > begin) std::memcpy(dst + begin, src + begin, end - begin);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  size_t nbytes_ = 0, part_ = 0;
  int pending_ = 0;
  unsigned long generation_ = 0;
};

}  // namespace

void parallel_memcpy(void* dst, const void* src, size_t nbytes) {
  constexpr size_t kSerialBelow = 1 << 20;
  static HostCopyWorkers* workers = [] {
    // Up to 8 copying threads (one of them the caller): pageable memory, page faults included,
    // moves at a few GB/s per core.
    int n = static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency() / 2))) - 1;
    auto* w = new HostCopyWorkers(std::max(n, 0));  // detached for the process: no join at exit
    return w;
  }();
  if (nbytes < kSerialBelow || workers->size() == 0) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  static std::mutex one_at_a_time;  // the workers serve one copy at a time
  std::lock_guard<std::mutex> lock(one_at_a_time);
  workers->run(static_cast<char*>(dst), static_cast<const char*>(src), nbytes);
}

}  // namespace cuarray::runtime
