// The executors of a GemmPlan: cuBLAS for the float and complex dtypes, cuarray's integer GEMM
// kernel for bool and the integers. Pointers are NumPy's A, B and C (the plan swaps them for the
// column-major call); every call goes on the current stream.
#pragma once
#include <string>

#include "cuarray/dtype.hpp"
#include "ops/linalg/products/gemm_plan.hpp"

namespace cuarray::ops {

void cublas_gemm(const GemmPlan& plan, DType dtype, const char* a, const char* b, char* c);
void integer_gemm(const GemmPlan& plan, DType dtype, const char* a, const char* b, char* c);
// The integer GEMM kernel's source for one dtype and pair of op flags (for the compile tests).
std::string integer_gemm_source(DType dtype, bool trans_a, bool trans_b);

// Calls gemm(a, b, c) (element offsets applied) once for each index of the plan's host-looped
// batch dims.
template <class Gemm>
void for_each_outer_batch(const GemmPlan& plan, int64_t itemsize, const char* a, const char* b, char* c, Gemm&& gemm) {
  const int nd = static_cast<int>(plan.outer_shape.size());
  Shape index(nd, 0);
  while (true) {
    int64_t oa = 0, ob = 0, oc = 0;
    for (int d = 0; d < nd; ++d) {
      oa += index[d] * plan.outer_a[d];
      ob += index[d] * plan.outer_b[d];
      oc += index[d] * plan.outer_c[d];
    }
    gemm(a + oa * itemsize, b + ob * itemsize, c + oc * itemsize);
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (++index[d] < plan.outer_shape[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace cuarray::ops
