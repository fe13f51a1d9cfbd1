// cuFFT, a tenant of the library layer (docs/libraries.md, docs/fft.md): its function table, opened
// on first use, and the plans cuarray.fft executes.
//
// A plan is made once per layout (FftPlanKey) and kept in its device's FFT plan cache, which has
// CuPy's cupy.fft.config limits (count and bytes). Plans are made with auto-allocation off: the work
// area comes from cuarray's memory pool at each execution and goes back to it afterwards, so an idle
// cached plan holds no work area (CuPy keeps one per cached plan: cupy#8075, #5134, #4282). A plan is
// not bound to one stream: each execution sets the current stream first, as CuPy does, which is why
// the cache is per device rather than per device and stream.
#pragma once
#include <cufft.h>

#include <cstdint>
#include <mutex>

#include "cuarray/dtype.hpp"
#include "cuarray/runtime.hpp"
#include "libs/plan_cache.hpp"
#include "runtime/function_table.hpp"

#define CUARRAY_CUFFT_FUNCTIONS(X)                                                                   \
  X(cufftCreate) X(cufftDestroy) X(cufftSetAutoAllocation) X(cufftMakePlanMany64) X(cufftSetStream) \
  X(cufftSetWorkArea) X(cufftExecC2C) X(cufftExecZ2Z) X(cufftExecR2C) X(cufftExecD2Z) X(cufftExecC2R) \
  X(cufftExecZ2D) X(cufftGetVersion)

namespace cuarray::libs {

struct CufftApi {
  CUARRAY_CUFFT_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  explicit CufftApi(const runtime::SharedLibrary& library) { CUARRAY_CUFFT_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION) }
};

// Loads libcufft on the first call; a missing library throws CUDARuntimeError naming it, the
// directories searched and the pip command.
const CufftApi& cufft();
runtime::LibrarySpec cufft_library_spec();

// Throws CUDARuntimeError "cuFFT <call> failed: CUFFT_..." unless status is CUFFT_SUCCESS.
void check_cufft(cufftResult status, const char* call);
// cuFFT's name of a status ("CUFFT_INVALID_SIZE").
const char* cufft_status_name(cufftResult status);

// What a plan transforms: complex to complex, real to complex (forward), complex to real (inverse).
enum class FftKind : uint8_t { C2C, R2C, C2R };

// One execution's layout in elements of its own side (real elements for a real side), the
// arguments of cufftMakePlanMany64: element (b, x0..x[rank-1]) of the input is at
//   b * idist + ((x0 * inembed[1] + x1) * inembed[2] + x2) * istride
// and likewise for the output. n is the logical (real-side) length of each transformed axis.
struct FftLayout {
  int rank = 1;
  int64_t n[3] = {1, 1, 1};
  int64_t inembed[3] = {1, 1, 1};
  int64_t istride = 1, idist = 1;
  int64_t onembed[3] = {1, 1, 1};
  int64_t ostride = 1, odist = 1;
  int64_t batch = 1;
};

// The key of a plan: kind, precision and the whole layout.
PlanKey fft_plan_key(FftKind kind, bool double_precision, const FftLayout& layout);

// A cuFFT plan of one layout on one device. bytes() is the work area an execution takes from the
// pool (counted against the cache's byte limit as CuPy counts the work area it keeps).
class FftPlan {
 public:
  FftPlan(int device, FftKind kind, bool double_precision, const FftLayout& layout);
  ~FftPlan();
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  size_t bytes() const { return work_bytes_; }

  // Runs the transform on the current stream after cuarray's held launches (runtime::ForeignWork),
  // with a work area from the pool. `inverse` picks CUFFT_INVERSE for C2C. Out-of-place, or in-place
  // with in == out. One execution at a time per plan: cuFFT's plans are not safe to run from two
  // threads at once (the stream and work area are the plan's state).
  void execute(void* in, void* out, bool inverse);

 private:
  int device_;
  FftKind kind_;
  bool double_;
  cufftHandle handle_ = 0;
  size_t work_bytes_ = 0;
  std::mutex executing_;
};

// The FFT plan cache of a device (cupy.fft.config.get_plan_cache()): 16 plans, no byte limit by
// default. It lives for the process.
PlanCache& fft_plan_cache(int device);

}  // namespace cuarray::libs
