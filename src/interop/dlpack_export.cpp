// ndarray.__dlpack__ in C++: a DLPack managed tensor (versioned or legacy) viewing an array, or a
// copy of it where the consumer's request needs one.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "cuarray/errors.hpp"
#include "cuarray/interop.hpp"
#include "runtime/current_device_scope.hpp"

namespace cuarray {
namespace {

// What a tensor views: device memory (an array), or a host copy. Both stay alive until the
// consumer calls the deleter.
struct ExportSource {
  NDArray array;               // the device data; empty for a host copy
  std::shared_ptr<void> host;  // the host copy's memory (C order); null for device data
  DLDevice device{};
  bool copied = false;
};

// The managed struct and everything it points to, in one allocation that its deleter frees. The
// deleter touches no Python object and takes no lock beyond the pool's, so a consumer may call it
// from any thread, with or without the GIL.
template <class Managed>
struct ExportedTensor {
  Managed managed{};
  ExportSource source;
  SmallVector<int64_t, 6> shape, strides;  // in elements

  static void deleter(Managed* self) { delete static_cast<ExportedTensor*>(self->manager_ctx); }
};

std::string device_repr(DLDevice d) {
  std::string s = std::to_string(static_cast<int>(d.device_type));
  s.insert(0, 1, '(');  // (not "(" + ...: GCC 12 warns falsely on that, -Wrestrict)
  return s.append(", ").append(std::to_string(d.device_id)).append(")");
}

std::shared_ptr<void> host_copy(const NDArray& a) {
  const size_t bytes = std::max<size_t>(static_cast<size_t>(a.nbytes()), 1);
  // DLPack asks for 256-byte alignment of the data pointer.
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p) throw_error(ErrorKind::OutOfMemory, "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  std::shared_ptr<void> memory(p, std::free);
  a.copy_to_host(p);  // C order; returns when the host holds the data
  return memory;
}

// The data the tensor will describe: `a` itself, or a copy on the device the request names.
ExportSource export_source(const NDArray& a, const DLPackRequest& request) {
  const DLDevice here{kDLCUDA, a.device()};
  const DLDevice want = request.device.value_or(here);
  const bool same_device = want.device_type == here.device_type && want.device_id == here.device_id;
  const bool needs_copy = request.copy == CopyMode::Always || !same_device;
  if (needs_copy && request.copy == CopyMode::Never)
    throw_error(ErrorKind::Buffer, "cannot export the array on device " + device_repr(here) + " to DLPack device " +
                                       device_repr(want) + " without a copy (copy=False)");
  if (want.device_type == kDLCUDA) {
    if (same_device) {
      if (request.copy != CopyMode::Always) return {a, nullptr, here, false};
      runtime::CurrentDeviceScope on(a.device());
      return {a.copy(Order::K), nullptr, here, true};
    }
    if (want.device_id < 0 || want.device_id >= device_count())
      throw_error(ErrorKind::Buffer, "DLPack device " + device_repr(want) + " is not a CUDA device of this machine");
    return {to_device(a, want.device_id), nullptr, want, true};
  }
  if (want.device_type == kDLCPU && want.device_id == 0) return {NDArray(), host_copy(a), {kDLCPU, 0}, true};
  throw_error(ErrorKind::Buffer, "cuarray cannot export to DLPack device " + device_repr(want) +
                                     " (kDLCUDA devices and kDLCPU are supported)");
}

template <class Managed>
Managed* make_tensor(const NDArray& a, ExportSource source, DLPackRequest const& request) {
  const int64_t item = a.itemsize();
  const bool on_host = source.host != nullptr;
  const NDArray viewed = on_host ? a : source.array;  // a host copy has a's shape, in C order
  auto* t = new ExportedTensor<Managed>();
  t->source = std::move(source);
  t->shape.assign(viewed.shape().begin(), viewed.shape().end());
  const Strides byte_strides = on_host ? c_strides(viewed.shape(), item) : viewed.strides();
  for (int64_t s : byte_strides) {
    if (s % item != 0) {
      delete t;
      throw_error(ErrorKind::Buffer, "DLPack only supports strides which are a multiple of itemsize.");
    }
    t->strides.push_back(s / item);
  }
  DLTensor& dl = t->managed.dl_tensor;
  // NDArray::data() marks device memory shared: the consumer enqueues its own work on it.
  void* data = on_host ? t->source.host.get() : static_cast<void*>(t->source.array.data());
  dl.data = viewed.size() == 0 ? nullptr : data;  // DLPack: null for size-0 tensors
  dl.device = t->source.device;
  dl.ndim = viewed.ndim();
  dl.dtype = to_dlpack_dtype(viewed.dtype());
  dl.shape = t->shape.data();
  dl.strides = t->strides.data();
  dl.byte_offset = 0;
  t->managed.manager_ctx = t;
  t->managed.deleter = &ExportedTensor<Managed>::deleter;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    // The highest 1.x both sides know: every 1.x minor only adds enum values and flag bits.
    const DLPackVersion asked = *request.max_version;
    t->managed.version = {DLPACK_MAJOR_VERSION, asked.major > DLPACK_MAJOR_VERSION
                                                    ? DLPACK_MINOR_VERSION
                                                    : std::min<uint32_t>(asked.minor, DLPACK_MINOR_VERSION)};
    // cuarray arrays are always writable, so READ_ONLY is never set.
    t->managed.flags = t->source.copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0;
  }
  return &t->managed;
}

}  // namespace

DLDevice dlpack_device(const NDArray& a) { return {kDLCUDA, a.device()}; }

DLPackExport to_dlpack(const NDArray& a, const DLPackRequest& request) {
  ExportSource source = export_source(a, request);
  if (source.device.device_type == kDLCUDA && request.stream)
    stream_wait_stream(*request.stream, exchange_stream(source.device.device_id), source.device.device_id);
  const bool versioned = request.max_version && request.max_version->major >= DLPACK_MAJOR_VERSION;
  DLPackExport out;
  if (versioned) out.versioned = make_tensor<DLManagedTensorVersioned>(a, std::move(source), request);
  else out.legacy = make_tensor<DLManagedTensor>(a, std::move(source), request);
  return out;
}

}  // namespace cuarray
