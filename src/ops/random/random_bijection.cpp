#include "ops/random/random_bijection.hpp"

#include <algorithm>
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/runtime.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "ops/engines/launch_config.hpp"
#include "runtime/launch.hpp"

namespace cuarray::random {

std::string random_bijection_source() {
  std::string s;
  s += kernels::prelude_cuh;
  s += kernels::random_stream_cuh;
  s += kernels::feistel_bijection_cuh;
  s += kernels::random_bijection_cuh;
  return s;
}

void fill_bijection_prefix(const NDArray& out, uint64_t n, uint64_t key, uint64_t counter) {
  const int64_t k = out.size();
  if (k == 0) return;
  activate_current_device({&out});
  const runtime::Kernel f = jit::get_kernel(jit::KernelKey(jit::KernelFamily::RandomBijection), [] {
    return jit::KernelSource{random_bijection_source(), "cuarray_random_bijection"};
  });
  // A few resident blocks per multiprocessor: each thread then walks ~k / threads elements in turn,
  // which keeps its warp's lanes busy (random_bijection.cuh); the values do not depend on the grid.
  const int64_t blocks_cap = static_cast<int64_t>(device_properties(out.device()).multiprocessor_count) * 4;
  const unsigned blocks = static_cast<unsigned>(
      std::clamp<int64_t>((k + ops::kBlockThreads - 1) / ops::kBlockThreads, 1, blocks_cap));
  runtime::launch(f, {blocks, ops::kBlockThreads}, out.raw_data(), static_cast<uint64_t>(k), n, key, counter);
}

}  // namespace cuarray::random
