// How dtypes are spelled in generated kernel source, and which fragments every kernel starts with.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "cuarray/dtype.hpp"

namespace cuarray::jit {

std::string_view kernel_type_name(DType t);  // "float", "cuarray::complex<double>", ...

// The fragments every kernel starts with, in order: prelude and common, float16 only when one of
// `dtypes` is float16, complex and complex_math only when one is complex (compile time grows with
// every fragment), then convert and ufunc_math.
void append_common_fragments(std::string& source, std::span<const DType> dtypes);

// The unsigned type of a raw word of `bytes` (1, 2, 4, 8: "uint32_t", ...; 16: a 16-byte vector,
// from elementwise.cuh): kernels that move elements without looking at them move these.
std::string_view raw_word_type(int bytes);
// "typedef <raw_word_type(bytes)> word_t;\n"
std::string word_typedef(int bytes);

// The index_t / offset_t typedefs of strided kernels (for_each_dim_index, offset_of): 32-bit
// arithmetic unless an extent or byte span needs 64.
const char* index_typedefs(bool index64);

}  // namespace cuarray::jit
