#include "jit/nvrtc.hpp"

#include <nvrtc.h>

#include "cuarray/errors.hpp"
#include "runtime/function_table.hpp"

namespace cuarray::jit {
namespace {

#define CUARRAY_NVRTC_FUNCTIONS(X)                                                                  \
  X(nvrtcVersion) X(nvrtcCreateProgram) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize)            \
  X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcDestroyProgram)                \
  X(nvrtcGetErrorString) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName)

struct NvrtcApi {
  CUARRAY_NVRTC_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  int version = 0;  // major * 1000 + minor * 10

  explicit NvrtcApi(const runtime::SharedLibrary& library) {
    CUARRAY_NVRTC_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION)
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    version = major * 1000 + minor * 10;
  }
};

const NvrtcApi& nvrtc() {
  static runtime::LazyLibrary<NvrtcApi> library(
      {"NVRTC", {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}, "cuda_nvrtc", "pip install nvidia-cuda-nvrtc"});
  return library.get();
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
  std::vector<std::string> options = default_options();
  options.push_back("--gpu-architecture=" + arch);
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  return compile_program(source, name, options, {}, log).cubin;
}

CompiledProgram compile_program(const std::string& source, const std::string& name,
                                 const std::vector<std::string>& options,
                                 const std::vector<std::string>& name_expressions, std::string* log) {
  const NvrtcApi& api = nvrtc();
  nvrtcProgram prog;
  check(api.nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  for (const auto& expression : name_expressions) {
    const nvrtcResult added = api.nvrtcAddNameExpression(prog, expression.c_str());
    if (added != NVRTC_SUCCESS) api.nvrtcDestroyProgram(&prog);
    check(added, "nvrtcAddNameExpression");
  }
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  nvrtcResult result = api.nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  if (result != NVRTC_SUCCESS) {
    std::string failure = program_log(api, prog);
    api.nvrtcDestroyProgram(&prog);
    throw CompileError(failure, source, name);
  }
  if (log) *log = program_log(api, prog);
  CompiledProgram out;
  for (const auto& expression : name_expressions) {
    const char* lowered = nullptr;
    const nvrtcResult found = api.nvrtcGetLoweredName(prog, expression.c_str(), &lowered);
    if (found != NVRTC_SUCCESS) api.nvrtcDestroyProgram(&prog);
    check(found, "nvrtcGetLoweredName");
    out.lowered_names.emplace_back(lowered);
  }
  size_t size = 0;
  api.nvrtcGetCUBINSize(prog, &size);
  out.cubin.assign(size, '\0');
  api.nvrtcGetCUBIN(prog, out.cubin.data());
  api.nvrtcDestroyProgram(&prog);
  return out;
}

}  // namespace cuarray::jit
