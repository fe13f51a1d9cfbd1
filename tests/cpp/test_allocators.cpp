// The allocator hooks, memory of other origins and views on it (docs/memory.md), and the n-ary
// promotion of ufuncs of three inputs. The hooks and views run without a GPU on memory that is
// never touched; pools, raw and managed memory need one.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "cuarray/ndarray.hpp"
#include "cuarray/runtime.hpp"
#include "cuarray/ufunc.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"

using namespace cuarray;

namespace {

char* const kFakeAddress = reinterpret_cast<char*>(uintptr_t{1} << 40);  // never dereferenced

std::shared_ptr<Buffer> fake_buffer(size_t nbytes, int device = 0) {
  return wrap_unowned(kFakeAddress, nbytes, device, nullptr);
}

// Restores the default allocators when a test ends, whatever happened in it.
struct DefaultAllocatorsAfter {
  ~DefaultAllocatorsAfter() {
    set_device_allocator(nullptr);
    set_thread_device_allocator(nullptr);
    set_pinned_allocator(nullptr);
  }
};

}  // namespace

TEST(Allocators, ClipPromotesItsThreeInputsAtOnce) {
  // np.clip(int8, uint8, float16) is float16; a fold of pairs would give float32.
  const OperandType inputs[] = {{DType::Int8}, {DType::UInt8}, {DType::Float16}};
  const ops::LoopChoice choice = ops::resolve_loop(ufunc("_clip").index(), inputs, std::nullopt, Casting::SameKind);
  EXPECT_EQ(choice.loop->types[3], DType::Float16);
}

TEST(Allocators, ViewOfBufferLayouts) {
  const NDArray c = view_of_buffer(fake_buffer(256), 16, Shape{3, 4}, DType::Float32, std::nullopt, Order::C);
  EXPECT_EQ(c.strides(), (Strides{16, 4}));
  EXPECT_EQ(c.raw_data(), kFakeAddress + 16);
  EXPECT_TRUE(c.c_contiguous());
  const NDArray f = view_of_buffer(fake_buffer(256), 0, Shape{3, 4}, DType::Float64, std::nullopt, Order::F);
  EXPECT_EQ(f.strides(), (Strides{8, 24}));
  EXPECT_TRUE(f.f_contiguous());
  const NDArray r = view_of_buffer(fake_buffer(256), 200, Shape{4, 2}, DType::Int32, Strides{-48, 4});
  EXPECT_EQ(r.strides(), (Strides{-48, 4}));
  const NDArray e = view_of_buffer(fake_buffer(0), 0, Shape{0, 5}, DType::Int8, Strides{1000, 1});
  EXPECT_EQ(e.size(), 0);
}

TEST(Allocators, ViewOfBufferOutsideItsBufferFails) {
  using test::expect_error;
  expect_error(ErrorKind::Type, "buffer is too small for requested array",
               [] { view_of_buffer(fake_buffer(8), 0, Shape{3}, DType::Float32, std::nullopt); });
  expect_error(ErrorKind::Type, "buffer is too small for requested array",
               [] { view_of_buffer(fake_buffer(64), 60, Shape{3}, DType::Float32, std::nullopt); });
  expect_error(ErrorKind::Value, "strides is incompatible with shape of requested array and size of buffer",
               [] { view_of_buffer(fake_buffer(80), 0, Shape{3}, DType::Float32, Strides{40}); });
  expect_error(ErrorKind::Value, "strides is incompatible with shape of requested array and size of buffer",
               [] { view_of_buffer(fake_buffer(80), 4, Shape{3}, DType::Float32, Strides{-4}); });
  expect_error(ErrorKind::Value, "strides, if given, must be the same length as shape",
               [] { view_of_buffer(fake_buffer(80), 0, Shape{3}, DType::Float32, Strides{4, 4}); });
  expect_error(ErrorKind::Value, "negative dimensions are not allowed",
               [] { view_of_buffer(fake_buffer(80), 0, Shape{-3}, DType::Float32, std::nullopt); });
}

TEST(Allocators, UnownedBufferHoldsItsOwner) {
  auto owner = std::make_shared<int>(7);
  std::weak_ptr<int> watch = owner;
  std::shared_ptr<Buffer> b = wrap_unowned(kFakeAddress, 64, 0, owner);
  owner.reset();
  EXPECT_FALSE(watch.expired());
  EXPECT_TRUE(b->shared());  // its owner may enqueue work on it: no launch is held while it lives
  b.reset();
  EXPECT_TRUE(watch.expired());
}

TEST(Allocators, EveryArrayAllocationGoesThroughTheHook) {
  DefaultAllocatorsAfter restore;
  std::vector<size_t> sizes;
  set_device_allocator([&](size_t nbytes, int device, StreamHandle) {
    sizes.push_back(nbytes);
    return fake_buffer(nbytes, device);
  });
  const NDArray a = empty(Shape{3, 5}, DType::Float64);
  EXPECT_EQ(a.raw_data(), kFakeAddress);
  EXPECT_EQ(sizes, std::vector<size_t>{120});
  EXPECT_EQ(allocate_device(10, current_device(), nullptr)->size(), 10u);
  EXPECT_EQ(sizes.size(), 2u);
}

