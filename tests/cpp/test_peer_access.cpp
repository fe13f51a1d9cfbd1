// Peer access queries: negative ordinals fail the same way with or without a GPU; the rest needs one.
#include <gtest/gtest.h>

#include "cuarray/peer_access.hpp"
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

}  // namespace
}  // namespace cuarray
