#include "libs/nccl.hpp"

#include <cstdlib>
#include <string>
#include <utility>

#include "cuarray/nccl.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/streams/foreign_work.hpp"

namespace cuarray::libs {

runtime::LibrarySpec nccl_library_spec() {
  // NCCL 2 is libnccl.so.2 for every CUDA version; its wheels (nvidia-nccl-cu12, -cu13) both
  // install into <sp>/nvidia/nccl/lib.
  return {"NCCL", {"libnccl.so.2"}, "nccl", "pip install nvidia-nccl-cu13"};
}

const NcclApi& nccl() {
  // Never NVLink multicast: set before NCCL can read its environment, keeping a user's own value.
  static const bool nvls_off = (setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0), true);
  (void)nvls_off;
  static runtime::LazyLibrary<NcclApi> library(nccl_library_spec());
  return library.get();
}

void check_nccl(ncclResult_t status, const char* call) {
  if (status == ncclSuccess) return;
  throw nccl::NcclError(static_cast<int>(status),
                        std::string("NCCL ") + call + " failed: " + nccl().ncclGetErrorString(status));
}

}  // namespace cuarray::libs

namespace cuarray::nccl {

using libs::check_nccl;
using libs::nccl;

namespace {

ncclComm_t as_comm(void* comm) { return static_cast<ncclComm_t>(comm); }
cudaStream_t as_stream(uintptr_t stream) { return reinterpret_cast<cudaStream_t>(stream); }
const void* as_cptr(uintptr_t p) { return reinterpret_cast<const void*>(p); }
void* as_ptr(uintptr_t p) { return reinterpret_cast<void*>(p); }
ncclDataType_t as_type(int datatype) { return static_cast<ncclDataType_t>(datatype); }
ncclRedOp_t as_op(int op) { return static_cast<ncclRedOp_t>(op); }

}  // namespace

bool available() {
  try {
    nccl();
    return true;
  } catch (const Error&) {
    return false;
  }
}

int version() {
  int v = 0;
  check_nccl(nccl().ncclGetVersion(&v), "ncclGetVersion");
  return v;
}

UniqueId unique_id() {
  ncclUniqueId id;
  check_nccl(nccl().ncclGetUniqueId(&id), "ncclGetUniqueId");
  UniqueId out;
  static_assert(sizeof(id.internal) == sizeof(UniqueId));
  std::copy(std::begin(id.internal), std::end(id.internal), out.begin());
  return out;
}

void group_start() { check_nccl(nccl().ncclGroupStart(), "ncclGroupStart"); }

// NCCL switches devices with cudaSetDevice inside ncclGroupEnd and ncclCommInitAll and restores the
// one it found; cuarray's device is made current first, so what NCCL restores is what cuarray's
// per-thread record of the active context says.
void group_end() {
  runtime::ForeignWork on_current(current_device());
  check_nccl(nccl().ncclGroupEnd(), "ncclGroupEnd");
}

Communicator::Communicator(int nranks, const UniqueId& id, int rank) : device_(current_device()) {
  ncclUniqueId nccl_id;
  std::copy(id.begin(), id.end(), nccl_id.internal);
  runtime::ForeignWork on_device(device_);
  ncclComm_t comm = nullptr;
  check_nccl(nccl().ncclCommInitRank(&comm, nranks, nccl_id, rank), "ncclCommInitRank");
  comm_ = comm;
}

std::vector<Communicator> Communicator::init_all(const std::vector<int>& devices) {
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  // cuarray's held launches on every device go first; see group_end for the current device.
  for (int d : devices) runtime::ForeignWork flushed(d);
  runtime::ForeignWork on_current(current_device());
  check_nccl(nccl().ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()),
             "ncclCommInitAll");
  std::vector<Communicator> out;
  out.reserve(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) out.push_back(Communicator(comms[i], devices[i]));
  return out;
}

Communicator::~Communicator() {
  try {
    destroy();
  } catch (...) {
    // A destructor must not throw; an explicit destroy() reports the failure.
  }
}

Communicator::Communicator(Communicator&& other) noexcept
    : comm_(std::exchange(other.comm_, nullptr)), device_(other.device_) {}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    try {
      destroy();
    } catch (...) {
    }
    comm_ = std::exchange(other.comm_, nullptr);
    device_ = other.device_;
  }
  return *this;
}

