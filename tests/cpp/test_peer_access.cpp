// Peer access queries: negative ordinals fail the same way with or without a GPU; the rest needs one.
// Moves between devices (to_device) need two.
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/peer_access.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"

namespace cuarray {
namespace {

using test::expect_error;

TEST(PeerAccess, NegativeOrdinalsBeforeTheDriver) {
  expect_error(ErrorKind::CudaRuntime, "invalid device ordinal -1", [] { device_can_access_peer(-1, 0); });
  expect_error(ErrorKind::CudaRuntime, "invalid peer device ordinal -2", [] { device_can_access_peer(0, -2); });
  expect_error(ErrorKind::CudaRuntime, "invalid peer device ordinal -1", [] { device_enable_peer_access(-1); });
}

TEST(PeerAccess, SameDeviceAndOutOfRange) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const int n = device_count();
  for (int d = 0; d < n; ++d) EXPECT_FALSE(device_can_access_peer(d, d));
  const std::string present = " (" + std::to_string(n) + " device(s) present)";
  expect_error(ErrorKind::CudaRuntime, ("invalid peer device ordinal " + std::to_string(n) + present).c_str(),
               [&] { device_can_access_peer(0, n); });
  expect_error(ErrorKind::CudaRuntime, "cannot enable peer access from device 0 to itself (cudaErrorInvalidDevice)",
               [] { device_enable_peer_access(0); });
}

TEST(PeerAccess, SymmetricBetweenTwoDevices) {
  CUARRAY_SKIP_WITHOUT_GPU();
  if (device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  // Peer capability comes from the link (NVLink, or a PCIe switch both sit under): it goes both ways.
  EXPECT_EQ(device_can_access_peer(0, 1), device_can_access_peer(1, 0));
}

TEST(PeerCopy, ToDeviceBothWaysKeepsAContiguousLayout) {
  CUARRAY_SKIP_WITHOUT_GPU();
  if (device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  const int previous = current_device();
  std::vector<float> values(6 * 5), transposed(values.size());
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f - 3.0f;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 5; ++c) transposed[c * 6 + r] = values[r * 5 + c];
  for (int src : {0, 1}) {
    const int dst = 1 - src;
    set_current_device(src);
    const NDArray a = test::device_array(values, Shape{6, 5});
    const NDArray at = a.transpose();  // F-contiguous
    set_current_device(previous);
    EXPECT_EQ(to_device(a, src).raw_data(), a.raw_data());  // already there: the array itself
    const NDArray moved = to_device(a, dst), moved_t = to_device(at, dst), as_c = to_device(at, dst, Order::C);
    EXPECT_EQ(moved.device(), dst);
    EXPECT_TRUE(moved.c_contiguous());
    EXPECT_TRUE(moved_t.f_contiguous() && !moved_t.c_contiguous());
    EXPECT_TRUE(as_c.c_contiguous());
    test::expect_array(moved, DType::Float32, {6, 5}, values);
    test::expect_array(moved_t, DType::Float32, {5, 6}, transposed);
    test::expect_array(as_c, DType::Float32, {5, 6}, transposed);
  }
  set_current_device(previous);
}

}  // namespace
}  // namespace cuarray
