// NCCL collectives on device buffers, as cupy.cuda.nccl exposes them: a communicator per rank, made
// from a unique id that one rank creates and every other receives (a TCP store, MPI, a file), or
// all at once in one process (init_all). Buffers are device pointers, counts are elements, data
// types and reduction operators are NCCL's own numbers (ncclFloat32 = 7, ncclSum = 0, ...), and
// every call is enqueued on the given stream after cuarray's held launches.
//
// libnccl is opened on first use; NCCL_NVLS_ENABLE=0 is set before it loads (NVLink multicast
// stays off).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "cuarray/errors.hpp"

namespace cuarray::nccl {

// A failed NCCL call: CuPy's NcclError, a RuntimeError carrying NCCL's status (ncclResult_t).
class NcclError : public Error {
 public:
  NcclError(int status, const std::string& message) : Error(ErrorKind::CudaRuntime, message, status) {}
};

// ncclUniqueId: 128 opaque bytes.
using UniqueId = std::array<char, 128>;

// Whether libnccl can be opened (loads it; never throws).
bool available();
// NCCL_VERSION_CODE of the loaded library (22809 for 2.28.9).
int version();
UniqueId unique_id();

// ncclGroupStart / ncclGroupEnd: calls between them are fused (several devices of one process,
// send/recv pairs).
void group_start();
void group_end();

class Communicator {
 public:
  // ncclCommInitRank on the current device; blocks until all `nranks` ranks have joined.
  Communicator(int nranks, const UniqueId& id, int rank);
  // ncclCommInitAll: one communicator per device of `devices`, in one process.
  static std::vector<Communicator> init_all(const std::vector<int>& devices);
  ~Communicator();
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int device() const;
  int rank() const;
  int size() const;
  // ncclCommDestroy (waits for its work) / ncclCommAbort (does not); both leave the object empty,
  // and a second call does nothing.
  void destroy();
  void abort();
  // The ncclComm_t, 0 once destroyed.
  uintptr_t handle() const { return reinterpret_cast<uintptr_t>(comm_); }

  // The collectives, on `stream` (a CUstream; 0 is the legacy default stream). Counts are elements
  // of `datatype`; send and receive buffers may be the same pointer where NCCL allows in-place.
  void all_reduce(uintptr_t send, uintptr_t recv, size_t count, int datatype, int op, uintptr_t stream) const;
  void reduce(uintptr_t send, uintptr_t recv, size_t count, int datatype, int op, int root, uintptr_t stream) const;
  void broadcast(uintptr_t send, uintptr_t recv, size_t count, int datatype, int root, uintptr_t stream) const;
  // `count` elements from each rank; recv holds size() * count.
  void all_gather(uintptr_t send, uintptr_t recv, size_t count, int datatype, uintptr_t stream) const;
  // `count` elements to each rank; send holds size() * count.
  void reduce_scatter(uintptr_t send, uintptr_t recv, size_t count, int datatype, int op, uintptr_t stream) const;
  void send(uintptr_t buffer, size_t count, int datatype, int peer, uintptr_t stream) const;
  void recv(uintptr_t buffer, size_t count, int datatype, int peer, uintptr_t stream) const;

 private:
  Communicator(void* comm, int device) : comm_(comm), device_(device) {}
  void* comm_ = nullptr;  // ncclComm_t
  int device_ = -1;
};

}  // namespace cuarray::nccl
