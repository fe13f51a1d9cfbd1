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

}  // namespace cuarray::jit
