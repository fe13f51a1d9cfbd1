#pragma once
#include "cuarray/linalg.hpp"

namespace cuarray::linalg {

// svd(a, full_matrices, compute_uv, hermitian=true): eigh of the square Hermitian stack `a`.
SvdResult hermitian_svd(const NDArray& a, bool compute_uv);

}  // namespace cuarray::linalg
