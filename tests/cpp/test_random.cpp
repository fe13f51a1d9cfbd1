// cuarray.random's C++ side: every sampler, check and bulk-fill kernel compiles with NVRTC for
// sm_80/sm_90 (no GPU needed); scalar parameters are checked on the host with NumPy's messages
// before any GPU work; broadcasting follows np.broadcast. GPU tests check reproducibility and
// the mapping's independence from layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/random.hpp"
#include "expect_compiles.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"
#include "kernels/fragments.hpp"
#include "ops/engines/elementwise/elementwise_source.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/random/distribution_table.hpp"
#include "ops/random/parameter_checks.hpp"
#include "ops/random/random_bijection.hpp"
#include "ops/random/random_fill.hpp"

using namespace cuarray;
using random::Api;
using test::expect_compiles;
using test::expect_error;

namespace {

ops::ElementwiseLayout linear(int vec) { return {true, vec, 1, false, false}; }
ops::ElementwiseLayout strided(int rank) { return {false, 1, rank, false, false}; }

Operand s(double v) { return Operand::of(Scalar::from_double(v)); }

}  // namespace

class SamplerCompile : public ::testing::TestWithParam<int> {};

TEST_P(SamplerCompile, CompilesForEveryResultDtype) {
  const random::DistributionDef& def = random::distribution_defs()[GetParam()];
  std::vector<DType> results{def.result == random::ResultType::Int64 ? DType::Int64 : DType::Float64};
  if (def.result == random::ResultType::FloatOfDtype) results.push_back(DType::Float32);
  for (DType result : results) {
    std::vector<DType> loop{DType::UInt64, DType::UInt64};
    std::vector<std::optional<DType>> in{std::nullopt, std::nullopt};
    for (int k = 0; k < def.nparams; ++k) {
      loop.push_back(random::param_dtype(def.types[k], result));
      in.push_back(loop.back());  // array parameters: the strided layout reads them
    }
    loop.push_back(result);
    DType out[] = {result};
    ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::RandomDistribution) + GetParam(),
                              random::sampler_expression(def),
                              def.nparams + 2,
                              1,
                              loop.data(),
                              random::sampler_preamble()};
    expect_compiles(ops::elementwise_source(spec, in, out, strided(2)), std::string(def.name));
  }
}

TEST_P(SamplerCompile, ChecksCompileForBothApis) {
  const random::DistributionDef& def = random::distribution_defs()[GetParam()];
  if (def.nchecks == 0) GTEST_SKIP() << def.name << " has no parameter checks";
  for (Api api : {Api::Legacy, Api::Generator}) {
    std::vector<DType> loop;
    std::vector<std::optional<DType>> in;
    for (int k = 0; k < def.nparams; ++k) {
      loop.push_back(random::param_dtype(def.types[k], DType::Float64));
      in.push_back(loop.back());
    }
    loop.push_back(DType::UInt8);
    DType out[] = {DType::UInt8};
    const std::string expr = random::check_expression(def, api);
    ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::RandomCheck),
                              expr,
                              def.nparams,
                              1,
                              loop.data(),
                              kernels::random_checks_cuh};
    expect_compiles(ops::elementwise_source(spec, in, out, linear(1)), std::string(def.name) + " checks");
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDistribution, SamplerCompile,
                         ::testing::Range(0, static_cast<int>(random::distribution_defs().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name(random::distribution_defs()[info.param].name);
                           for (char& c : name)
                             if (c == '_') c = 'U';
                           return name;
                         });

TEST(RandomFillCompile, EveryKindAndDtype) {
  using random::FillKind;
  for (FillKind kind : {FillKind::Uniform, FillKind::Normal, FillKind::Exponential})
    for (DType t : {DType::Float32, DType::Float64})
      expect_compiles(random::random_fill_source(kind, t, itemsize(t) == 8), "fill " + std::string(dtype_name(t)),
                      test::LocalMemory::None);
  for (DType t : {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32, DType::UInt32,
                  DType::Int64, DType::UInt64})
    for (bool wide : {false, true})
      expect_compiles(random::random_fill_source(FillKind::Integer, t, wide), "integers " + std::string(dtype_name(t)),
                      test::LocalMemory::None);
  expect_compiles(random::random_fill_source(FillKind::Inversion, DType::Int64, true), "inversion int64",
                  test::LocalMemory::None);
}

TEST(RandomBijectionCompile, KernelCompilesWithoutLocalMemory) {
  expect_compiles(random::random_bijection_source(), "random bijection", test::LocalMemory::None);
}

