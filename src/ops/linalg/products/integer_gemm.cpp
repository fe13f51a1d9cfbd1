// Placeholder until the integer GEMM kernel lands (next commit).
#include "cuarray/errors.hpp"
#include "ops/linalg/products/gemm.hpp"

namespace cuarray::ops {

void integer_gemm(const GemmPlan&, DType, const char*, const char*, char*) {
  throw_error(ErrorKind::NotImplemented, "matmul of bool and integer dtypes is not implemented yet");
}

}  // namespace cuarray::ops
