// Non-cryptographic hashes for cache keys and file checksums.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cuarray::jit {

inline uint64_t fnv1a64(const void* data, size_t n, uint64_t seed = 0xcbf29ce484222325ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
inline uint64_t fnv1a64(std::string_view s, uint64_t seed = 0xcbf29ce484222325ull) {
  return fnv1a64(s.data(), s.size(), seed);
}

}  // namespace cuarray::jit
