// cuarray: NumPy's API on NVIDIA GPUs, for C++. Include this one header.
#pragma once
#include "cuarray/dtype.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ndarray.hpp"
#include "cuarray/random.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/index_key.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/runtime.hpp"
#include "cuarray/scan.hpp"
#include "cuarray/scalar.hpp"
#include "cuarray/shape.hpp"
#include "cuarray/ufunc.hpp"
