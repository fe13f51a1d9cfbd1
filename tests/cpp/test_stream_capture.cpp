// Stream capture into CUDA graphs (begin_capture, end_capture, Graph; docs/graphs.md). The argument
// checks run without a GPU; the captures need one.
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/ndarray.hpp"
#include "cuarray/runtime.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"

using namespace cuarray;

namespace {

// Makes `stream` current for a scope.
struct CurrentStream {
  explicit CurrentStream(std::shared_ptr<Stream> stream) { set_current_stream(std::move(stream)); }
  ~CurrentStream() { set_current_stream(nullptr); }
};

}  // namespace

TEST(StreamCapture, BadArgumentsFailBeforeTheDriver) {
  using test::expect_error;
  expect_error(ErrorKind::CudaRuntime, "cannot capture on the default (legacy) stream", [] { begin_capture(nullptr, 2); });
  EXPECT_EQ(test::error_status([] { begin_capture(nullptr, 2); }), 900);  // cudaErrorStreamCaptureUnsupported
  expect_error(ErrorKind::Value, "stream capture mode must be 0 (global), 1 (thread-local) or 2 (relaxed), not 3",
               [] { begin_capture(reinterpret_cast<StreamHandle>(uintptr_t{0x1000}), 3); });
}

TEST(StreamCapture, ReplaysWithNewInputsAndKeepsItsMemory) {
  CUARRAY_SKIP_WITHOUT_GPU();
  std::shared_ptr<Stream> stream = Stream::create(/*non_blocking=*/true);
  CurrentStream current(stream);
  NDArray src = test::device_array<float>({1.5f, -2.f, 3.f, 4.25f});
  NDArray dst = empty(Shape{4}, DType::Float32);
  {
    NDArray warm = empty(Shape{4}, DType::Float32);  // a cached block for the capture's temporary
    warm.assign(src);
  }
  stream->synchronize();
  begin_capture(stream->handle(), 2);
  EXPECT_TRUE(is_capturing(stream->handle()));
  const char* temporary_address;
  {
    NDArray temporary = empty(Shape{4}, DType::Float32);
    temporary_address = temporary.raw_data();
    temporary.assign(src);
    dst.assign(temporary);
  }
  std::shared_ptr<Graph> graph = end_capture(stream->handle());
  EXPECT_FALSE(is_capturing(stream->handle()));
  // The temporary's memory stays with the graph: a new array of its size gets other memory.
  NDArray other = empty(Shape{4}, DType::Float32);
  EXPECT_NE(other.raw_data(), temporary_address);
  other.assign(test::device_array<float>({9.f, 9.f, 9.f, 9.f}));
  for (float shift : {0.f, 10.f}) {
    const std::vector<float> values{1.f + shift, 2.f + shift, 3.f + shift, 4.f + shift};
    src.assign(test::device_array<float>(values));
    graph->launch(stream->handle());
    stream->synchronize();
    test::expect_array<float>(dst, DType::Float32, Shape{4}, values);
  }
  test::expect_array<float>(other, DType::Float32, Shape{4}, {9.f, 9.f, 9.f, 9.f});
}
