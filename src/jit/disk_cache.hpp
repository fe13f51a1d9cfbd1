// The on-disk kernel cache: one file per compiled kernel, named by a hash of everything that went
// into it, written atomically and checked on read (see docs/jit.md).
#pragma once
#include <functional>
#include <string>

namespace cuarray::jit {

// $CUARRAY_CACHE_DIR, else $XDG_CACHE_HOME/cuarray, else ~/.cache/cuarray.
std::string cache_dir();

// The CUBIN for `key_text` (everything that went into it: source, options, NVRTC version, arch):
// from the cache, else from `compile()`, stored. A cache file that fails its checks is compiled
// again; failures to store (read-only dir, full disk) are ignored: the cache is an optimisation. Processes and threads
// that miss the same kernel at once (pytest-xdist workers, a pool started together) take turns on
// a lock file of that kernel and look again before compiling, so one of them compiles and the
// others read its file. The lock is flock(): the kernel releases it if its holder dies. Where no
// lock can be taken (read-only cache, a file system without flock) each compiles on its own.
std::string cached_cubin(const std::string& key_text, const std::function<std::string()>& compile);

}  // namespace cuarray::jit
