// Python <-> C++ conversions for dtypes, scalars, shapes and axes.
#pragma once
#include <nanobind/nanobind.h>

#include <optional>

#include "cuarray/ndarray.hpp"
#include "cuarray/runtime.hpp"
#include "cuarray/ufunc.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace nb = nanobind;

// Anything numpy.dtype() accepts; TypeError for dtypes cuarray lacks. None gives nullopt.
std::optional<DType> dtype_from_py(nb::handle obj);
DType dtype_from_py_required(nb::handle obj);
nb::object dtype_to_py(DType t);                 // the numpy.dtype object (cached)

// Python bool/int/float/complex (weak) and NumPy scalars (strong); nullopt for anything else.
std::optional<Scalar> scalar_from_py(nb::handle obj);
// The same, raising TypeError "<what> must be a number" for anything else.
Scalar scalar_required(nb::handle obj, const char* what);
nb::object scalar_to_py(DType t, const void* bytes);  // a Python scalar like NumPy's .item()

Shape shape_from_py(nb::handle obj);              // int or sequence of ints
std::optional<SmallVector<int64_t, 6>> axes_from_py(nb::handle obj);  // None, int or tuple
Order order_from_py(nb::handle obj, Order default_order);
Casting casting_from_py(nb::handle obj);
// A stream handle passed as an int (a Stream's .ptr), or the current stream for None.
StreamHandle stream_or_current(std::optional<uintptr_t> stream);

// A ufunc input: a cuarray array or a scalar. NumPy arrays and other objects raise TypeError
// (as CuPy does: host data never moves implicitly).
Operand operand_from_py(nb::handle obj, const char* what);

// numpy imported once (cuarray's only run-time dependency besides the CUDA driver).
nb::handle numpy();

}  // namespace cuarray::py
