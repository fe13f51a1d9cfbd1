// The executors of a GemmPlan: cuBLAS for the float and complex dtypes, cuarray's integer GEMM
// kernel for bool and the integers. Pointers are NumPy's A, B and C (the plan swaps them for the
// column-major call); every call goes on the current stream.
#pragma once
#include <string>

#include "cuarray/dtype.hpp"
#include "cuarray/ndarray.hpp"
#include "ops/linalg/products/gemm_plan.hpp"

namespace cuarray::ops {

void cublas_gemm(const GemmPlan& plan, DType dtype, const char* a, const char* b, char* c);

// 1-byte integers (int8, uint8, bool) on cuBLAS's integer tensor-core GEMM: int8 inputs, int32 sums
// into `c32` (an int32 array of C's layout). Sums modulo 2^32 of the bytes read as int8 have the
// low byte of NumPy's wrapped int8/uint8 result, and are nonzero exactly where bool's OR of ANDs
// is true. Only where the IMMA rules hold (imma_fits); returns false, with nothing enqueued, when
// cuBLAS still answers CUBLAS_STATUS_NOT_SUPPORTED.
bool imma_fits(const GemmPlan& plan, const char* a, const char* b);
bool cublas_int8_gemm(const GemmPlan& plan, const char* a, const char* b, char* c32);
void integer_gemm(const GemmPlan& plan, DType dtype, const char* a, const char* b, char* c);

// C = A @ B for 16- to 64-bit integer A (batch..., m, k), B (batch..., k, n) of C's dtype (their
// element strides in ma, mb) and C-contiguous C (batch..., m, n), as int8 tensor-core GEMMs of the
// operands' base-256 digits (digit_gemm.cpp). False, with C untouched, where it does not apply (n
// or k not a multiple of 4, k too deep for exact int32 sums, too little work to pay for the digit
// passes, an operand's batch dims not one strided batch) or cuBLAS declines.
bool digit_gemm(const NDArray& a, const MatrixOperand& ma, const NDArray& b, const MatrixOperand& mb,
                const NDArray& c, const Shape& batch);
// The digit kernels' source for one element width and the planes kernel's walking directions
// (for the compile tests).
std::string digit_gemm_source(int64_t w, bool in_along_rows, bool out_along_rows);
// The integer GEMM kernel's source for one dtype and pair of op flags (for the compile tests).
std::string integer_gemm_source(DType dtype, bool trans_a, bool trans_b);

// Calls gemm(a_offset, b_offset, c_offset) (elements of NumPy's A, B and C) once for each index of
// the plan's host-looped batch dims.
template <class Gemm>
void for_each_outer_batch(const GemmPlan& plan, Gemm&& gemm) {
  const int nd = static_cast<int>(plan.outer_shape.size());
  Shape index(nd, 0);
  while (true) {
    int64_t oa = 0, ob = 0, oc = 0;
    for (int d = 0; d < nd; ++d) {
      oa += index[d] * plan.outer_a[d];
      ob += index[d] * plan.outer_b[d];
      oc += index[d] * plan.outer_c[d];
    }
    gemm(oa, ob, oc);
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (++index[d] < plan.outer_shape[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace cuarray::ops
