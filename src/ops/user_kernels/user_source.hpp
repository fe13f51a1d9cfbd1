// What ElementwiseKernel and ReductionKernel sources share: the preamble giving user code CuPy's
// names, the dtypes whose fragments it needs, the op id hashing, and the compile-error message.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/user_kernels.hpp"

namespace cuarray::user_kernels {

// The parameters' dtypes, plus float16 / complex64 when `texts` (the user's code) name those
// types: CuPy always declares them, cuarray includes their fragments only where used.
std::vector<DType> fragment_dtypes(const KernelParamTypes& types, std::initializer_list<std::string_view> texts);

// user_kernel.cuh, `using` declarations of float16 and complex where their fragments are in,
// the placeholders' typedefs, `extra` (e.g. _type_reduce), then the user's preamble.
std::string preamble(const KernelParamTypes& types, std::span<const DType> fragment_dtypes, std::string_view extra,
                     std::string_view user_preamble);

// Hashes the user's strings and parameter lists into an op id that no built-in op uses.
uint64_t op_id(std::initializer_list<std::string_view> texts, std::span<const KernelParam> in,
               std::span<const KernelParam> out, std::span<const std::string> options, const KernelParamTypes& types);

// Runs `f`; an NVRTC failure is rethrown with the log, the kernel's name and the numbered source.
template <class F>
void reporting_compile_errors(const std::string& kind, const std::string& name, F&& f) {
  try {
    f();
  } catch (const CompileError& e) {
    throw CompileError(std::string(e.what()) + "\n\nin the source of " + kind + " '" + name + "':\n" +
                           numbered_source(e.source()),
                       e.source(), name);
  }
}

bool is_identifier(const std::string& s);

}  // namespace cuarray::user_kernels
