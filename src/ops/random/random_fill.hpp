// The bulk-fill kernel (src/kernels/random_fill.cuh): uniform, normal, exponential and bounded
// integers with scalar parameters and discrete laws inverted through a CDF table, one Philox
// block per group of elements.
#pragma once
#include <cstdint>
#include <string>

#include "cuarray/ndarray.hpp"
#include "cuarray/random.hpp"
#include "ops/random/inversion_table.hpp"

namespace cuarray::random {

enum class FillKind : uint8_t { Uniform = 0, Normal = 1, Exponential = 2, Integer = 3, Inversion = 4 };

struct FillParams {
  double a = 0, b = 1;         // uniform a + b U, normal a + b Z, exponential b E
  uint64_t low = 0, span = 0;  // integer: low + [0, span], wrapping in 64 bits
  const InversionTable* table = nullptr;  // inversion: table->base + table->step * X
};

// The kernel's source for one kind, output dtype and word width (64-bit words for 64-bit floats
// and for integer spans of 2^32 - 1 or more).
std::string random_fill_source(FillKind kind, DType out, bool wide);

// Fills the C-contiguous `out` (a fresh array: aligned to 16 bytes) from counters offset, offset + 1, ...
// Float kinds need float32/float64; the integer kind any integer dtype or bool; the inversion kind
// int64.
void fill(FillKind kind, const NDArray& out, uint64_t key, uint64_t offset, const FillParams& p);

// fill() from the next out.size() counters of g's stream, which it reserves.
void fill_next(Generator& g, FillKind kind, const NDArray& out, const FillParams& p);
// A fresh array of `shape` and `dtype`, filled by fill_next.
NDArray filled(Generator& g, FillKind kind, const Shape& shape, DType dtype, const FillParams& p = {});

}  // namespace cuarray::random
