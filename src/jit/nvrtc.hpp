// NVRTC, opened with dlopen on first use: compiles CUDA C++ source to CUBIN for one architecture.
#pragma once
#include <string>
#include <vector>

namespace cuarray::jit {

// "sm_90" etc. Throws CudaRuntime when libnvrtc cannot be found, CompileError with the log on failure.
// `log`, when given, receives NVRTC's log of a successful compile (with --ptxas-options=-v among
// the options: ptxas's registers, stack frame and spills of every kernel; the tests read it).
std::string compile_to_cubin(const std::string& source, const std::string& name, const std::string& arch,
                             const std::vector<std::string>& extra_options = {}, std::string* log = nullptr);

// A program compiled with exactly `options` (the architecture among them, none of cuarray's
// defaults added): the CUBIN and, in the order given, the lowered (mangled) name NVRTC gave each
// of `name_expressions` ("f<float>" -> "_Z1fIfEvPT_"). Errors as compile_to_cubin's.
struct CompiledProgram {
  std::string cubin;
  std::vector<std::string> lowered_names;
};
CompiledProgram compile_program(const std::string& source, const std::string& name,
                                const std::vector<std::string>& options,
                                const std::vector<std::string>& name_expressions = {}, std::string* log = nullptr);

int nvrtc_version();  // major * 1000 + minor * 10, e.g. 13000

// The options every cuarray kernel compiles with (part of the disk cache key).
const std::vector<std::string>& default_options();

}  // namespace cuarray::jit
