#include "kernel_types.hpp"

#include <array>

#include "../kernels/fragments.hpp"

namespace cuarray::ops {

std::string_view kernel_type_name(DType t) {
  static constexpr std::array<std::string_view, kNumDTypes> kNames = {
      "bool",    "int8_t",   "uint8_t",          "int16_t", "uint16_t", "int32_t",
      "uint32_t", "int64_t", "uint64_t",         "cuarray::float16", "float", "double",
      "cuarray::complex<float>", "cuarray::complex<double>"};
  return kNames[static_cast<int>(t)];
}

void append_common_fragments(std::string& source) {
  for (std::string_view f : {kernels::prelude_cuh, kernels::common_cuh, kernels::float16_cuh, kernels::complex_cuh,
                             kernels::complex_math_cuh, kernels::convert_cuh, kernels::ufunc_math_cuh}) {
    source += f;
    source += '\n';
  }
}

}  // namespace cuarray::ops
