// The Python arguments of NumPy's reductions, converted once for reduce(): the functions
// (cuarray._core.reductions, called by cuarray/_statistics/reductions.py) and the ndarray methods share it.
#pragma once
#include <nanobind/nanobind.h>

#include "cuarray/reduction.hpp"

namespace cuarray::py {
namespace nb = nanobind;

// numpy.<r>(a, axis, dtype, out, keepdims, ddof, where, initial) on the ndarray `a`: axis None, an
// int or a tuple (single-axis reductions: None or an int, TypeError otherwise); where True, a
// scalar (its truth), None (False), an array (host data is moved to the device); initial None or
// a number (a 0-d array's element). Returns `out` itself when it is given.
nb::object call_reduction(const Reduction& r, nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
                          nb::handle keepdims, double ddof, nb::handle where, nb::handle initial);

}  // namespace cuarray::py
