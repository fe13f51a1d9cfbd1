#include "ops/linalg/solvers/status_words.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"

namespace cuarray::linalg {
namespace {

bool checks_from_environment() {
  const char* value = std::getenv("CUARRAY_LINALG_ERROR_CHECKS");
  return !(value && (std::strcmp(value, "0") == 0 || std::strcmp(value, "false") == 0));
}

std::atomic<bool>& checks_enabled() {
  static std::atomic<bool> enabled{checks_from_environment()};
  return enabled;
}

}  // namespace

void set_error_checks(bool enabled) { checks_enabled().store(enabled, std::memory_order_relaxed); }
bool error_checks() { return checks_enabled().load(std::memory_order_relaxed); }

StatusWords::StatusWords(int64_t count) : words_(zeros(Shape{count}, DType::Int32)) {}

std::vector<int> StatusWords::read() const {
  std::vector<int> host(static_cast<size_t>(count()));
  if (host.empty()) return host;
  size_t bytes = host.size() * sizeof(int);
  std::shared_ptr<void> pinned = allocate_pinned(bytes);
  Event done(/*blocking=*/false, /*disable_timing=*/true);
  {
    runtime::ForeignWork on_stream(words_.device());
    CU_CALL(cuMemcpyDtoHAsync, pinned.get(), reinterpret_cast<CUdeviceptr>(words_.raw_data()), bytes,
            current_stream_handle());
  }
  done.record(current_stream_handle());
  done.synchronize();
  std::memcpy(host.data(), pinned.get(), bytes);
  return host;
}

bool StatusWords::any_failed() const {
  std::vector<int> words = read();
  return std::any_of(words.begin(), words.end(), [](int w) { return w > 0; });
}

void StatusWords::raise_if_failed(const char* message) const {
  if (error_checks() && any_failed()) throw_error(ErrorKind::LinAlg, message);
}

}  // namespace cuarray::linalg
