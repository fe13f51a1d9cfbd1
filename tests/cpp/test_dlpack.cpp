// DLPack in C++ (cuarray/interop.hpp). Arrays over a host buffer that is never dereferenced, with
// no owner, export and import without a GPU: the tensors' fields, element strides, versions,
// flags, the deleter called exactly once, and the errors. Copies and streams need a GPU.
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/interop.hpp"
#include "device_arrays.hpp"
#include "gpu_test.hpp"

using namespace cuarray;

namespace {

alignas(256) char g_fake_data[4 * 5 * 8];

// A float64 (4, 5) C-order array over g_fake_data, on device 0 (no buffer: nothing is allocated).
NDArray fake_array() { return NDArray(nullptr, g_fake_data, Shape{4, 5}, Strides{40, 8}, DType::Float64); }

DLPackRequest no_sync(std::optional<DLPackVersion> max_version) {
  DLPackRequest r;
  r.max_version = max_version;
  r.stream = std::nullopt;
  return r;
}

std::vector<int64_t> values(const int64_t* p, int n) { return std::vector<int64_t>(p, p + n); }

// A tensor as another library hands it over; its deleter counts the calls.
struct ProducedTensor {
  DLManagedTensorVersioned managed{};
  std::vector<int64_t> shape, strides;
  int deleter_calls = 0;

  ProducedTensor(DLDevice device, DLDataType dtype, std::vector<int64_t> shape_, std::vector<int64_t> strides_,
                 void* data)
      : shape(std::move(shape_)), strides(std::move(strides_)) {
    managed.version = {1, 0};
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensorVersioned* self) { ++static_cast<ProducedTensor*>(self->manager_ctx)->deleter_calls; };
    DLTensor& t = managed.dl_tensor;
    t.data = data;
    t.device = device;
    t.ndim = static_cast<int32_t>(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
  }
};

template <class F>
void expect_kind(ErrorKind kind, F&& f) {
  try {
    f();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
  }
}

}  // namespace

TEST(DLPackTypes, EveryDtypeRoundTripsAndOthersAreRefused) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    const DLDataType d = to_dlpack_dtype(t);
    EXPECT_EQ(d.lanes, 1);
    EXPECT_EQ(d.bits, itemsize(t) * 8);
    EXPECT_EQ(dtype_from_dlpack(d), t) << dtype_name(t);
  }
  EXPECT_EQ(to_dlpack_dtype(DType::Bool).code, kDLBool);
  EXPECT_EQ(to_dlpack_dtype(DType::Complex64).code, kDLComplex);
  EXPECT_EQ(to_dlpack_dtype(DType::Complex64).bits, 64);
  EXPECT_EQ(to_dlpack_dtype(DType::Float16).code, kDLFloat);
  EXPECT_EQ(dtype_from_dlpack({kDLBfloat, 16, 1}), std::nullopt);
  EXPECT_EQ(dtype_from_dlpack({kDLFloat, 32, 4}), std::nullopt);
  EXPECT_EQ(dtype_from_dlpack({kDLUInt, 1, 1}), std::nullopt);
}

