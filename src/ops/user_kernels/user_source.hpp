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

// Which of CuPy's type names the user's code (`texts`) mentions: CuPy always declares float16 and
// complex<T>, cuarray includes their fragments only where used (each adds compile time).
struct NamedTypes {
  bool float16 = false, complex = false;
  static NamedTypes in(std::initializer_list<std::string_view> texts);
};

// The parameters' dtypes, plus float16 / complex64 where the user's code names them.
std::vector<DType> fragment_dtypes(const KernelParamTypes& types, NamedTypes named);

// user_kernel.cuh, `using` declarations of float16 and complex where their fragments are in,
// the placeholders' typedefs, `extra` (e.g. _type_reduce), then the user's preamble.
std::string preamble(const KernelParamTypes& types, std::span<const DType> fragment_dtypes, std::string_view extra,
                     std::string_view user_preamble);

// A hash of the user's strings, parameter lists and options, made once per kernel object.
uint64_t text_hash(std::initializer_list<std::string_view> texts, std::span<const KernelParam> in,
                   std::span<const KernelParam> out, std::span<const std::string> options);
// The op id of one call: the text hash, the placeholders' binding and the call's variant (a few
// bytes per call, no strings; the variant's bits say how the call's source differs), with the top
// bit set so that no built-in op has it.
uint64_t op_id(uint64_t text_hash, const KernelParamTypes& types, uint32_t variant);

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

// The NVRTC options a user kernel compiles with: the user's, plus -I<the CUDA headers> when its
// code has an #include (cuarray's own kernels need no headers; NVRTC has no default include
// path). The headers are looked for in $CUDA_PATH/include, $CUDA_HOME/include and
// /usr/local/cuda/include; none found adds nothing, and NVRTC then names the missing header.
std::vector<std::string> compile_options(std::span<const std::string> user_options,
                                         std::initializer_list<std::string_view> texts);

}  // namespace cuarray::user_kernels
