#include "jit/nvrtc.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <mutex>

#include "cuarray/errors.hpp"

namespace cuarray::jit {
namespace {

#define CUARRAY_NVRTC_FUNCTIONS(X)                                                                  \
  X(nvrtcVersion) X(nvrtcCreateProgram) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize)            \
  X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcDestroyProgram) X(nvrtcGetErrorString)

struct NvrtcApi {
#define CUARRAY_DECLARE(name) decltype(&::name) name = nullptr;
  CUARRAY_NVRTC_FUNCTIONS(CUARRAY_DECLARE)
#undef CUARRAY_DECLARE
  int version = 0;
};

// Where a CUDA toolkit's NVRTC usually lives; the loader's own search path comes last.
std::vector<std::string> candidates() {
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* v = std::getenv(var)) dirs.push_back(std::string(v) + "/lib64/");
  dirs.push_back("/usr/local/cuda/lib64/");
  dirs.push_back("");
  std::vector<std::string> out;
  for (const auto& d : dirs)
    for (const char* soname : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) out.push_back(d + soname);
  return out;
}

NvrtcApi load() {
  void* lib = nullptr;
  std::string tried;
  for (const auto& path : candidates()) {
    if ((lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    tried += " " + path;
  }
  if (!lib)
    throw_error(ErrorKind::CudaRuntime,
                "cannot load NVRTC (libnvrtc.so.13 or .12) from the CUDA toolkit; tried:" + tried +
                    ". Install the CUDA toolkit or set CUDA_PATH.");
  NvrtcApi api;
#define CUARRAY_RESOLVE(name)                                                                       \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, #name));                               \
  if (!api.name) throw_error(ErrorKind::CudaRuntime, "libnvrtc lacks " #name);
  CUARRAY_NVRTC_FUNCTIONS(CUARRAY_RESOLVE)
#undef CUARRAY_RESOLVE
  int major = 0, minor = 0;
  api.nvrtcVersion(&major, &minor);
  api.version = major * 1000 + minor * 10;
  return api;
}

const NvrtcApi& nvrtc() {
  static std::mutex mutex;
  static NvrtcApi* api = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!api) api = new NvrtcApi(load());
  return *api;
}

void check(nvrtcResult r, const char* call) {
  if (r != NVRTC_SUCCESS)
    throw_error(ErrorKind::CudaRuntime, std::string(call) + " failed: " + nvrtc().nvrtcGetErrorString(r));
}

std::string program_log(const NvrtcApi& api, nvrtcProgram prog) {
  size_t log_size = 0;
  api.nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  api.nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

int nvrtc_version() { return nvrtc().version; }

const std::vector<std::string>& default_options() {
  // No include paths: every kernel is self-contained, so compiles are fast and need no toolkit headers.
  // --fmad=false: NumPy rounds every operation separately (linspace's start + i * step, remainder's
  // a - b * q); contracting them into FMAs would change results. Explicit fma() calls still fuse.
  static const std::vector<std::string> options = {"-std=c++17", "--device-as-default-execution-space",
                                                   "--fmad=false"};
  return options;
}

std::string compile_to_cubin(const std::string& source, const std::string& name, const std::string& arch,
                             const std::vector<std::string>& extra_options, std::string* log) {
  const NvrtcApi& api = nvrtc();
  nvrtcProgram prog;
  check(api.nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  std::vector<std::string> options = default_options();
  options.push_back("--gpu-architecture=" + arch);
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  nvrtcResult result = api.nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  if (result != NVRTC_SUCCESS) {
    std::string failure = program_log(api, prog);
    api.nvrtcDestroyProgram(&prog);
    throw CompileError(failure, source, name);
  }
  if (log) *log = program_log(api, prog);
  size_t size = 0;
  api.nvrtcGetCUBINSize(prog, &size);
  std::string cubin(size, '\0');
  api.nvrtcGetCUBIN(prog, cubin.data());
  api.nvrtcDestroyProgram(&prog);
  return cubin;
}

}  // namespace cuarray::jit
