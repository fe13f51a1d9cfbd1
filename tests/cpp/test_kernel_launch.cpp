// The launch path on a GPU (skipped without one): a module loaded for a user knows its kernels'
// parameter layouts, launches through the typed path, refuses parameters that disagree with the
// kernel's signature, and when it unloads, launches of its kernels still held go out first.
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"
#include "gpu_test.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/launch.hpp"

using namespace cuarray;

namespace {

const jit::KernelSource kFill{R"(
extern "C" __global__ void fill(float* out, unsigned long long n, float value) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + (float)i;
}
)",
                              "fill"};

std::vector<float> on_host(const NDArray& a) {
  std::vector<float> v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

}  // namespace

TEST(KernelLaunch, TypedLaunchAgainstTheLayout) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const auto module = jit::load_module(kFill);
  const runtime::Kernel fill = module->kernel("fill");
  ASSERT_NE(fill.info, nullptr);
  EXPECT_EQ(fill.info->param_count, 3);
  EXPECT_EQ(fill.info->param_size[0], 8u);
  EXPECT_EQ(fill.info->param_size[1], 8u);
  EXPECT_EQ(fill.info->param_size[2], 4u);

  const int64_t n = 1000;
  NDArray out = empty(Shape{n}, DType::Float32);
  runtime::launch(fill, {4, 256}, out.raw_data(), static_cast<unsigned long long>(n), 0.5f);
  const std::vector<float> got = on_host(out);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 0.5f + static_cast<float>(i)) << i;

  // A 4-byte count where the kernel takes 8, and a missing parameter: refused, naming the kernel.
  EXPECT_THROW(runtime::launch(fill, {4, 256}, out.raw_data(), static_cast<unsigned>(n), 0.5f), Error);
  try {
    runtime::launch(fill, {4, 256}, out.raw_data(), static_cast<unsigned long long>(n));
    ADD_FAILURE() << "a launch with too few parameters went out";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel fill takes 3 parameters"), std::string::npos) << e.what();
  }
}

TEST(KernelLaunch, UnloadingSubmitsHeldLaunchesFirst) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const bool batching = launch_batching();
  set_launch_batching(true);
  NDArray out = empty(Shape{64}, DType::Float32);
  {
    auto module = jit::load_module(kFill);
    runtime::launch(module->kernel("fill"), {1, 64}, out.raw_data(), 64ull, 2.0f);
    EXPECT_GE(held_launches(current_device()), 1);  // small: held for the next graph
  }  // the module unloads here: its held launch must have gone out before
  EXPECT_EQ(held_launches(current_device()), 0);
  const std::vector<float> got = on_host(out);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], 2.0f + static_cast<float>(i)) << i;
  // Launches held after the unload build their graphs again.
  NDArray more = zeros(Shape{64}, DType::Float32);
  NDArray sum = more + more;
  EXPECT_EQ(on_host(sum)[7], 0.0f);
  set_launch_batching(batching);
}
