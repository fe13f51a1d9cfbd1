// A lazily loaded library's table of function pointers, declared from an X-macro list as the
// driver's is (runtime/driver.hpp):
//
//   #define CUARRAY_NVRTC_FUNCTIONS(X) X(nvrtcVersion) X(nvrtcCreateProgram) ...
//   struct NvrtcApi {
//     CUARRAY_NVRTC_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
//     explicit NvrtcApi(const runtime::SharedLibrary& library) { CUARRAY_NVRTC_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION) }
//   };
//   const NvrtcApi& nvrtc() {
//     static runtime::LazyLibrary<NvrtcApi> library({"NVRTC", {"libnvrtc.so.13", ...}, "cuda_nvrtc", "pip install ..."});
//     return library.get();
//   }
//
// It lives in runtime/ rather than libs/ because NVRTC (jit/, below libs/) loads through it too, and
// arrows between the layers point down only.
#pragma once
#include <atomic>
#include <mutex>
#include <utility>

#include "runtime/shared_library.hpp"

// One member per function, typed by the header's own prototype. Where a header maps a name to a
// versioned one (cublasCreate -> cublasCreate_v2), the member takes the versioned name and so do
// the call sites, which the same macro rewrites.
#define CUARRAY_DECLARE_FUNCTION(name) decltype(&::name) name = nullptr;

// Inside a constructor taking `const runtime::SharedLibrary& library`: looks the function up by its
// versioned name, the symbol the library exports (`name` reaches CUARRAY_SYMBOL_NAME expanded; a
// plain #name would give the unversioned one). A missing symbol throws naming library and symbol.
#define CUARRAY_RESOLVE_FUNCTION(name) \
  name = reinterpret_cast<decltype(name)>(library.symbol(CUARRAY_SYMBOL_NAME(name)));
#define CUARRAY_SYMBOL_NAME(name) #name

namespace cuarray::runtime {

// Opens the library and builds its Table (constructed from the SharedLibrary) on the first get();
// later calls are one atomic load. A failed load throws and is retried by the next call, which then
// gives the same clear error. The table lives for the process, as the library does.
template <class Table>
class LazyLibrary {
 public:
  explicit LazyLibrary(LibrarySpec spec) : spec_(std::move(spec)) {}

  const Table& get() {
    if (const Table* table = table_.load(std::memory_order_acquire)) return *table;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!table_.load(std::memory_order_relaxed)) table_.store(new Table(open_library(spec_)), std::memory_order_release);
    return *table_.load(std::memory_order_relaxed);
  }

 private:
  LibrarySpec spec_;
  std::mutex mutex_;
  std::atomic<const Table*> table_{nullptr};
};

}  // namespace cuarray::runtime
