// Stream-ordered memory from the driver's memory pools (allocate_stream_ordered, the pool calls;
// docs/memory.md). The argument checks run without a GPU; the allocations need one.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuarray/ndarray.hpp"
#include "cuarray/runtime.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"

using namespace cuarray;

namespace {

constexpr int kReleaseThreshold = 4, kReservedMemCurrent = 5, kUsedMemCurrent = 7;  // CUmemPool_attribute

NDArray floats_in(const std::shared_ptr<Buffer>& buffer, int64_t n) {
  return view_of_buffer(buffer, 0, Shape{n}, DType::Float32, std::nullopt);
}

}  // namespace

TEST(StreamOrderedMemory, BadArgumentsFailBeforeTheDriver) {
  using test::expect_error;
  char* fake = reinterpret_cast<char*>(uintptr_t{1} << 40);  // never dereferenced
  expect_error(ErrorKind::Value, "free_on_stream: the memory is not from a stream-ordered pool",
               [&] { free_on_stream(wrap_unowned(fake, 64, 0, nullptr), nullptr); });
  expect_error(ErrorKind::CudaRuntime, "cudaErrorInvalidValue: unknown memory pool attribute 9",
               [] { mem_pool_attribute(nullptr, 9); });
  expect_error(ErrorKind::CudaRuntime, "cudaErrorInvalidValue: unknown memory pool attribute 0",
               [] { set_mem_pool_attribute(nullptr, 0, 1); });
  expect_error(ErrorKind::CudaRuntime, "cudaErrorInvalidValue: a null memory pool",
               [] { trim_mem_pool(nullptr, 0); });
}

TEST(StreamOrderedMemory, HoldsAnArrayAndCountsInItsPool) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const int device = current_device();
  MemPoolHandle pool = default_mem_pool(device);
  const uint64_t used_before = mem_pool_attribute(pool, kUsedMemCurrent);
  {
    std::shared_ptr<Buffer> buffer = allocate_stream_ordered(4096, device, current_stream_handle(), pool);
    EXPECT_EQ(buffer->size(), 4096u);
    EXPECT_GE(mem_pool_attribute(pool, kUsedMemCurrent), used_before + 4096);
    EXPECT_GE(mem_pool_attribute(pool, kReservedMemCurrent), mem_pool_attribute(pool, kUsedMemCurrent));
    NDArray a = floats_in(buffer, 3);
    a.assign(test::device_array<float>({1.5f, -2.f, 3.25f}, Shape{3}));
    test::expect_array<float>(a, DType::Float32, Shape{3}, {1.5f, -2.f, 3.25f});
  }
  current_stream()->synchronize();  // the free is queued on the stream
  EXPECT_EQ(mem_pool_attribute(pool, kUsedMemCurrent), used_before);
  EXPECT_EQ(allocate_stream_ordered(0, device, nullptr)->ptr(), nullptr);
}

TEST(StreamOrderedMemory, OutlivesTheStreamItWasMadeOn) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const int device = current_device();
  std::shared_ptr<Buffer> buffer;
  {
    std::shared_ptr<Stream> stream = Stream::create(/*non_blocking=*/true);
    buffer = allocate_stream_ordered(1 << 20, device, stream->handle());
    memset_device(buffer->ptr(), 0x3f, buffer->size(), stream->handle());
    stream->synchronize();
  }  // the stream is gone: the buffer is freed on the legacy stream instead
  std::vector<uint8_t> host(buffer->size());
  copy_device_to_host(host.data(), buffer->ptr(), host.size(), nullptr);
  EXPECT_EQ(host.front(), 0x3f);
  EXPECT_EQ(host.back(), 0x3f);
  buffer.reset();
  Stream::null_stream()->synchronize();
}

TEST(StreamOrderedMemory, PoolAttributesAndCurrentPool) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const int device = current_device();
  MemPoolHandle pool = default_mem_pool(device);
  const uint64_t threshold = mem_pool_attribute(pool, kReleaseThreshold);
  set_mem_pool_attribute(pool, kReleaseThreshold, 1 << 20);
  EXPECT_EQ(mem_pool_attribute(pool, kReleaseThreshold), uint64_t{1} << 20);
  set_mem_pool_attribute(pool, kReleaseThreshold, threshold);
  set_mem_pool_attribute(pool, 3, 0);  // a reuse policy: an int attribute
  EXPECT_EQ(mem_pool_attribute(pool, 3), 0u);
  set_mem_pool_attribute(pool, 3, 1);
  EXPECT_EQ(mem_pool_attribute(pool, 3), 1u);
  set_current_mem_pool(device, pool);
  EXPECT_EQ(current_mem_pool(device), pool);
  trim_mem_pool(pool, 0);
}
