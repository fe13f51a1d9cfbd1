// Which array layouts one cuFFT plan can transform directly (docs/fft.md, "Layouts").
//
// cuFFT's advanced layout addresses element (b, x0, .., x[r-1]) of a side as
//   b * dist + ((x0 * embed[1] + x1) * embed[2] + x2) * stride
// so a plan reads a strided view without a copy when the transformed axes nest (each one's stride a
// multiple, by at least its inner neighbour's length, of the next) and the other axes fold into one
// batch dimension with one distance, on both sides alike. Pure host arithmetic, tested without a GPU.
#pragma once
#include <optional>
#include <span>

#include "cuarray/shape.hpp"
#include "libs/cufft.hpp"

namespace cuarray::fft {

// The layout of one plan over `axes` (outermost first; for R2C/C2R the halved axis last), from an
// input of in_shape/in_strides to an output of out_shape/out_strides (strides in elements of each
// side), or nullopt when cuFFT's strides and distances cannot express it (negative or zero strides,
// axes that do not nest in this order, other axes that do not fold into one batch dimension).
// The sides' lengths must agree: equal along the other axes; along the transformed ones, equal
// for C2C, and n/2+1 on the complex side of the halved axis for R2C/C2R.
std::optional<libs::FftLayout> fft_layout(const Shape& in_shape, const Strides& in_strides, const Shape& out_shape,
                                          const Strides& out_strides, std::span<const int> axes, libs::FftKind kind);

}  // namespace cuarray::fft