TEST(DLPackExport, VersionedViewOfNegativeAndZeroStrides) {
  // a[::-1, ::2] then a broadcast dim: element strides -5, 2 and 0.
  const NDArray base = fake_array();
  const NDArray view = base.view_as(Shape{4, 3, 2}, Strides{-40, 16, 0}, g_fake_data + 3 * 40);
  DLPackExport e = to_dlpack(view, no_sync(DLPackVersion{1, 1}));
  ASSERT_NE(e.versioned, nullptr);
  EXPECT_EQ(e.legacy, nullptr);
  const DLManagedTensorVersioned& m = *e.versioned;
  EXPECT_EQ(m.version.major, 1u);
  EXPECT_EQ(m.version.minor, 1u);
  EXPECT_EQ(m.flags, 0u);
  EXPECT_EQ(m.dl_tensor.data, g_fake_data + 3 * 40);
  EXPECT_EQ(m.dl_tensor.byte_offset, 0u);
  EXPECT_EQ(m.dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(m.dl_tensor.device.device_id, 0);
  EXPECT_EQ(m.dl_tensor.ndim, 3);
  EXPECT_EQ(values(m.dl_tensor.shape, 3), (std::vector<int64_t>{4, 3, 2}));
  EXPECT_EQ(values(m.dl_tensor.strides, 3), (std::vector<int64_t>{-5, 2, 0}));
  e.versioned->deleter(e.versioned);
}

TEST(DLPackExport, LegacyBelowVersionOneAndHighestMinorAbove) {
  DLPackExport legacy = to_dlpack(fake_array(), no_sync(std::nullopt));
  ASSERT_NE(legacy.legacy, nullptr);
  EXPECT_EQ(legacy.versioned, nullptr);
  legacy.legacy->deleter(legacy.legacy);
  DLPackExport old = to_dlpack(fake_array(), no_sync(DLPackVersion{0, 8}));
  ASSERT_NE(old.legacy, nullptr);
  old.legacy->deleter(old.legacy);
  for (DLPackVersion asked : {DLPackVersion{1, 99}, DLPackVersion{2, 0}}) {
    DLPackExport e = to_dlpack(fake_array(), no_sync(asked));
    ASSERT_NE(e.versioned, nullptr);
    EXPECT_EQ(e.versioned->version.major, 1u);
    EXPECT_EQ(e.versioned->version.minor, static_cast<uint32_t>(DLPACK_MINOR_VERSION));
    e.versioned->deleter(e.versioned);
  }
}

TEST(DLPackExport, ZeroDimAndSizeZero) {
  DLPackExport scalar = to_dlpack(fake_array().view_as(Shape{}, Strides{}, g_fake_data), no_sync(DLPackVersion{1, 0}));
  EXPECT_EQ(scalar.versioned->dl_tensor.ndim, 0);
  EXPECT_EQ(scalar.versioned->dl_tensor.data, g_fake_data);
  scalar.versioned->deleter(scalar.versioned);
  DLPackExport empty = to_dlpack(fake_array().view_as(Shape{4, 0}, Strides{40, 8}, g_fake_data), no_sync(DLPackVersion{1, 0}));
  EXPECT_EQ(empty.versioned->dl_tensor.data, nullptr);  // DLPack: null data for size-0 tensors
  EXPECT_EQ(values(empty.versioned->dl_tensor.shape, 2), (std::vector<int64_t>{4, 0}));
  empty.versioned->deleter(empty.versioned);
}

TEST(DLPackExport, RequestsItCannotServeAreBufferErrors) {
  DLPackRequest to_host = no_sync(DLPackVersion{1, 0});
  to_host.device = DLDevice{kDLCPU, 0};
  to_host.copy = CopyMode::Never;
  expect_kind(ErrorKind::Buffer, [&] { to_dlpack(fake_array(), to_host); });
  DLPackRequest opencl = no_sync(DLPackVersion{1, 0});
  opencl.device = DLDevice{kDLOpenCL, 0};
  expect_kind(ErrorKind::Buffer, [&] { to_dlpack(fake_array(), opencl); });
  DLPackRequest no_copy = no_sync(DLPackVersion{1, 0});
  no_copy.copy = CopyMode::Always;
  no_copy.device = DLDevice{kDLCUDA, 0};
  no_copy.copy = CopyMode::Never;
  DLPackExport same = to_dlpack(fake_array(), no_copy);  // same device, no copy needed: fine
  same.versioned->deleter(same.versioned);
  // A byte stride that is not a whole number of elements cannot be written in DLPack.
  const NDArray odd = fake_array().view_as(Shape{3}, Strides{12}, g_fake_data);
  expect_kind(ErrorKind::Buffer, [&] { to_dlpack(odd, no_sync(DLPackVersion{1, 0})); });
}

TEST(DLPackImport, CudaTensorIsViewedAndReleasedWithItsLastView) {
  ProducedTensor p({kDLCUDA, 0}, {kDLInt, 16, 1}, {3, 4}, {-4, 1}, g_fake_data + 8 * 2);
  {
    NDArray a = from_dlpack(&p.managed);
    EXPECT_EQ(a.dtype(), DType::Int16);
    EXPECT_EQ(a.shape(), (Shape{3, 4}));
    EXPECT_EQ(a.strides(), (Strides{-8, 2}));
    EXPECT_EQ(a.raw_data(), g_fake_data + 16);
    EXPECT_EQ(a.device(), 0);
    NDArray view = a.index(0, 1);
    a = NDArray();
    EXPECT_EQ(p.deleter_calls, 0);  // a view still holds the memory
  }
  EXPECT_EQ(p.deleter_calls, 1);
}

TEST(DLPackImport, NullStridesMeanCOrder) {
  ProducedTensor p({kDLCUDA, 0}, {kDLComplex, 64, 1}, {2, 3}, {}, g_fake_data);
  {
    NDArray a = from_dlpack(&p.managed);
    EXPECT_EQ(a.dtype(), DType::Complex64);
    EXPECT_EQ(a.strides(), (Strides{24, 8}));
  }
  EXPECT_EQ(p.deleter_calls, 1);
}

TEST(DLPackImport, RefusalsReleaseTheTensorOnce) {
  ProducedTensor bfloat({kDLCUDA, 0}, {kDLBfloat, 16, 1}, {3}, {1}, g_fake_data);
  expect_kind(ErrorKind::Buffer, [&] { from_dlpack(&bfloat.managed); });
  EXPECT_EQ(bfloat.deleter_calls, 1);

  ProducedTensor opencl({kDLOpenCL, 0}, {kDLFloat, 32, 1}, {3}, {1}, g_fake_data);
  expect_kind(ErrorKind::Buffer, [&] { from_dlpack(&opencl.managed); });
  EXPECT_EQ(opencl.deleter_calls, 1);

  ProducedTensor v2({kDLCUDA, 0}, {kDLFloat, 32, 1}, {3}, {1}, g_fake_data);
  v2.managed.version = {2, 0};
  expect_kind(ErrorKind::Buffer, [&] { from_dlpack(&v2.managed); });
  EXPECT_EQ(v2.deleter_calls, 1);

  ProducedTensor host({kDLCPU, 0}, {kDLFloat, 32, 1}, {3}, {1}, g_fake_data);
  expect_kind(ErrorKind::Value, [&] { from_dlpack(&host.managed, CopyMode::Never); });
  EXPECT_EQ(host.deleter_calls, 1);

  ProducedTensor read_only({kDLCUDA, 0}, {kDLFloat, 32, 1}, {3}, {1}, g_fake_data);
  read_only.managed.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  expect_kind(ErrorKind::Value, [&] { from_dlpack(&read_only.managed, CopyMode::Never); });
  EXPECT_EQ(read_only.deleter_calls, 1);

  expect_kind(ErrorKind::Value, [&] { from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)); });
}