TEST(RandomBijection, RejectsSamplesLargerThanThePopulationBeforeAnyGpuWork) {
  random::Generator g(1);
  expect_error(ErrorKind::Value, "permutation_prefix needs 0 <= k <= n", [&] { g.permutation_prefix(5, 6); });
  expect_error(ErrorKind::Value, "permutation_prefix needs 0 <= k <= n", [&] { g.permutation_prefix(5, -1); });
  EXPECT_EQ(g.offset(), 0u);
}

// ---- host checks: every one raises before any GPU work, with NumPy's message ----

struct BadCall {
  const char* name;
  std::vector<double> params;
  const char* legacy;     // RandomState's message (nullptr: accepted)
  const char* generator;  // Generator's
  ErrorKind kind = ErrorKind::Value;
};

TEST(RandomHostChecks, NumPysMessagesForScalarParameters) {
  const double nan = std::nan("");
  // Messages as numpy 2.4 prints them (np.random.RandomState(0).<name>(*params) and default_rng).
  const std::vector<BadCall> calls = {
      {"normal", {0, -1}, "scale < 0", "scale < 0"},
      {"normal", {0, -0.0}, "scale < 0", "scale < 0"},
      {"gamma", {-1, 1}, "shape < 0", "shape < 0"},
      {"gamma", {1, -1}, "scale < 0", "scale < 0"},
      {"standard_gamma", {-1}, "shape < 0", "shape < 0"},
      {"beta", {0, 1}, "a <= 0", "a <= 0"},
      {"beta", {1, 0}, "b <= 0", "b <= 0"},
      {"binomial", {-1, 0.5}, "n < 0", "n < 0"},
      {"binomial", {1, 1.1}, "p < 0, p > 1 or p is NaN", "p < 0, p > 1 or p is NaN"},
      {"binomial", {1, nan}, "p < 0, p > 1 or p is NaN", "p < 0, p > 1 or p is NaN"},
      {"chisquare", {0}, "df <= 0", "df <= 0"},
      {"exponential", {-1}, "scale < 0", "scale < 0"},
      {"f", {0, 1}, "dfnum <= 0", "dfnum <= 0"},
      {"f", {1, 0}, "dfden <= 0", "dfden <= 0"},
      {"geometric", {0}, "p <= 0, p > 1 or p contains NaNs", "p <= 0, p > 1 or p contains NaNs"},
      {"gumbel", {0, -1}, "scale < 0", "scale < 0"},
      {"hypergeometric", {-1, 1, 1}, "ngood + nbad < nsample", "ngood + nbad < nsample"},
      {"hypergeometric", {-1, 5, 1}, "ngood < 0", "ngood < 0"},
      {"hypergeometric", {5, -1, 1}, "nbad < 0", "nbad < 0"},
      {"hypergeometric", {1, 1, 0}, "nsample < 1 or nsample is NaN", nullptr},
      {"hypergeometric", {1, 1, -1}, "nsample < 1 or nsample is NaN", "nsample < 0"},
      {"hypergeometric", {1e9, 10, 1}, nullptr, "both ngood and nbad must be less than 1000000000"},
      {"laplace", {0, -1}, "scale < 0", "scale < 0"},
      {"logistic", {0, -1}, "scale < 0", "scale < 0"},
      {"lognormal", {0, -1}, "sigma < 0", "sigma < 0"},
      {"logseries", {1}, "p < 0, p >= 1 or p is NaN", "p < 0, p >= 1 or p is NaN"},
      {"logseries", {nan}, "p < 0, p >= 1 or p is NaN", "p < 0, p >= 1 or p is NaN"},
      {"negative_binomial", {0, 0.5}, "n <= 0", "n <= 0"},
      {"negative_binomial", {1, 0}, nullptr, "p <= 0, p > 1 or p contains NaNs"},
      {"negative_binomial", {1, 1.1}, "p < 0, p > 1 or p is NaN", "p <= 0, p > 1 or p contains NaNs"},
      {"noncentral_chisquare", {0, 1}, "df <= 0", "df <= 0"},
      {"noncentral_chisquare", {1, -1}, "nonc < 0", "nonc < 0"},
      {"noncentral_f", {1, 1, -1}, "nonc < 0", "nonc < 0"},
      {"pareto", {0}, "a <= 0", "a <= 0"},
      {"poisson", {-1}, "lam < 0 or lam is NaN", "lam < 0 or lam is NaN"},
      {"poisson", {nan}, "lam < 0 or lam is NaN", "lam < 0 or lam is NaN"},
      {"poisson", {1e20}, "lam value too large", "lam value too large"},
      {"power", {0}, "a <= 0", "a <= 0"},
      {"rayleigh", {-1}, "scale < 0", "scale < 0"},
      {"standard_t", {0}, "df <= 0", "df <= 0"},
      {"triangular", {1, 0, 2}, "left > mode", "left > mode"},
      {"triangular", {0, 3, 2}, "mode > right", "mode > right"},
      {"triangular", {1, 1, 1}, "left == right", "left == right"},
      {"vonmises", {0, -1}, "kappa < 0", "kappa < 0"},
      {"wald", {0, 1}, "mean <= 0", "mean <= 0"},
      {"wald", {1, 0}, "scale <= 0", "scale <= 0"},
      {"weibull", {-1}, "a < 0", "a < 0"},
      {"zipf", {1}, "a <= 1 or a is NaN", "a <= 1 or a is NaN"},
      {"zipf", {nan}, "a <= 1 or a is NaN", "a <= 1 or a is NaN"},
      {"uniform",
       {0, INFINITY},
       "Range exceeds valid bounds",
       "high - low range exceeds valid bounds",
       ErrorKind::Overflow},
  };
  for (const BadCall& c : calls) {
    std::vector<Operand> params;
    for (double v : c.params) params.push_back(s(v));
    const random::DistributionDef& def = random::distribution_def(c.name);
    for (Api api : {Api::Legacy, Api::Generator}) {
      const char* expected = api == Api::Legacy ? c.legacy : c.generator;
      SCOPED_TRACE(std::string(c.name) + (api == Api::Legacy ? " (RandomState)" : " (Generator)"));
      if (expected)
        expect_error(c.kind, expected, [&] { random::check_parameters(def, api, params); });
      else
        EXPECT_NO_THROW(random::check_parameters(def, api, params));
    }
  }
}

