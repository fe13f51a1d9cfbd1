// Exchanging arrays with other libraries without copying: DLPack 1.x (dlpack/dlpack.h, the
// structs behind `__dlpack__` and `from_dlpack`) and device memory another library owns (the
// pointers of the CUDA Array Interface), with the stream protocol of the Array API standard:
// the side that hands data over makes the receiving stream wait on an event, never the host.
// docs/interop.md describes the design.
#pragma once
#include <dlpack/dlpack.h>

#include <memory>
#include <optional>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// ---- streams ------------------------------------------------------------------------------------
// The protocols name CUDA's default streams by the driver's special handles CU_STREAM_LEGACY (1)
// and CU_STREAM_PER_THREAD (2); cuarray's null stream is the legacy one.
inline StreamHandle legacy_default_stream() { return reinterpret_cast<StreamHandle>(1); }
inline StreamHandle per_thread_default_stream() { return reinterpret_cast<StreamHandle>(2); }

// The current stream of `device` on this thread as the protocols name it: its handle, or
// legacy_default_stream() for the null stream.
StreamHandle exchange_stream(int device);

// Makes `waiter` wait for the work enqueued so far on `producer` (streams of `device`) through an
// event, with no host synchronization; nothing when both name the same stream. cuarray's launches
// held for batching are submitted first.
void stream_wait_stream(StreamHandle waiter, StreamHandle producer, int device);

// ---- DLPack -------------------------------------------------------------------------------------
// copy= of __dlpack__ and from_dlpack: None, True, False.
enum class CopyMode : uint8_t { IfNeeded, Always, Never };

// What a consumer asks of __dlpack__ (the Array API standard's keywords).
struct DLPackRequest {
  std::optional<DLPackVersion> max_version;  // none: the consumer reads only the legacy DLManagedTensor
  std::optional<DLDevice> device;            // none: where the array is; {kDLCPU, 0}: a host copy
  CopyMode copy = CopyMode::IfNeeded;
  // The stream the consumer will use the data on; none: the consumer asked for no synchronization.
  std::optional<StreamHandle> stream = legacy_default_stream();
};

// A managed tensor for a consumer: exactly one of the two is set. Whoever holds it owns it and
// calls its deleter exactly once.
struct DLPackExport {
  DLManagedTensorVersioned* versioned = nullptr;
  DLManagedTensor* legacy = nullptr;
};

// ndarray.__dlpack__: a tensor viewing `a`, whose memory stays alive until the deleter runs; a
// copy (flag IS_COPIED) where the request needs one: copy=Always, the host, another GPU. Strides
// are in elements, as DLPack counts them (negative and zero ones included); data is null for
// size-0 arrays. The request's stream waits for the current stream of the device the data is on
// (a host copy is finished on return and ignores it). Throws ErrorKind::Buffer when `a` cannot be
// exported as asked: copy=Never and a copy is needed, a device type other than CUDA and CPU, a
// CUDA device that does not exist, byte strides that are not whole elements.
DLPackExport to_dlpack(const NDArray& a, const DLPackRequest& request);

DLDevice dlpack_device(const NDArray& a);  // ndarray.__dlpack_device__: {kDLCUDA, device}

// from_dlpack: an array of the tensor's data, taking ownership of the tensor, whose deleter runs
// exactly once: when the last view of its memory dies, or before returning when the data was
// copied or the tensor refused. CUDA (and CUDA-managed) memory is viewed without copying unless
// `copy` is Always, the tensor is flagged read-only (cuarray arrays are writable, so a read-only
// tensor is copied) or `device` names another GPU; host memory (kDLCPU, kDLCUDAHost) is copied to
// `device`, the current device when none. copy=Never where a copy is needed is ErrorKind::Value
// (the Array API standard's ValueError); a tensor cuarray cannot hold (an unsupported dtype or
// device type, DLPack 2+) is ErrorKind::Buffer.
NDArray from_dlpack(DLManagedTensorVersioned* tensor, CopyMode copy = CopyMode::IfNeeded,
                    std::optional<int> device = std::nullopt);
NDArray from_dlpack(DLManagedTensor* tensor, CopyMode copy = CopyMode::IfNeeded,
                    std::optional<int> device = std::nullopt);

// DLPack's data type of a cuarray dtype (bool is kDLBool of 8 bits, complex64 kDLComplex of 64),
// and back: nullopt for types cuarray lacks (bfloat16, float8, vectors of lanes > 1, ...).
DLDataType to_dlpack_dtype(DType t);
std::optional<DType> dtype_from_dlpack(DLDataType t);

// ---- foreign device memory ----------------------------------------------------------------------
// An array viewing device memory another library owns, without copying: `data` is the first
// element's address, `strides` in bytes. `owner` keeps the memory alive and is released when the
// last view dies. The memory counts as shared (launch-batching.md): the owner may enqueue work on it.
NDArray view_foreign_memory(void* data, const Shape& shape, const Strides& strides, DType dtype, int device,
                            std::shared_ptr<const void> owner);

// The device whose memory `ptr` is (managed memory: the device it was allocated on); nullopt for
// memory CUDA does not know (plain host memory).
std::optional<int> device_of_pointer(const void* ptr);

}  // namespace cuarray
