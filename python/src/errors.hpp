#pragma once
#include <nanobind/nanobind.h>

namespace cuarray::py {
// Creates the CUDA exception classes on the module and installs the C++ -> Python translator.
void register_errors(nanobind::module_& m);
}  // namespace cuarray::py