TEST(RandomHostChecks, BroadcastMessagesAreNumPys) {
  // np.random.RandomState(0).normal(np.zeros(3), 1, size=(2,)) and (np.zeros((2, 1)), 1, size=(3,)).
  NDArray* none = nullptr;
  (void)none;
  const Shape three{3}, two{2}, two_one{2, 1};
  auto shaped = [](const Shape& shape) {
    // Only the shape matters to output_shape: a view with no buffer.
    return NDArray(nullptr, nullptr, shape, Strides(shape.size(), 0), DType::Float64);
  };
  const NDArray a3 = shaped(three), a21 = shaped(two_one);
  const Operand p3[] = {Operand::of(a3), s(1)};
  expect_error(ErrorKind::Value,
               "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
               "(2,) and arg 1 with shape (3,).",
               [&] { random::output_shape(p3, two); });
  const Operand p21[] = {Operand::of(a21), s(1)};
  expect_error(ErrorKind::Value, "Output size (3,) is not compatible with broadcast dimensions of inputs (2, 3).",
               [&] { random::output_shape(p21, three); });
  EXPECT_EQ(random::output_shape(p21, std::nullopt), two_one);
  EXPECT_EQ(random::output_shape(p3, Shape{4, 3}), (Shape{4, 3}));
  // integers broadcast (low, high, out): g.integers(np.array([0, 1]), 5, size=(3,)).
  const NDArray a2 = shaped(two);
  const Operand bounds[] = {Operand::of(a2), s(5)};
  expect_error(ErrorKind::Value,
               "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
               "(2,) and arg 2 with shape (3,).",
               [&] { random::output_shape(bounds, three, true); });
}

TEST(RandomHostChecks, IntegersBoundsAndDtypes) {
  random::Generator legacy(1, Api::Legacy), gen(1, Api::Generator);
  auto i = [](int64_t v) { return Operand::of(Scalar::from_int(v)); };
  expect_error(ErrorKind::Type, "Unsupported dtype dtype('float32') for randint",
               [&] { legacy.integers(i(0), i(5), std::nullopt, DType::Float32); });
  expect_error(ErrorKind::Type, "Unsupported dtype dtype('float64') for integers",
               [&] { gen.integers(i(0), i(5), std::nullopt, DType::Float64); });
  expect_error(ErrorKind::Value, "low >= high", [&] { legacy.integers(i(5), i(5), std::nullopt); });
  expect_error(ErrorKind::Value, "low > high", [&] { gen.integers(i(5), i(4), std::nullopt, DType::Int64, true); });
  expect_error(ErrorKind::Value, "low is out of bounds for uint8",
               [&] { gen.integers(i(-1), i(5), std::nullopt, DType::UInt8); });
  expect_error(ErrorKind::Value, "high is out of bounds for uint8",
               [&] { gen.integers(i(0), i(256), std::nullopt, DType::UInt8, true); });
  expect_error(ErrorKind::Value, "high is out of bounds for int32",
               [&] { legacy.integers(i(0), i(int64_t{1} << 40), std::nullopt, DType::Int32); });
  expect_error(ErrorKind::Value, "high is out of bounds for bool",
               [&] { gen.integers(i(0), i(3), std::nullopt, DType::Bool); });
  expect_error(ErrorKind::Type, "Unsupported dtype dtype('int32') for standard_gamma",
               [&] { gen.standard_gamma(s(1), std::nullopt, DType::Int32); });
  expect_error(ErrorKind::Type, "Unsupported dtype dtype('int32') for random", [&] { gen.random({3}, DType::Int32); });
  const Operand shape_scale[] = {s(2), s(1)};
  expect_error(ErrorKind::Type, "Unsupported dtype dtype('float32') for gamma",
               [&] { gen.sample("gamma", shape_scale, std::nullopt, DType::Float32); });
  expect_error(ErrorKind::Type, "Unsupported dtype dtype('int64') for normal",
               [&] { legacy.sample("normal", shape_scale, std::nullopt, DType::Int64); });
}

