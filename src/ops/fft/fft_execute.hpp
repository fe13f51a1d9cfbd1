// Runs cuFFT plans over arrays (docs/fft.md): one plan over up to three axes where cuFFT's strided
// layout reaches them (fft_layout.hpp), axis by axis where it does not, and a copy with the axis
// moved last only where one axis alone is out of its reach. Plans come from the device's FFT plan
// cache. Every function writes `out`, which the caller allocated; `out` may be `in` (in place).
#pragma once
#include <span>

#include "cuarray/ndarray.hpp"

namespace cuarray::fft {

// Complex-to-complex over `axes` (distinct, any order: the transform is separable).
void transform_c2c(const NDArray& in, const NDArray& out, std::span<const int> axes, bool inverse);

// Real-to-complex over `axes` (distinct; the last is halved: out has n/2+1 along it).
void transform_r2c(const NDArray& in, const NDArray& out, std::span<const int> axes);

// Complex-to-real over `axes` (distinct; the last is halved on the input side). Destroys `in`,
// as cuFFT's complex-to-real transforms do: the caller passes an array of its own.
void transform_c2r(const NDArray& in, const NDArray& out, std::span<const int> axes);

// The full forward transform of real input over `axes` (distinct): real-to-complex along the
// innermost of them into the first n/2+1 entries of `out`, the Hermitian fill of the rest
// (X[n-k] = conj X[k]), then complex-to-complex over the other axes in place.
void transform_real_forward(const NDArray& in, const NDArray& out, std::span<const int> axes);

}  // namespace cuarray::fft
