// The on-disk kernel cache: one file per compiled kernel, named by a hash of everything that went
// into it, written atomically and checked on read (see docs/jit.md).
#pragma once
#include <optional>
#include <string>

namespace cuarray::jit {

// $CUARRAY_CACHE_DIR, else $XDG_CACHE_HOME/cuarray, else ~/.cache/cuarray.
std::string cache_dir();

// The CUBIN for (source, options, NVRTC version, arch), or nullopt if absent or corrupt.
std::optional<std::string> load_cached_cubin(const std::string& key_text);
// Stores a CUBIN; failures (read-only dir, full disk) are ignored: the cache is an optimisation.
void store_cached_cubin(const std::string& key_text, const std::string& cubin);

// The CUBIN for `key_text`: from the cache, else from `compile()`, stored. Processes and threads
// that miss the same kernel at once (pytest-xdist workers, a pool started together) take turns on
// a lock file of that kernel and look again before compiling, so one of them compiles and the
// others read its file. The lock is flock(): the kernel releases it if its holder dies. Where no
// lock can be taken (read-only cache, a file system without flock) each compiles on its own.
template <class Compile>
std::string cached_cubin(const std::string& key_text, Compile compile);

// The lock file of one kernel while it is held (no-op when it cannot be taken).
class CompileLock {
 public:
  explicit CompileLock(const std::string& key_text);
  ~CompileLock();
  CompileLock(const CompileLock&) = delete;
  CompileLock& operator=(const CompileLock&) = delete;
  bool held() const { return fd_ >= 0; }
  // Removes the lock file once the CUBIN is stored: a waiter on the removed file finds the CUBIN
  // when it gets its turn, and a later caller finds it before taking any lock.
  void retire();

 private:
  std::string path_;
  int fd_ = -1;
};

template <class Compile>
std::string cached_cubin(const std::string& key_text, Compile compile) {
  if (auto cached = load_cached_cubin(key_text)) return *cached;
  CompileLock lock(key_text);
  if (lock.held()) {
    if (auto cached = load_cached_cubin(key_text)) {  // compiled while we waited
      lock.retire();
      return *cached;
    }
  }
  std::string cubin = compile();
  store_cached_cubin(key_text, cubin);
  lock.retire();
  return cubin;
}

}  // namespace cuarray::jit
