// nvcc, for the user programs that ask for it (RawModule(backend='nvcc')): the toolkit's compiler
// run as a process on a temporary file. cuarray's own kernels never use it.
#pragma once
#include <string>
#include <vector>

namespace cuarray::jit {

// $CUDA_PATH/bin/nvcc, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, then nvcc on $PATH; empty
// when none exists.
std::string find_nvcc();

// `source` compiled by nvcc to a CUBIN for `arch` ("sm_90") with `options`. Throws CudaRuntime
// when nvcc is missing, CompileError with nvcc's output when it fails.
std::string compile_with_nvcc(const std::string& source, const std::string& name, const std::string& arch,
                              const std::vector<std::string>& options);

}  // namespace cuarray::jit