TEST(DLPackImport, ExportedViewComesBackAsTheSameView) {
  const NDArray view = fake_array().view_as(Shape{5, 4}, Strides{8, -40}, g_fake_data + 3 * 40);
  DLPackExport e = to_dlpack(view, no_sync(std::nullopt));
  NDArray back = from_dlpack(e.legacy);
  EXPECT_EQ(back.shape(), view.shape());
  EXPECT_EQ(back.strides(), view.strides());
  EXPECT_EQ(back.raw_data(), view.raw_data());
  EXPECT_EQ(back.dtype(), DType::Float64);
}

// ---- GPU ----------------------------------------------------------------------------------------

TEST(DLPackGpu, HostExportAndHostImportCopy) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const std::vector<double> v = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const NDArray a = test::device_array(v, Shape{3, 4});
  const NDArray flipped = a.slice(0, 2, -1, -1).slice(1, 0, 4, 2);  // a[::-1, ::2]
  DLPackRequest to_host;
  to_host.max_version = DLPackVersion{1, 0};
  to_host.device = DLDevice{kDLCPU, 0};
  DLPackExport e = to_dlpack(flipped, to_host);
  const DLTensor& t = e.versioned->dl_tensor;
  EXPECT_EQ(e.versioned->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
  EXPECT_EQ(t.device.device_type, kDLCPU);
  EXPECT_EQ(values(t.strides, 2), (std::vector<int64_t>{2, 1}));
  const double* host = static_cast<const double*>(t.data);
  EXPECT_EQ(std::vector<double>(host, host + 6), (std::vector<double>{8, 10, 4, 6, 0, 2}));
  // The host tensor back to the GPU (a copy), and a gathered import of negative host strides.
  test::expect_array<double>(from_dlpack(e.versioned), DType::Float64, Shape{3, 2}, {8, 10, 4, 6, 0, 2});
  std::vector<double> h = {0, 1, 2, 3, 4, 5};
  ProducedTensor reversed({kDLCPU, 0}, {kDLFloat, 64, 1}, {3, 2}, {-2, 1}, h.data() + 4);
  test::expect_array<double>(from_dlpack(&reversed.managed), DType::Float64, Shape{3, 2}, {4, 5, 2, 3, 0, 1});
  EXPECT_EQ(reversed.deleter_calls, 1);
}

TEST(DLPackGpu, DeviceRoundTripSharesMemoryAndCopyAlwaysDoesNot) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = test::device_array(std::vector<float>{1, 2, 3, 4});
  DLPackRequest request;
  request.max_version = DLPackVersion{1, 0};
  NDArray same = from_dlpack(to_dlpack(a, request).versioned);
  EXPECT_EQ(same.raw_data(), a.raw_data());
  request.copy = CopyMode::Always;
  DLPackExport copied = to_dlpack(a, request);
  EXPECT_EQ(copied.versioned->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
  NDArray other = from_dlpack(copied.versioned);
  EXPECT_NE(other.raw_data(), a.raw_data());
  test::expect_array<float>(other, DType::Float32, Shape{4}, {1, 2, 3, 4});
  NDArray forced = from_dlpack(to_dlpack(a, DLPackRequest{DLPackVersion{1, 0}}).versioned, CopyMode::Always);
  EXPECT_NE(forced.raw_data(), a.raw_data());
}

TEST(DLPackGpu, StreamWaitStreamAcrossStreams) {
  CUARRAY_SKIP_WITHOUT_GPU();
  auto consumer = Stream::create(/*non_blocking=*/true);
  EXPECT_EQ(exchange_stream(0), legacy_default_stream());
  stream_wait_stream(consumer->handle(), exchange_stream(0), 0);
  stream_wait_stream(legacy_default_stream(), consumer->handle(), 0);
  stream_wait_stream(legacy_default_stream(), nullptr, 0);  // the same stream: nothing to wait for
  consumer->synchronize();
  set_current_stream(consumer);
  EXPECT_EQ(exchange_stream(0), consumer->handle());
  set_current_stream(nullptr);
}
