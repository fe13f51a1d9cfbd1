// The first k values of the call's Feistel permutation of [0, n) (src/kernels/random_bijection.cuh):
// choice without replacement in O(k) work, no sort.
#pragma once
#include <cstdint>
#include <string>

#include "cuarray/ndarray.hpp"

namespace cuarray::random {

std::string random_bijection_source();

// out (int64, C-contiguous, k elements; k <= n) = pi(0), ..., pi(k - 1) for the permutation keyed by
// the seed and the counter the call reserved.
void fill_bijection_prefix(const NDArray& out, uint64_t n, uint64_t key, uint64_t counter);

}  // namespace cuarray::random
