// A user's CUDA C++ program (RawModule, RawKernel) compiled for one architecture through the disk
// cache. The cached file holds the lowered names of its name expressions with the CUBIN, so a
// disk-cache hit makes no NVRTC call at all.
#pragma once
#include <string>
#include <vector>

#include "jit/nvrtc.hpp"

namespace cuarray::jit {

struct UserProgram {
  std::string source, name;              // name: the program's file name in compiler messages
  std::vector<std::string> options;      // the user's, passed as they are
  std::vector<std::string> name_expressions;
  bool nvcc = false;                     // backend='nvcc'
};

// NVRTC compiles with the user's options, the architecture and the toolkit's include directory
// and its cccl/ (as CuPy does, so that <cuda_fp16.h>, <cooperative_groups.h> ... resolve), none of cuarray's own
// options: user code keeps the compiler's defaults (FMA contraction among them).
CompiledProgram compile_user_program(const UserProgram& program, const std::string& arch);

// Everything that determines `program`'s CUBIN on `arch`: the disk cache's key, and the in-memory
// key of the modules loaded from it.
std::string user_program_key(const UserProgram& program, const std::string& arch);

// The options NVRTC gets for `program` on `arch` (part of the cache key; tests read them).
std::vector<std::string> user_program_options(const UserProgram& program, const std::string& arch);

// $CUDA_PATH/include, $CUDA_HOME/include or /usr/local/cuda/include, the first that holds
// cuda_runtime.h; empty when none does (NVRTC's built-in headers only).
const std::string& toolkit_include_dir();

}  // namespace cuarray::jit