TEST(Allocators, AThreadsAllocatorGoesAheadOfTheGlobalOne) {
  DefaultAllocatorsAfter restore;
  std::atomic<int> global_calls{0}, thread_calls{0};
  set_device_allocator([&](size_t nbytes, int device, StreamHandle) {
    ++global_calls;
    return fake_buffer(nbytes, device);
  });
  set_thread_device_allocator([&](size_t nbytes, int device, StreamHandle) {
    ++thread_calls;
    return fake_buffer(nbytes, device);
  });
  allocate_device(8, 0, nullptr);
  std::thread([] { allocate_device(8, 0, nullptr); }).join();
  EXPECT_EQ(thread_calls, 1);
  EXPECT_EQ(global_calls, 1);
  set_thread_device_allocator(nullptr);
  allocate_device(8, 0, nullptr);
  EXPECT_EQ(global_calls, 2);
}

TEST(Allocators, AHookReturningTooLittleFails) {
  DefaultAllocatorsAfter restore;
  set_device_allocator([](size_t nbytes, int device, StreamHandle) { return fake_buffer(nbytes / 2, device); });
  EXPECT_THROW(allocate_device(100, 0, nullptr), Error);
  set_device_allocator([](size_t, int, StreamHandle) { return std::shared_ptr<Buffer>(); });
  EXPECT_THROW(allocate_device(100, 0, nullptr), Error);
}

TEST(Allocators, PinnedHook) {
  DefaultAllocatorsAfter restore;
  int calls = 0;
  set_pinned_allocator([&](size_t nbytes) {
    ++calls;
    return std::shared_ptr<void>(std::malloc(nbytes), &std::free);
  });
  std::shared_ptr<void> block = allocate_pinned(4096);
  EXPECT_NE(block, nullptr);
  EXPECT_EQ(calls, 1);
}

// ---- GPU ----------------------------------------------------------------------------------------

TEST(Allocators, RawAndManagedMemoryHoldArrays) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const int device = current_device();
  for (auto buffer : {allocate_raw(48, device), allocate_managed(48, device)}) {
    NDArray a = view_of_buffer(buffer, 0, Shape{2, 3}, DType::Float64, std::nullopt);
    a.assign(test::device_array<double>({1.5, -2, 3, 4, 5.25, 6}, Shape{2, 3}));
    test::expect_array<double>(a, DType::Float64, Shape{2, 3}, {1.5, -2, 3, 4, 5.25, 6});
  }
}

TEST(Allocators, PoolWithItsOwnSource) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const int device = current_device();
  int blocks = 0;
  std::shared_ptr<MemoryPool> pool = MemoryPool::create(device, [&](size_t nbytes, int d) {
    ++blocks;
    return allocate_raw(nbytes, d);
  });
  {
    std::shared_ptr<Buffer> a = pool->allocate(1000, current_stream_handle());
    EXPECT_GE(pool->used_bytes(), 1000u);
  }
  std::shared_ptr<Buffer> b = pool->allocate(1000, current_stream_handle());  // the cached block again
  EXPECT_EQ(blocks, 1);
  pool.reset();  // the block keeps the pool's state alive until it returns
  b.reset();
}

TEST(Allocators, PerThreadDefaultStreamBlocksStayWithTheirThread) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // CU_STREAM_PER_THREAD names a different stream in every thread: a block freed on it by one
  // thread (its work maybe still pending) must not go to another thread's; its own thread reuses it.
  const auto per_thread = reinterpret_cast<StreamHandle>(0x2);  // CU_STREAM_PER_THREAD
  std::shared_ptr<MemoryPool> pool = MemoryPool::create(current_device(), [](size_t nbytes, int d) {
    return allocate_raw(nbytes, d);
  });
  const void* freed = nullptr;
  const void* reused = nullptr;
  const void* other = nullptr;
  std::thread([&] {
    std::shared_ptr<Buffer> a = pool->allocate(4096, per_thread);
    freed = a->ptr();
    a.reset();
    std::shared_ptr<Buffer> again = pool->allocate(4096, per_thread);
    reused = again->ptr();
    again.reset();
  }).join();
  std::thread([&] { other = pool->allocate(4096, per_thread)->ptr(); }).join();
  EXPECT_EQ(reused, freed);
  EXPECT_NE(other, freed);
}

TEST(Allocators, PoolSourceOutOfMemoryReleasesTheCacheAndRetries) {
  CUARRAY_SKIP_WITHOUT_GPU();
  int calls = 0;
  std::shared_ptr<MemoryPool> pool = MemoryPool::create(current_device(), [&](size_t nbytes, int d) {
    return ++calls == 2 ? nullptr : allocate_raw(nbytes, d);  // the second request finds the device full
  });
  pool->allocate(4096, current_stream_handle()).reset();  // one cached block of 4096
  EXPECT_EQ(pool->n_free_blocks(), 1);
  std::shared_ptr<Buffer> big = pool->allocate(1 << 20, current_stream_handle());
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(pool->n_free_blocks(), 0);  // released before the retry
}

TEST(Allocators, DeviceCopiesAndMemset) {
  CUARRAY_SKIP_WITHOUT_GPU();
  NDArray src = test::device_array<int32_t>({1, 2, 3, 4, 5, 6, 7, 8});
  NDArray dst = empty(Shape{8}, DType::Int32);
  copy_device_to_device(dst.data(), src.data(), 32, current_stream_handle());
  memset_device(dst.data() + 8, 0, 8, current_stream_handle());
  test::expect_array<int32_t>(dst, DType::Int32, Shape{8}, {1, 2, 0, 0, 5, 6, 7, 8});
}
