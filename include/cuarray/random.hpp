// Random numbers from a counter-based Philox4x32-10 generator (cuarray.random in Python).
#pragma once
#include <cstdint>
#include <mutex>

#include "cuarray/ndarray.hpp"

namespace cuarray::random {

// Reproducible for a seed; each call draws from a fresh counter range, so calls are independent.
class Generator {
 public:
  explicit Generator(uint64_t seed) : seed_(seed) {}
  // Uniform in [0, 1); dtype float32 or float64.
  NDArray random(const Shape& shape, DType dtype = DType::Float64);
  void reseed(uint64_t seed);
  uint64_t seed() const { return seed_; }

 private:
  std::mutex mutex_;
  uint64_t seed_;
  uint64_t counter_ = 0;
};

// The generator behind cuarray.random.seed/random/rand/uniform; seeded from the OS at first use.
Generator& default_generator();
uint64_t fresh_seed();

}  // namespace cuarray::random
