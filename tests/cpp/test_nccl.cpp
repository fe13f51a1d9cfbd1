// The NCCL tenant: every listed symbol resolves in the libnccl found (no GPU needed), a missing
// library's error names it, where it looked and the pip command, NVLink multicast is switched off
// before the library loads, and, on a GPU, a one-rank communicator's collectives.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/nccl.hpp"
#include "device_arrays.hpp"
#include "expect_missing_library.hpp"
#include "gpu_test.hpp"
#include "libs/nccl.hpp"
#include "runtime/shared_library.hpp"

namespace cuarray {
namespace {

// Wherever the library layer finds libnccl (the toolkit, an nvidia-nccl wheel, the loader path): the
// GPU machine has it only as a wheel.
bool nccl_loadable() { return nccl::available(); }

TEST(NcclLibrary, EveryListedFunctionResolvesAndNvlsIsOff) {
  if (!nccl_loadable()) GTEST_SKIP() << "libnccl cannot be loaded here (no toolkit copy, no nvidia-nccl wheel)";
  const bool user_set = std::getenv("NCCL_NVLS_ENABLE") != nullptr;
  const libs::NcclApi& api = libs::nccl();
  EXPECT_NE(api.ncclCommInitAll, nullptr);
  EXPECT_NE(api.ncclGroupEnd, nullptr);
  if (!user_set) {
    ASSERT_NE(std::getenv("NCCL_NVLS_ENABLE"), nullptr);
    EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "0");
  }
  EXPECT_GE(nccl::version(), 20000);  // NCCL 2.x: major * 10000 + minor * 100 + patch
  EXPECT_TRUE(nccl::available());
}

TEST(NcclLibrary, UniqueIdsDiffer) {
  if (!nccl_loadable()) GTEST_SKIP() << "libnccl cannot be loaded here (no toolkit copy, no nvidia-nccl wheel)";
  // ncclGetUniqueId needs a network interface, not a GPU.
  EXPECT_NE(nccl::unique_id(), nccl::unique_id());
}

TEST(NcclLibrary, MissingLibraryErrorNamesItWhereAndHow) {
  runtime::LibrarySpec spec = libs::nccl_library_spec();
  EXPECT_STREQ(spec.title, "NCCL");
  EXPECT_STREQ(spec.wheel, "nccl");
  ASSERT_FALSE(spec.sonames.empty());
  EXPECT_EQ(spec.sonames.front(), "libnccl.so.2");
  test::expect_missing_library_error(spec, "libnccl.so.0-not-there", "nvidia-nccl-cu13");
}

TEST(NcclLibrary, SearchesTheNcclWheelDirectory) {
  const char* saved = std::getenv("PYTHONPATH");
  const std::string previous = saved ? saved : "";
  setenv("PYTHONPATH", "/tmp/cuarray-fake-site-packages", 1);
  const std::vector<std::string> dirs = runtime::library_search_dirs(libs::nccl_library_spec());
  if (saved) setenv("PYTHONPATH", previous.c_str(), 1);
  else unsetenv("PYTHONPATH");
  // nvidia-nccl-cu12 and -cu13 both install into <sp>/nvidia/nccl/lib.
  EXPECT_NE(std::find(dirs.begin(), dirs.end(), "/tmp/cuarray-fake-site-packages/nvidia/nccl/lib"), dirs.end());
}

TEST(NcclLibrary, FailedCallCarriesStatus) {
  if (!nccl_loadable()) GTEST_SKIP() << "libnccl cannot be loaded here (no toolkit copy, no nvidia-nccl wheel)";
  try {
    libs::check_nccl(ncclInvalidArgument, "ncclAllReduce");
    FAIL() << "no error";
  } catch (const nccl::NcclError& e) {
    EXPECT_EQ(e.status(), ncclInvalidArgument);
    EXPECT_NE(std::string(e.what()).find("NCCL ncclAllReduce failed: "), std::string::npos) << e.what();
  }
}

constexpr int kFloat32 = 7, kSum = 0, kMax = 2;  // ncclFloat32, ncclSum, ncclMax

TEST(NcclCommunicator, OneRankCollectives) {
  CUARRAY_SKIP_WITHOUT_GPU();
  nccl::Communicator comm(1, nccl::unique_id(), 0);
  EXPECT_EQ(comm.size(), 1);
  EXPECT_EQ(comm.rank(), 0);
  EXPECT_EQ(comm.device(), current_device());
  const std::vector<float> values = {1.5f, -2.25f, 3.0f, 7.75f, -0.5f, 11.0f};
  NDArray in = test::device_array(values);
  const auto ptr = [](const NDArray& a) { return reinterpret_cast<uintptr_t>(a.data()); };
  const auto stream = reinterpret_cast<uintptr_t>(current_stream_handle());

  NDArray out = test::device_array(std::vector<float>(6, 0.0f));
  comm.all_reduce(ptr(in), ptr(out), 6, kFloat32, kSum, stream);
  EXPECT_EQ(test::host_values<float>(out), values);

  NDArray reduced = test::device_array(std::vector<float>(6, 0.0f));
  comm.reduce(ptr(in), ptr(reduced), 6, kFloat32, kMax, 0, stream);
  EXPECT_EQ(test::host_values<float>(reduced), values);

  NDArray gathered = test::device_array(std::vector<float>(6, 0.0f));
  comm.all_gather(ptr(in), ptr(gathered), 6, kFloat32, stream);
  EXPECT_EQ(test::host_values<float>(gathered), values);

  NDArray scattered = test::device_array(std::vector<float>(6, 0.0f));
  comm.reduce_scatter(ptr(in), ptr(scattered), 6, kFloat32, kSum, stream);
  EXPECT_EQ(test::host_values<float>(scattered), values);

  NDArray copied = test::device_array(std::vector<float>(6, 0.0f));
  nccl::group_start();
  comm.send(ptr(in), 6, kFloat32, 0, stream);
  comm.recv(ptr(copied), 6, kFloat32, 0, stream);
  nccl::group_end();
  EXPECT_EQ(test::host_values<float>(copied), values);

  comm.destroy();
  EXPECT_EQ(comm.handle(), 0u);
  EXPECT_THROW(comm.size(), nccl::NcclError);
  comm.destroy();  // a second destroy does nothing
}

TEST(NcclCommunicator, InitAllOnDeviceZero) {
  CUARRAY_SKIP_WITHOUT_GPU();
  std::vector<nccl::Communicator> comms = nccl::Communicator::init_all({0});
  ASSERT_EQ(comms.size(), 1u);
  EXPECT_EQ(comms[0].device(), 0);
  EXPECT_EQ(comms[0].size(), 1);
  const std::vector<float> values = {4.0f, -1.0f, 0.25f};
  NDArray buffer = test::device_array(values);
  NDArray out = test::device_array(std::vector<float>(3, 0.0f));
  comms[0].broadcast(reinterpret_cast<uintptr_t>(buffer.data()), reinterpret_cast<uintptr_t>(out.data()), 3,
                     kFloat32, 0, reinterpret_cast<uintptr_t>(current_stream_handle()));
  EXPECT_EQ(test::host_values<float>(out), values);
}

}  // namespace
}  // namespace cuarray
