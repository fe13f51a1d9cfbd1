// cupy.fft.config's plan cache API over the device's FFT PlanCache (libs/cufft.hpp). CuPy's values
// are kept as the user set them (-1 unlimited, 0 off) beside the cache, whose own limits are derived.
#include <array>
#include <mutex>
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/fft.hpp"
#include "libs/cufft.hpp"

namespace cuarray::fft {
namespace {

struct Limits {
  int64_t size = static_cast<int64_t>(libs::PlanCache::kDefaultMaxPlans);
  int64_t memsize = -1;
};

std::mutex& limits_mutex() {
  static std::mutex m;
  return m;
}

Limits& limits_of(int device) {
  static std::array<Limits, 64> limits;  // cuarray's devices are numbered as CUDA's, far below this
  if (device < 0 || device >= static_cast<int>(limits.size()))
    throw_error(ErrorKind::Value, "invalid device " + std::to_string(device));
  return limits[device];
}

void apply(int device, const Limits& l) {
  const bool off = l.size == 0 || l.memsize == 0;
  const size_t plans = off ? 0 : l.size == -1 ? SIZE_MAX : static_cast<size_t>(l.size);
  const size_t bytes = l.memsize == -1 ? libs::PlanCache::kNoByteLimit : static_cast<size_t>(l.memsize);
  libs::fft_plan_cache(device).set_limits(plans, bytes);
}

void validate(int64_t size, int64_t memsize) {
  if (size < -1 || memsize < -1) throw_error(ErrorKind::Value, "invalid input");
}

}  // namespace

FftPlanCache::FftPlanCache(int device) : device_(device) { limits_of(device); }

void FftPlanCache::set_size(int64_t size) {
  std::lock_guard<std::mutex> lock(limits_mutex());
  Limits& l = limits_of(device_);
  validate(size, l.memsize);
  l.size = size;
  apply(device_, l);
}

int64_t FftPlanCache::get_size() const {
  std::lock_guard<std::mutex> lock(limits_mutex());
  return limits_of(device_).size;
}

int64_t FftPlanCache::get_curr_size() const { return static_cast<int64_t>(libs::fft_plan_cache(device_).size()); }

void FftPlanCache::set_memsize(int64_t memsize) {
  std::lock_guard<std::mutex> lock(limits_mutex());
  Limits& l = limits_of(device_);
  validate(l.size, memsize);
  l.memsize = memsize;
  apply(device_, l);
}

int64_t FftPlanCache::get_memsize() const {
  std::lock_guard<std::mutex> lock(limits_mutex());
  return limits_of(device_).memsize;
}

int64_t FftPlanCache::get_curr_memsize() const {
  return static_cast<int64_t>(libs::fft_plan_cache(device_).bytes());
}

void FftPlanCache::clear() { libs::fft_plan_cache(device_).clear(); }

std::string FftPlanCache::info() const {
  // Plain strings, no iostreams: formatting numbers through an ostringstream here crashed inside
  // the GPU machine's Python process (not in the C++ tests), and this text needs no stream.
  const int64_t size = get_size(), memsize = get_memsize();
  auto limit = [](int64_t v) { return v == -1 ? std::string("(unlimited)") : std::to_string(v); };
  return "------------------- cuFFT plan cache (device " + std::to_string(device_) + ") -------------------\n" +
         "cache enabled? " + (size != 0 && memsize != 0 ? "True" : "False") + "\n" +
         "current / max size   : " + std::to_string(get_curr_size()) + " / " + limit(size) + " (counts)\n" +
         "current / max memsize: " + std::to_string(get_curr_memsize()) + " / " + limit(memsize) + " (bytes)\n" +
         "work areas come from the memory pool at each execution; idle plans hold none\n";
}

}  // namespace cuarray::fft
