#include "libs/cufft.hpp"

#include <deque>
#include <memory>
#include <string>

#include "cuarray/errors.hpp"
#include "runtime/streams/foreign_work.hpp"

namespace cuarray::libs {

runtime::LibrarySpec cufft_library_spec() {
  // CUDA 13 ships cuFFT 12 (libcufft.so.12); CUDA 12's is libcufft.so.11.
  return {"cuFFT", {"libcufft.so.12", "libcufft.so.11"}, "cufft", "pip install nvidia-cufft"};
}

const CufftApi& cufft() {
  static runtime::LazyLibrary<CufftApi> library(cufft_library_spec());
  return library.get();
}

const char* cufft_status_name(cufftResult status) {
  switch (status) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_UNKNOWN_ERROR";
  }
}

void check_cufft(cufftResult status, const char* call) {
  if (status == CUFFT_SUCCESS) return;
  throw_error(ErrorKind::CudaRuntime, std::string("cuFFT ") + call + " failed: " + cufft_status_name(status));
}

PlanKey fft_plan_key(FftKind kind, bool double_precision, const FftLayout& layout) {
  PlanKey key(PlanKind::CufftPlan);
  key.push(static_cast<uint8_t>(kind));
  key.push(static_cast<uint8_t>(double_precision));
  key.push(static_cast<uint8_t>(layout.rank));
  for (int k = 0; k < layout.rank; ++k) {
    key.push_u64(static_cast<uint64_t>(layout.n[k]));
    // The outermost embedding is never read by cuFFT (only distances matter there).
    if (k > 0) {
      key.push_u64(static_cast<uint64_t>(layout.inembed[k]));
      key.push_u64(static_cast<uint64_t>(layout.onembed[k]));
    }
  }
  key.push_u64(static_cast<uint64_t>(layout.istride));
  key.push_u64(static_cast<uint64_t>(layout.idist));
  key.push_u64(static_cast<uint64_t>(layout.ostride));
  key.push_u64(static_cast<uint64_t>(layout.odist));
  key.push_u64(static_cast<uint64_t>(layout.batch));
  return key;
}

namespace {

cufftType cufft_type(FftKind kind, bool double_precision) {
  switch (kind) {
    case FftKind::C2C: return double_precision ? CUFFT_Z2Z : CUFFT_C2C;
    case FftKind::R2C: return double_precision ? CUFFT_D2Z : CUFFT_R2C;
    case FftKind::C2R: return double_precision ? CUFFT_Z2D : CUFFT_C2R;
  }
  return CUFFT_C2C;
}

}  // namespace

FftPlan::FftPlan(int device, FftKind kind, bool double_precision, const FftLayout& layout)
    : device_(device), kind_(kind), double_(double_precision) {
  runtime::ForeignWork on_device(device);
  const CufftApi& api = cufft();
  check_cufft(api.cufftCreate(&handle_), "cufftCreate");
  try {
    // The work area is the pool's, given at each execution: an idle plan holds none.
    check_cufft(api.cufftSetAutoAllocation(handle_, 0), "cufftSetAutoAllocation");
    long long n[3], inembed[3], onembed[3];  // cufftMakePlanMany64 takes non-const long long pointers
    for (int k = 0; k < 3; ++k) {
      n[k] = layout.n[k];
      inembed[k] = layout.inembed[k];
      onembed[k] = layout.onembed[k];
    }
    check_cufft(api.cufftMakePlanMany64(handle_, layout.rank, n, inembed, layout.istride, layout.idist, onembed,
                                        layout.ostride, layout.odist, cufft_type(kind, double_precision),
                                        layout.batch, &work_bytes_),
                "cufftMakePlanMany64");
  } catch (...) {
    api.cufftDestroy(handle_);
    throw;
  }
}

FftPlan::~FftPlan() { cufft().cufftDestroy(handle_); }

void FftPlan::execute(void* in, void* out, bool inverse) {
  std::lock_guard<std::mutex> one_at_a_time(executing_);
  const StreamHandle stream = current_stream_handle();
  runtime::ForeignWork on_stream(device_);
  const CufftApi& api = cufft();
  check_cufft(api.cufftSetStream(handle_, reinterpret_cast<cudaStream_t>(stream)), "cufftSetStream");
  // Freed in stream order after the transform: the next user of the block on this stream runs after it.
  std::shared_ptr<Buffer> work;
  if (work_bytes_ > 0) {
    work = allocate_device(work_bytes_, device_, stream);
    check_cufft(api.cufftSetWorkArea(handle_, work->ptr()), "cufftSetWorkArea");
  }
  const int direction = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  switch (kind_) {
    case FftKind::C2C:
      if (double_)
        check_cufft(api.cufftExecZ2Z(handle_, static_cast<cufftDoubleComplex*>(in),
                                     static_cast<cufftDoubleComplex*>(out), direction), "cufftExecZ2Z");
      else
        check_cufft(api.cufftExecC2C(handle_, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out),
                                     direction), "cufftExecC2C");
      break;
    case FftKind::R2C:
      if (double_)
        check_cufft(api.cufftExecD2Z(handle_, static_cast<cufftDoubleReal*>(in),
                                     static_cast<cufftDoubleComplex*>(out)), "cufftExecD2Z");
      else
        check_cufft(api.cufftExecR2C(handle_, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)),
                    "cufftExecR2C");
      break;
    case FftKind::C2R:
      if (double_)
        check_cufft(api.cufftExecZ2D(handle_, static_cast<cufftDoubleComplex*>(in),
                                     static_cast<cufftDoubleReal*>(out)), "cufftExecZ2D");
      else
        check_cufft(api.cufftExecC2R(handle_, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)),
                    "cufftExecC2R");
      break;
  }
}

PlanCache& fft_plan_cache(int device) {
  // Never destroyed (plans left at exit go with the process, as the other caches' do); a deque so
  // that growing it never moves a cache another thread holds.
  static std::mutex mutex;
  static auto* caches = new std::deque<PlanCache>;
  std::lock_guard<std::mutex> lock(mutex);
  while (static_cast<int>(caches->size()) <= device) caches->emplace_back();
  return (*caches)[device];
}

}  // namespace cuarray::libs
