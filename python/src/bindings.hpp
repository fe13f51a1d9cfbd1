// One function per binding file; module.cpp calls them in order.
#pragma once
#include <nanobind/nanobind.h>

#include "py_array.hpp"

namespace cuarray::py {
void bind_ndarray(nanobind::module_& m);
void bind_ufuncs(nanobind::module_& m);
void bind_reductions(nanobind::module_& m);
void bind_creation(nanobind::module_& m);
void bind_random(nanobind::module_& m);
void bind_cuda(nanobind::module_& m);
void bind_raw_kernels(nanobind::module_& m);
void bind_select(nanobind::module_& m);
void bind_sorting(nanobind::module_& m);
void bind_scans(nanobind::module_& m);
void bind_ufunc_methods(nanobind::module_& m);
void bind_histograms(nanobind::module_& m);
void bind_pad(nanobind::module_& m);
void bind_manipulation(nanobind::module_& m);
void bind_sets(nanobind::module_& m);
void bind_products(nanobind::module_& m);
// The `@` operators and ndarray.dot, attached with the other operators (bind_ndarray.cpp).
void bind_matmul_operators(nanobind::class_<PyArray>& cls);
// cuarray.cuda's memory objects and allocator hooks, and the ndarray constructor (bind_memory.cpp).
void bind_memory(nanobind::module_& m, nanobind::class_<PyArray>& ndarray_cls);
void bind_einsum(nanobind::module_& m);
void bind_linalg(nanobind::module_& m);
void bind_fft(nanobind::module_& m);
// cuarray.cuda.nccl's communicator and NcclError (bind_nccl.cpp); after register_errors.
void bind_nccl(nanobind::module_& m);
void bind_user_kernels(nanobind::module_& m);
// __dlpack__, __dlpack_device__ and toDlpack on the ndarray type (after bind_ndarray), from_dlpack.
void bind_interop(nanobind::module_& m);
// cuarray.cuda.nvtx and cuarray.cuda.profiler (bind_profiling.cpp).
void bind_profiling(nanobind::module_& m);
}  // namespace cuarray::py
