#include "jit/kernel_source.hpp"

#include <array>

#include "kernels/fragments.hpp"
#include "cuarray/errors.hpp"

namespace cuarray::jit {

std::string_view kernel_type_name(DType t) {
  static constexpr std::array<std::string_view, kNumDTypes> kNames = {
      "bool",    "int8_t",   "uint8_t",          "int16_t", "uint16_t", "int32_t",
      "uint32_t", "int64_t", "uint64_t",         "cuarray::float16", "float", "double",
      "cuarray::complex<float>", "cuarray::complex<double>"};
  return kNames[static_cast<int>(t)];
}

void append_common_fragments(std::string& source, std::span<const DType> dtypes) {
  bool half = false, complex = false;
  for (DType t : dtypes) {
    half = half || t == DType::Float16;
    complex = complex || is_complex(t);
  }
  auto add = [&](std::string_view fragment) {
    source += fragment;
    source += '\n';
  };
  add(kernels::prelude_cuh);
  add(kernels::common_cuh);
  if (half) add(kernels::float16_cuh);
  if (complex) {
    add(kernels::complex_cuh);
    add(kernels::complex_math_cuh);
  }
  add(kernels::convert_cuh);
  add(kernels::ufunc_math_cuh);
}

std::string_view raw_word_type(int bytes) {
  switch (bytes) {
    case 1: return "uint8_t";
    case 2: return "uint16_t";
    case 4: return "uint32_t";
    case 8: return "uint64_t";
    case 16: return "cuarray::Vec<uint64_t, 2>";
  }
  throw_error(ErrorKind::Value, "no raw word type of " + std::to_string(bytes) + " bytes");
}

std::string word_typedef(int bytes) { return "typedef " + std::string(raw_word_type(bytes)) + " word_t;\n"; }

const char* index_typedefs(bool index64) {
  return index64 ? "typedef uint64_t index_t; typedef int64_t offset_t;\n"
                 : "typedef uint32_t index_t; typedef int32_t offset_t;\n";
}

}  // namespace cuarray::jit
