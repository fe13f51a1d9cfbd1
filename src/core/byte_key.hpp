// A small fixed-capacity byte string used as a cache key: the kernel cache (jit::KernelKey) and the
// library plan cache (libs::PlanKey) describe what they look up as a handful of bytes, so a lookup
// hashes and compares inline storage and never allocates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace cuarray {

template <size_t Capacity>
class ByteKey {
  static_assert(Capacity < 256, "the size is kept in one byte");

 public:
  static constexpr size_t kCapacity = Capacity;

  ByteKey& push(uint8_t v) {
    // A key that outgrew its capacity would silently alias another; fail loudly instead.
    if (size_ == Capacity) throw std::length_error("cache key longer than its capacity");
    bytes_[size_++] = v;
    return *this;
  }
  ByteKey& push_u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) push(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  uint8_t operator[](size_t i) const { return bytes_[i]; }
  size_t size() const { return size_; }

  bool operator==(const ByteKey& o) const { return size_ == o.size_ && std::memcmp(bytes_, o.bytes_, size_) == 0; }
  size_t hash() const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ size_;
    for (int i = 0; i < size_; ++i) h = (h ^ bytes_[i]) * 0x100000001b3ull;
    return static_cast<size_t>(h);
  }
  struct Hash {
    size_t operator()(const ByteKey& k) const { return k.hash(); }
  };

 private:
  uint8_t bytes_[Capacity] = {};
  uint8_t size_ = 0;
};

}  // namespace cuarray
