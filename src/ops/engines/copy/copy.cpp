#include "ops/engines/copy/copy.hpp"

#include "ops/engines/copy/transpose_copy.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray::ops {

void copy_into(const NDArray& src, const NDArray& dst) {
  if (try_transpose_copy(src, dst)) return;
  Operand in[] = {Operand::of(src)};
  run_internal(InternalOp::Copy, "out0 = in0;", in, dst, {dst.dtype(), dst.dtype()});
}

}  // namespace cuarray::ops
