// The tables of the float64 normal ziggurat (src/kernels/random_ziggurat.cuh): 256 layers of
// equal area v under exp(-x^2 / 2), base edge r = 3.6541528853610088, the geometry of NumPy's
// numpy/random/src/distributions/ziggurat_constants.h.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace cuarray::random {

struct NormalZiggurat {
  std::array<uint64_t, 256> k;  // acceptance bounds on the 52-bit magnitude
  std::array<double, 256> w;    // x_i / 2^52 (layer 0: the base strip's equivalent width v / f(r))
  std::array<double, 256> f;    // exp(-x_i^2 / 2)
};

const NormalZiggurat& normal_ziggurat();

// Device definitions of the tables for NVRTC: kNormalZigguratLayers (cuarray::ZigguratLayer[256])
// and kNormalZigguratF (double[256]), exact hexadecimal literals.
const std::string& normal_ziggurat_source();

}  // namespace cuarray::random
