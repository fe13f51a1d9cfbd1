#include "cuarray/random.hpp"

#include <random>

#include "kernels/fragments.hpp"
#include "cuarray/errors.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray::random {

NDArray Generator::random(const Shape& shape, DType dtype) {
  if (dtype != DType::Float64 && dtype != DType::Float32)
    throw_error(ErrorKind::Type, "Unsupported dtype \"" + std::string(dtype_name(dtype)) + "\" for random");
  NDArray out = empty(shape, dtype);
  uint64_t counter;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    counter = counter_;
    counter_ += static_cast<uint64_t>(out.size());
  }
  if (out.size() == 0) return out;
  Operand in[] = {Operand::of(Scalar::from_uint(seed_)), Operand::of(Scalar::from_uint(counter))};
  ops::run_internal(ops::InternalOp::RandomUniform, "out0 = cuarray::random_uniform<out0_t>(in0, in1 + i);", in, out,
                    {DType::UInt64, DType::UInt64, dtype}, kernels::random_cuh);
  return out;
}

void Generator::reseed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  counter_ = 0;
}

uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

Generator& default_generator() {
  static Generator* g = new Generator(fresh_seed());
  return *g;
}

}  // namespace cuarray::random
