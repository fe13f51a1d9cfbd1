// numpy's integers/randint: scalar bounds on the bulk fill (one Philox block per 4 or 2 values),
// array bounds per element on the elementwise engine; NumPy's checks and messages.
#include <cmath>
#include <string>

#include "cuarray/random.hpp"
#include "cuarray/reduction.hpp"
#include "kernels/fragments.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/random/distribution_table.hpp"
#include "ops/random/parameter_checks.hpp"
#include "ops/random/random_fill.hpp"

namespace cuarray::random {
namespace {

using Wide = __int128;

struct Bounds {
  Wide low, high;  // the dtype's inclusive range
};

Bounds bounds_of(DType t) {
  if (t == DType::Bool) return {0, 1};
  const int bits = static_cast<int>(itemsize(t)) * 8;
  if (kind(t) == DTypeKind::UnsignedInt) return {0, (Wide(1) << bits) - 1};
  return {-(Wide(1) << (bits - 1)), (Wide(1) << (bits - 1)) - 1};
}

Wide host_bound(const Operand& b, DType t) {
  if (!b.is_scalar()) {
    const DType host_t = t == DType::UInt64 ? DType::UInt64 : DType::Int64;
    unsigned char bytes[8];
    b.array->astype(host_t).copy_to_host(bytes);
    return host_bound(Operand::of(Scalar::load(host_t, bytes)), t);
  }
  const Scalar& s = b.scalar;
  switch (s.kind) {
    case Scalar::Kind::Bool:
      return s.b;
    case Scalar::Kind::Int:
      return s.int_is_unsigned ? Wide(s.u) : Wide(s.i);
    default: {
      const double v = std::trunc(s.real_value());
      // Beyond 2^100 every bound check fails alike; keep the conversion defined.
      return std::fabs(v) < 1e30 ? static_cast<Wide>(v) : (v < 0 ? -(Wide(1) << 100) : (Wide(1) << 100));
    }
  }
}

[[noreturn]] void out_of_bounds(const char* which, DType t) {
  throw_error(ErrorKind::Value, std::string(which) + " is out of bounds for " + std::string(dtype_name(t)));
}

bool host_checkable(const Operand& o) { return o.is_scalar() || o.array->ndim() == 0; }

// The device checks of array bounds: NumPy's order (low, high, then their order), per element.
void check_array_bounds(const Operand& low, const Operand& high, DType t, DType loop_t, bool endpoint) {
  const Operand bounds[] = {low, high};
  const NDArray failed = empty(output_shape(bounds, std::nullopt, true), DType::UInt8);
  if (failed.size() == 0) return;
  const Bounds b = bounds_of(t);
  const Operand inputs[] = {
      low, high, Operand::of(Scalar::from(static_cast<int64_t>(b.low))),
      Operand::of(loop_t == DType::UInt64 ? Scalar::from_uint(~0ull) : Scalar::from(static_cast<int64_t>(b.high)))};
  const DType loop[] = {loop_t, loop_t, loop_t, loop_t, DType::UInt8};
  static const std::string exprs[2] = {
      "out0 = in0 < in2 ? 0 : (in1 > in3 && in1 - 1 > in3) ? 1 : in0 >= in1 ? 2 : 255;",
      "out0 = in0 < in2 ? 0 : in1 > in3 ? 1 : in0 > in1 ? 2 : 255;"};
  ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::RandomIntegersCheck) + endpoint, exprs[endpoint], 4,
                            1, loop};
  ops::run_elementwise(spec, inputs, std::span(&failed, 1));
  uint8_t first = 255;
  reduce("min", failed).copy_to_host(&first);
  if (first == 0) out_of_bounds("low", t);
  if (first == 1) out_of_bounds("high", t);
  // With a scalar low of 0, NumPy names the bound on high (as for scalar bounds).
  const bool from_zero = low.is_scalar() && low.scalar.real_value() == 0;
  if (first == 2 && from_zero) throw_error(ErrorKind::Value, endpoint ? "high < 0" : "high <= 0");
  if (first == 2) throw_error(ErrorKind::Value, endpoint ? "low > high" : "low >= high");
}

}  // namespace

NDArray Generator::integers(const Operand& low, const Operand& high, std::optional<Shape> size, DType dtype,
                            bool endpoint) {
  if (!is_integer(dtype) && dtype != DType::Bool)
    throw_error(ErrorKind::Type, "Unsupported dtype dtype('" + std::string(dtype_name(dtype)) + "') for " +
                                     (api_ == Api::Legacy ? "randint" : "integers"));
  const Operand bounds[] = {low, high};
  if (host_checkable(low) && host_checkable(high)) {
    const Bounds b = bounds_of(dtype);
    const Wide lo = host_bound(low, dtype), hi = host_bound(high, dtype) - (endpoint ? 0 : 1);
    // NumPy words an empty range from 0 (integers(0) included) as a bound on high, before the
    // dtype's bounds.
    if (lo == 0 && hi < 0) throw_error(ErrorKind::Value, endpoint ? "high < 0" : "high <= 0");
    if (lo < b.low) out_of_bounds("low", dtype);
    if (hi > b.high) out_of_bounds("high", dtype);
    if (lo > hi) throw_error(ErrorKind::Value, endpoint ? "low > high" : "low >= high");
    return filled(*this, FillKind::Integer, output_shape(bounds, size, true), dtype,
                  {0, 0, static_cast<uint64_t>(lo), static_cast<uint64_t>(hi - lo)});
  }
  const DType loop_t = dtype == DType::UInt64 ? DType::UInt64 : DType::Int64;
  const Shape shape = output_shape(bounds, size, true);  // np.broadcast(low, high, out)'s message first
  check_array_bounds(low, high, dtype, loop_t, endpoint);
  NDArray out = empty(shape, dtype);
  if (out.size() == 0) return out;
  const auto [key, offset] = reserve(static_cast<uint64_t>(out.size()));
  const Operand inputs[] = {Operand::of(Scalar::from_uint(key)), Operand::of(Scalar::from_uint(offset)), low, high};
  const DType loop[] = {DType::UInt64, DType::UInt64, loop_t, loop_t, dtype};
  static const std::string exprs[2] = {
      "cuarray::RandomStream s(in0, in1 + static_cast<unsigned long long>(i));\n"
      "out0 = static_cast<out0_t>(cuarray::random_bounded(s, static_cast<unsigned long long>(in2), "
      "static_cast<unsigned long long>(in3) - static_cast<unsigned long long>(in2) - 1));",
      "cuarray::RandomStream s(in0, in1 + static_cast<unsigned long long>(i));\n"
      "out0 = static_cast<out0_t>(cuarray::random_bounded(s, static_cast<unsigned long long>(in2), "
      "static_cast<unsigned long long>(in3) - static_cast<unsigned long long>(in2)));"};
  ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::RandomIntegers) + endpoint,
                            exprs[endpoint],
                            4,
                            1,
                            loop,
                            sampler_preamble()};
  ops::run_elementwise(spec, inputs, std::span(&out, 1));
  return out;
}

}  // namespace cuarray::random
