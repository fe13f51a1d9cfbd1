// cuarray::random::Generator: the stream state, the bulk fills and the one generic sampler that
// runs every row of the distribution table on the elementwise engine.
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuarray/random.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/random/distribution_table.hpp"
#include "ops/random/parameter_checks.hpp"
#include "ops/random/random_bijection.hpp"
#include "ops/random/random_fill.hpp"

namespace cuarray::random {
namespace {

[[noreturn]] void unsupported(DType dtype, std::string_view what) {
  throw_error(ErrorKind::Type,
              "Unsupported dtype dtype('" + std::string(dtype_name(dtype)) + "') for " + std::string(what));
}

void require_float(DType dtype, std::string_view what) {
  if (dtype != DType::Float64 && dtype != DType::Float32) unsupported(dtype, what);
}

// float64 (int64 for discrete laws); float32 natively where NumPy's Generator offers dtype=
// (standard_gamma) and, as CuPy's RandomState does, for the laws the bulk fill serves (uniform,
// normal, exponential: native with scalar parameters, computed in float64 and stored as float32
// with array ones).
DType result_dtype(const DistributionDef& def, std::optional<DType> dtype) {
  const DType natural = def.result == ResultType::Int64 ? DType::Int64 : DType::Float64;
  if (!dtype || *dtype == natural) return natural;
  const bool float32_ok = def.result == ResultType::FloatOfDtype ||
                          (def.result == ResultType::Float64 && def.scalar_fill != ScalarFill::None);
  if (*dtype == DType::Float32 && float32_ok) return DType::Float32;
  unsupported(*dtype, def.name);
}

bool all_host_scalars(std::span<const Operand> params) {
  for (const Operand& p : params)
    if (!p.is_scalar()) return false;
  return true;
}

// The bulk fill's form of an all-scalar call, where it has one (none in the binomial's BTPE range
// and for poisson's large lam). `table` holds an inversion kind's table through the fill.
std::optional<FillParams> scalar_fill_params(ScalarFill form, std::span<const Operand> params,
                                             std::optional<InversionTable>& table) {
  const double p0 = params[0].scalar.real_value();
  switch (form) {
    case ScalarFill::Uniform:
      return FillParams{p0, params[1].scalar.real_value() - p0};
    case ScalarFill::Normal:
      return FillParams{p0, params[1].scalar.real_value()};
    case ScalarFill::Exponential:
      return FillParams{0, p0};
    case ScalarFill::Binomial:
    case ScalarFill::Poisson: {
      if (form == ScalarFill::Binomial) {
        int64_t n;
        params[0].scalar.store_as(DType::Int64, &n);  // NumPy's int conversion of n, checked before
        table = binomial_inversion_table(n, params[1].scalar.real_value());
      } else {
        table = poisson_inversion_table(p0);
      }
      if (!table) return std::nullopt;
      FillParams p;
      p.table = &*table;
      return p;
    }
    case ScalarFill::None:
      return std::nullopt;
  }
  return std::nullopt;
}

FillKind fill_kind(ScalarFill form) {
  switch (form) {
    case ScalarFill::Uniform:
      return FillKind::Uniform;
    case ScalarFill::Normal:
      return FillKind::Normal;
    case ScalarFill::Exponential:
      return FillKind::Exponential;
    default:
      return FillKind::Inversion;
  }
}

}  // namespace

uint64_t Generator::seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seed_;
}

uint64_t Generator::offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return offset_;
}

void Generator::set_state(uint64_t seed, uint64_t offset) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  offset_ = offset;
}

Generator::Counters Generator::reserve(uint64_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Counters c{seed_, offset_};
  offset_ += count;
  return c;
}

NDArray Generator::random(const Shape& shape, DType dtype) {
  require_float(dtype, "random");
  return filled(*this, FillKind::Uniform, shape, dtype);
}

NDArray Generator::standard_normal(const Shape& shape, DType dtype) {
  require_float(dtype, "standard_normal");
  return filled(*this, FillKind::Normal, shape, dtype);
}

NDArray Generator::standard_exponential(const Shape& shape, DType dtype) {
  require_float(dtype, "standard_exponential");
  return filled(*this, FillKind::Exponential, shape, dtype);
}

NDArray Generator::random_bits(const Shape& shape, DType dtype) {
  if (dtype != DType::UInt32 && dtype != DType::UInt64)
    throw_error(ErrorKind::Type, "random bits are uint32 or uint64");
  return filled(*this, FillKind::Integer, shape, dtype, {0, 0, 0, dtype == DType::UInt32 ? 0xFFFFFFFFull : ~0ull});
}

NDArray Generator::permutation_prefix(int64_t n, int64_t k) {
  if (k < 0 || k > n) throw_error(ErrorKind::Value, "permutation_prefix needs 0 <= k <= n");
  NDArray out = empty(Shape{k}, DType::Int64);
  if (k == 0) return out;
  const auto [key, counter] = reserve(1);
  fill_bijection_prefix(out, static_cast<uint64_t>(n), key, counter);
  return out;
}

NDArray Generator::sample(std::string_view distribution, std::span<const Operand> params, std::optional<Shape> size,
                          std::optional<DType> dtype) {
  const DistributionDef& def = distribution_def(distribution);
  if (static_cast<int>(params.size()) != def.nparams)
    throw_error(ErrorKind::Type, std::string(def.name) + " takes " + std::to_string(def.nparams) + " parameters, got " +
                                     std::to_string(params.size()));
  const DType out_dtype = result_dtype(def, dtype);
  // Broadcasting first (NumPy checks values first; the two orders differ only when both fail),
  // so that a mismatch names the arguments as np.broadcast(out, params...) does.
  const Shape shape = output_shape(params, size);
  check_parameters(def, api_, params);
  NDArray out = empty(shape, out_dtype);
  if (out.size() == 0) return out;
  if (def.scalar_fill != ScalarFill::None && all_host_scalars(params)) {
    std::optional<InversionTable> table;
    if (const std::optional<FillParams> p = scalar_fill_params(def.scalar_fill, params, table)) {
      fill_next(*this, fill_kind(def.scalar_fill), out, *p);
      return out;
    }
  }
  const auto [key, offset] = reserve(static_cast<uint64_t>(out.size()));
  std::vector<Operand> inputs{Operand::of(Scalar::from_uint(key)), Operand::of(Scalar::from_uint(offset))};
  // The sampler's own type; the engine converts to the output's dtype on store.
  const DType compute = def.result == ResultType::FloatOfDtype ? out_dtype : DType::Float64;
  std::vector<DType> loop{DType::UInt64, DType::UInt64};
  for (int k = 0; k < def.nparams; ++k) {
    inputs.push_back(params[k]);
    loop.push_back(param_dtype(def.types[k], compute));
  }
  loop.push_back(def.result == ResultType::Int64 ? DType::Int64 : compute);
  ops::ElementwiseSpec spec{
      static_cast<uint64_t>(ops::InternalOp::RandomDistribution) + static_cast<uint64_t>(row_index(def)),
      sampler_expression(def),
      def.nparams + 2,
      1,
      loop.data(),
      sampler_preamble()};
  ops::run_elementwise(spec, inputs, std::span(&out, 1));
  return out;
}

uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

Generator& default_generator() {
  static Generator* g = new Generator(fresh_seed(), Api::Legacy);
  return *g;
}

}  // namespace cuarray::random
