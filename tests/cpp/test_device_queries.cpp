// Device queries behind cuarray.cuda.runtime's CuPy names (runtime.hpp): attributes, name, memory
// size, PCI bus id both ways, UUID, driver version. Without a driver every query throws CudaRuntime.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "cuarray/runtime.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"

namespace cuarray {
namespace {

using test::expect_error;

constexpr int kMultiProcessorCount = 16;  // cudaDevAttrMultiProcessorCount
constexpr int kComputeCapabilityMajor = 75;

TEST(DeviceQueries, AttributesAgreeWithTheCachedProperties) {
  CUARRAY_SKIP_WITHOUT_GPU();
  for (int d = 0; d < device_count(); ++d) {
    const DeviceProperties& p = device_properties(d);
    EXPECT_EQ(device_attribute(d, kMultiProcessorCount), p.multiprocessor_count);
    EXPECT_EQ(device_attribute(d, kComputeCapabilityMajor), p.major);
    EXPECT_EQ(device_name(d), p.name);
    EXPECT_EQ(device_total_memory(d), p.total_memory);
  }
}

TEST(DeviceQueries, PciBusIdBothWaysAndDistinctUuids) {
  CUARRAY_SKIP_WITHOUT_GPU();
  std::set<std::string> uuids;
  for (int d = 0; d < device_count(); ++d) {
    const std::string bus_id = device_pci_bus_id(d);
    EXPECT_TRUE(std::regex_match(bus_id, std::regex("[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f]")))
        << bus_id;
    EXPECT_EQ(device_by_pci_bus_id(bus_id), d);
    const std::string uuid = device_uuid(d);
    EXPECT_EQ(uuid.size(), 16u);
    uuids.insert(uuid);
  }
  EXPECT_EQ(uuids.size(), static_cast<size_t>(device_count()));
  EXPECT_GE(driver_version(), 12000);
}

TEST(DeviceQueries, BadQueriesThrowCudaRuntime) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const std::string past = std::to_string(device_count());
  expect_error(ErrorKind::CudaRuntime, ("invalid device ordinal " + past + " (" + past + " device(s) present)").c_str(),
               [] { device_attribute(device_count(), kMultiProcessorCount); });
  // The driver's own error follows the message, as every failed driver call reports it.
  expect_error(ErrorKind::CudaRuntime,
               "cudaErrorInvalidValue: device attribute 100000 is not one the driver knows "
               "(CUDA_ERROR_INVALID_VALUE: invalid argument)",
               [] { device_attribute(0, 100000); });
  expect_error(ErrorKind::CudaRuntime,
               "cudaErrorInvalidDevice: no device has the PCI bus id '0000:ff:1f.7' "
               "(CUDA_ERROR_INVALID_DEVICE: invalid device ordinal)",
               [] { device_by_pci_bus_id("0000:ff:1f.7"); });
  // Each carries CUDA's code (CuPy's .status); cudaError_t and CUresult number them alike.
  EXPECT_EQ(test::error_status([] { device_attribute(device_count(), kMultiProcessorCount); }), 101);
  EXPECT_EQ(test::error_status([] { device_attribute(0, 100000); }), 1);
  EXPECT_EQ(test::error_status([] { device_by_pci_bus_id("0000:ff:1f.7"); }), 101);
}

}  // namespace
}  // namespace cuarray
