// numpy.pad on the GPU. The modes that copy input elements run as one pass (a gather whose
// source index is computed per axis); 'linear_ramp', the statistic modes ('maximum', 'mean',
// 'median', 'minimum'), reflect_type='odd' and callable modes are compositions in
// cuarray/_pad.py, axis by axis as NumPy does (docs/manipulation_copy.md).
#pragma once
#include <cstdint>
#include <span>
#include <utility>

#include "cuarray/ndarray.hpp"
#include "cuarray/scalar.hpp"

namespace cuarray {

enum class PadMode : uint8_t {
  Constant,   // the pad takes a constant per axis and side (the last padded axis wins in corners)
  Edge,       // the edge value of each axis
  Reflect,    // mirrored about the edge value, edges not repeated (reflect_type='even')
  Symmetric,  // mirrored about the edge, edges repeated (reflect_type='even')
  Wrap,       // the other end of the axis (periodic)
};

struct PadWidth {
  int64_t before = 0;
  int64_t after = 0;
};

// numpy.pad(a, pad_width, mode): `widths` holds one (before, after) pair per axis of `a`.
// `constants` (constant mode) holds one (before, after) pair of values per axis, each cast to a's
// dtype as NumPy's setitem casts; empty means zeros. Reflections and wraps wider than the axis
// repeat, as in NumPy. The result has a's dtype, Fortran order when `a` is Fortran- but not
// C-contiguous (else C order). Throws ValueError for a wrong number of pairs, a negative width,
// or a mode other than constant extending an empty axis.
NDArray pad(const NDArray& a, std::span<const PadWidth> widths, PadMode mode = PadMode::Constant,
            std::span<const std::pair<Scalar, Scalar>> constants = {});

}  // namespace cuarray