// ---- on the GPU ----

TEST(RandomGpu, SeedReproducesAndCallsAdvance) {
  CUARRAY_SKIP_WITHOUT_GPU();
  auto host = [](const NDArray& a) {
    std::vector<double> v(static_cast<size_t>(a.size()));
    a.astype(DType::Float64).copy_to_host(v.data());
    return v;
  };
  random::Generator a(42), b(42);
  const auto first = host(a.gamma(s(2.5), s(1), Shape{1000}));
  EXPECT_EQ(a.offset(), 1000u);
  EXPECT_EQ(first, host(b.gamma(s(2.5), s(1), Shape{1000})));
  EXPECT_NE(first, host(a.gamma(s(2.5), s(1), Shape{1000})));
  // Element e depends only on (seed, offset + e): a longer call starts with the shorter one.
  random::Generator c(42);
  const auto longer = host(c.gamma(s(2.5), s(1), Shape{5000}));
  EXPECT_TRUE(std::equal(first.begin(), first.end(), longer.begin()));
  random::Generator d(7);
  const auto u = host(d.random({1 << 20}));
  for (double x : u) ASSERT_TRUE(x >= 0 && x < 1);
}

TEST(RandomGpu, FillsIntegersAndDeviceChecks) {
  CUARRAY_SKIP_WITHOUT_GPU();
  random::Generator g(11);
  std::vector<float> f(100001);
  g.random({100001}, DType::Float32).copy_to_host(f.data());
  for (float x : f) ASSERT_TRUE(x >= 0.0f && x < 1.0f);
  std::vector<int8_t> b(4099);
  g.integers(Operand::of(Scalar::from_int(-128)), Operand::of(Scalar::from_int(127)), Shape{4099}, DType::Int8, true)
      .copy_to_host(b.data());
  EXPECT_EQ(*std::min_element(b.begin(), b.end()), -128);
  EXPECT_EQ(*std::max_element(b.begin(), b.end()), 127);
  // Array parameters are checked on the device: NumPy's message for arrays.
  const double p_host[] = {0.5, std::nan("")};
  const NDArray p = from_host(p_host, Shape{2}, DType::Float64);
  const Operand np[] = {Operand::of(Scalar::from_int(5)), Operand::of(p)};
  expect_error(ErrorKind::Value, "p < 0, p > 1 or p contains NaNs", [&] { g.sample("binomial", np, std::nullopt); });
}

TEST(RandomGpu, PermutationPrefixEqualsTheHostModelAndTakesOneCounter) {
  CUARRAY_SKIP_WITHOUT_GPU();
  random::Generator g(1234);
  g.set_state(1234, 5);
  std::vector<int64_t> v(8);
  g.permutation_prefix(10000000, 8).copy_to_host(v.data());
  // tests/python/feistel_model.py: permutation_prefix(1234, 5, 10**7, 8) (test_random_bijection_host.cpp)
  EXPECT_EQ(v, (std::vector<int64_t>{9581210, 9461925, 4902500, 7019630, 6115138, 207708, 8441347, 673090}));
  EXPECT_EQ(g.offset(), 6u);
  // Every element is pi(e), whatever the grid: a longer prefix starts with the shorter one.
  g.set_state(1234, 5);
  std::vector<int64_t> longer(1 << 20);
  g.permutation_prefix(10000000, 1 << 20).copy_to_host(longer.data());
  EXPECT_TRUE(std::equal(v.begin(), v.end(), longer.begin()));
  std::sort(longer.begin(), longer.end());
  EXPECT_EQ(std::adjacent_find(longer.begin(), longer.end()), longer.end());
  EXPECT_GE(longer.front(), 0);
  EXPECT_LT(longer.back(), 10000000);
}