namespace {

void* live(void* comm) {
  if (comm == nullptr) throw NcclError(ncclInvalidArgument, "NCCL communicator is destroyed or aborted");
  return comm;
}

// One collective or point-to-point call on a live communicator: after cuarray's held launches
// (ForeignWork), its status checked under `what`.
template <class Call>
void on_stream(void* comm, int device, const char* what, Call&& call) {
  const ncclComm_t live_comm = as_comm(live(comm));
  runtime::ForeignWork after_held_launches(device);
  check_nccl(call(live_comm), what);
}

}  // namespace

int Communicator::device() const {
  int d = 0;
  check_nccl(nccl().ncclCommCuDevice(as_comm(live(comm_)), &d), "ncclCommCuDevice");
  return d;
}

int Communicator::rank() const {
  int r = 0;
  check_nccl(nccl().ncclCommUserRank(as_comm(live(comm_)), &r), "ncclCommUserRank");
  return r;
}

int Communicator::size() const {
  int n = 0;
  check_nccl(nccl().ncclCommCount(as_comm(live(comm_)), &n), "ncclCommCount");
  return n;
}

void Communicator::destroy() {
  if (comm_ == nullptr) return;
  runtime::ForeignWork on_device(device_);
  check_nccl(nccl().ncclCommDestroy(as_comm(std::exchange(comm_, nullptr))), "ncclCommDestroy");
}

void Communicator::abort() {
  if (comm_ == nullptr) return;
  runtime::ForeignWork on_device(device_);
  check_nccl(nccl().ncclCommAbort(as_comm(std::exchange(comm_, nullptr))), "ncclCommAbort");
}

void Communicator::all_reduce(uintptr_t send, uintptr_t recv, size_t count, int datatype, int op,
                              uintptr_t stream) const {
  on_stream(comm_, device_, "ncclAllReduce", [&](ncclComm_t comm) {
    return nccl().ncclAllReduce(as_cptr(send), as_ptr(recv), count, as_type(datatype), as_op(op), comm,
                                as_stream(stream));
  });
}

void Communicator::reduce(uintptr_t send, uintptr_t recv, size_t count, int datatype, int op, int root,
                          uintptr_t stream) const {
  on_stream(comm_, device_, "ncclReduce", [&](ncclComm_t comm) {
    return nccl().ncclReduce(as_cptr(send), as_ptr(recv), count, as_type(datatype), as_op(op), root, comm,
                             as_stream(stream));
  });
}

void Communicator::broadcast(uintptr_t send, uintptr_t recv, size_t count, int datatype, int root,
                             uintptr_t stream) const {
  on_stream(comm_, device_, "ncclBroadcast", [&](ncclComm_t comm) {
    return nccl().ncclBroadcast(as_cptr(send), as_ptr(recv), count, as_type(datatype), root, comm, as_stream(stream));
  });
}

void Communicator::all_gather(uintptr_t send, uintptr_t recv, size_t count, int datatype, uintptr_t stream) const {
  on_stream(comm_, device_, "ncclAllGather", [&](ncclComm_t comm) {
    return nccl().ncclAllGather(as_cptr(send), as_ptr(recv), count, as_type(datatype), comm, as_stream(stream));
  });
}

void Communicator::reduce_scatter(uintptr_t send, uintptr_t recv, size_t count, int datatype, int op,
                                  uintptr_t stream) const {
  on_stream(comm_, device_, "ncclReduceScatter", [&](ncclComm_t comm) {
    return nccl().ncclReduceScatter(as_cptr(send), as_ptr(recv), count, as_type(datatype), as_op(op), comm,
                                    as_stream(stream));
  });
}

void Communicator::send(uintptr_t buffer, size_t count, int datatype, int peer, uintptr_t stream) const {
  on_stream(comm_, device_, "ncclSend", [&](ncclComm_t comm) {
    return nccl().ncclSend(as_cptr(buffer), count, as_type(datatype), peer, comm, as_stream(stream));
  });
}

void Communicator::recv(uintptr_t buffer, size_t count, int datatype, int peer, uintptr_t stream) const {
  on_stream(comm_, device_, "ncclRecv", [&](ncclComm_t comm) {
    return nccl().ncclRecv(as_ptr(buffer), count, as_type(datatype), peer, comm, as_stream(stream));
  });
}

}  // namespace cuarray::nccl
