#include "ops/random/distribution_table.hpp"

#include <string>
#include <vector>

#include "kernels/fragments.hpp"

namespace cuarray::random {
namespace {

using K = random_checks::CheckKind;
using P = ParamType;
using R = ResultType;

constexpr P F = P::Float, I = P::Int;

// A one-parameter check on parameter k.
constexpr CheckDef on(int8_t k, K kind, std::string_view message, uint8_t scope = kEverywhere) {
  return {kind, {k, k, k}, message, scope};
}

const std::array<DistributionDef, 30> kDistributions = {{
    {"uniform", 2, {"low", "high"}, {F, F}, "cuarray::random_uniform(s, in2, in3)", R::Float64, 4,
     {{{K::RangeNotFinite, {0, 1, 1}, "Range exceeds valid bounds", kLegacy | kBothRules, ErrorKind::Overflow},
       {K::RangeNotFinite, {0, 1, 1}, "high - low range exceeds valid bounds", kGenerator | kScalarRules,
        ErrorKind::Overflow},
       {K::RangeNotFinite, {0, 1, 1}, "Range exceeds valid bounds", kGenerator | kArrayRules, ErrorKind::Overflow},
       {K::RangeNegative, {0, 1, 1}, "high - low < 0", kGenerator | kBothRules}}},
     ScalarFill::Uniform},
    {"normal", 2, {"loc", "scale"}, {F, F}, "cuarray::random_normal(s, in2, in3)", R::Float64, 1,
     {{on(1, K::Negative, "scale < 0")}}, ScalarFill::Normal},
    {"exponential", 1, {"scale"}, {F}, "cuarray::random_exponential(s, in2)", R::Float64, 1,
     {{on(0, K::Negative, "scale < 0")}}, ScalarFill::Exponential},
    {"standard_gamma", 1, {"shape"}, {F}, "cuarray::standard_gamma<out0_t>(s, in2)", R::FloatOfDtype, 1,
     {{on(0, K::Negative, "shape < 0")}}},
    {"gamma", 2, {"shape", "scale"}, {F, F}, "cuarray::random_gamma(s, in2, in3)", R::Float64, 2,
     {{on(0, K::Negative, "shape < 0"), on(1, K::Negative, "scale < 0")}}},
    {"beta", 2, {"a", "b"}, {F, F}, "cuarray::random_beta(s, in2, in3)", R::Float64, 2,
     {{on(0, K::NotPositive, "a <= 0"), on(1, K::NotPositive, "b <= 0")}}},
    {"chisquare", 1, {"df"}, {F}, "cuarray::random_chisquare(s, in2)", R::Float64, 1,
     {{on(0, K::NotPositive, "df <= 0")}}},
    {"noncentral_chisquare", 2, {"df", "nonc"}, {F, F}, "cuarray::random_noncentral_chisquare(s, in2, in3)",
     R::Float64, 2, {{on(0, K::NotPositive, "df <= 0"), on(1, K::Negative, "nonc < 0")}}},
    {"f", 2, {"dfnum", "dfden"}, {F, F}, "cuarray::random_f(s, in2, in3)", R::Float64, 2,
     {{on(0, K::NotPositive, "dfnum <= 0"), on(1, K::NotPositive, "dfden <= 0")}}},
    {"noncentral_f", 3, {"dfnum", "dfden", "nonc"}, {F, F, F}, "cuarray::random_noncentral_f(s, in2, in3, in4)",
     R::Float64, 3,
     {{on(0, K::NotPositive, "dfnum <= 0"), on(1, K::NotPositive, "dfden <= 0"), on(2, K::Negative, "nonc < 0")}}},
    {"standard_t", 1, {"df"}, {F}, "cuarray::random_standard_t(s, in2)", R::Float64, 1,
     {{on(0, K::NotPositive, "df <= 0")}}},
    {"standard_cauchy", 0, {}, {}, "cuarray::random_standard_cauchy(s)", R::Float64, 0, {}},
    {"pareto", 1, {"a"}, {F}, "cuarray::random_pareto(s, in2)", R::Float64, 1, {{on(0, K::NotPositive, "a <= 0")}}},
    {"weibull", 1, {"a"}, {F}, "cuarray::random_weibull(s, in2)", R::Float64, 1, {{on(0, K::Negative, "a < 0")}}},
    {"power", 1, {"a"}, {F}, "cuarray::random_power(s, in2)", R::Float64, 1, {{on(0, K::NotPositive, "a <= 0")}}},
    {"laplace", 2, {"loc", "scale"}, {F, F}, "cuarray::random_laplace(s, in2, in3)", R::Float64, 1,
     {{on(1, K::Negative, "scale < 0")}}},
    {"gumbel", 2, {"loc", "scale"}, {F, F}, "cuarray::random_gumbel(s, in2, in3)", R::Float64, 1,
     {{on(1, K::Negative, "scale < 0")}}},
    {"logistic", 2, {"loc", "scale"}, {F, F}, "cuarray::random_logistic(s, in2, in3)", R::Float64, 1,
     {{on(1, K::Negative, "scale < 0")}}},
    {"lognormal", 2, {"mean", "sigma"}, {F, F}, "cuarray::random_lognormal(s, in2, in3)", R::Float64, 1,
     {{on(1, K::Negative, "sigma < 0")}}},
    {"rayleigh", 1, {"scale"}, {F}, "cuarray::random_rayleigh(s, in2)", R::Float64, 1,
     {{on(0, K::Negative, "scale < 0")}}},
    {"vonmises", 2, {"mu", "kappa"}, {F, F}, "cuarray::random_vonmises(s, in2, in3)", R::Float64, 1,
     {{on(1, K::Negative, "kappa < 0")}}},
    {"wald", 2, {"mean", "scale"}, {F, F}, "cuarray::random_wald(s, in2, in3)", R::Float64, 2,
     {{on(0, K::NotPositive, "mean <= 0"), on(1, K::NotPositive, "scale <= 0")}}},
    {"triangular", 3, {"left", "mode", "right"}, {F, F, F}, "cuarray::random_triangular(s, in2, in3, in4)",
     R::Float64, 3,
     {{{K::Greater, {0, 1, 1}, "left > mode"}, {K::Greater, {1, 2, 2}, "mode > right"},
       {K::Equal, {0, 2, 2}, "left == right"}}}},
    {"binomial", 2, {"n", "p"}, {I, F}, "cuarray::random_binomial(s, in2, in3)", R::Int64, 2,
     {{on(0, K::Negative, "n < 0"), on(1, K::NotIn0To1, "p < 0, p > 1 or p {nan}")}}, ScalarFill::Binomial},
    {"negative_binomial", 2, {"n", "p"}, {F, F}, "cuarray::random_negative_binomial(s, in2, in3)", R::Int64, 5,
     {{on(0, K::NaN, "n must not be NaN", kGenerator | kBothRules), on(0, K::NotPositive, "n <= 0"),
       on(1, K::NotIn0To1, "p < 0, p > 1 or p {nan}", kLegacy | kBothRules),
       on(1, K::NotInAbove0To1, "p <= 0, p > 1 or p contains NaNs", kGenerator | kBothRules),
       {K::NegativeBinomialLamTooLarge, {0, 1, 1}, "n too large or p too small, see Generator.negative_binomial Notes",
        kGenerator | kBothRules}}}},
    {"poisson", 1, {"lam"}, {F}, "cuarray::random_poisson(s, in2)", R::Int64, 3,
     {{on(0, K::NegativeOrNaN, "lam < 0 or lam is NaN", kBothApis | kScalarRules),
       on(0, K::AboveLamMax, "lam value too large"),
       on(0, K::NegativeOrNaN, "lam < 0 or lam contains NaNs", kBothApis | kArrayRules)}},
     ScalarFill::Poisson},
    {"geometric", 1, {"p"}, {F}, "cuarray::random_geometric(s, in2)", R::Int64, 1,
     {{on(0, K::NotInAbove0To1, "p <= 0, p > 1 or p contains NaNs")}}},
    {"hypergeometric", 3, {"ngood", "nbad", "nsample"}, {I, I, I}, "cuarray::random_hypergeometric(s, in2, in3, in4)",
     R::Int64, 6,
     {{{K::AnyAtLeastMax, {0, 1, 1}, "both ngood and nbad must be less than 1000000000", kGenerator | kBothRules},
       {K::SumBelow, {0, 1, 2}, "ngood + nbad < nsample"},
       on(0, K::Negative, "ngood < 0"),
       on(1, K::Negative, "nbad < 0"),
       on(2, K::NotAtLeast1, "nsample < 1 or nsample {nan}", kLegacy | kBothRules),
       on(2, K::Negative, "nsample < 0", kGenerator | kBothRules)}}},
    {"logseries", 1, {"p"}, {F}, "cuarray::random_logseries(s, in2)", R::Int64, 1,
     {{on(0, K::NotIn0ToBelow1, "p < 0, p >= 1 or p {nan}")}}},
    {"zipf", 1, {"a"}, {F}, "cuarray::random_zipf(s, in2)", R::Int64, 1, {{on(0, K::NotAbove1, "a <= 1 or a {nan}")}}},
}};

}  // namespace

std::span<const DistributionDef> distribution_defs() { return kDistributions; }

const DistributionDef& distribution_def(std::string_view name) {
  for (const DistributionDef& d : kDistributions)
    if (d.name == name) return d;
  throw_error(ErrorKind::Value, "unknown distribution '" + std::string(name) + "'");
}

const std::string& sampler_expression(const DistributionDef& def) {
  static const std::vector<std::string> exprs = [] {
    std::vector<std::string> v;
    for (const DistributionDef& d : kDistributions)
      v.push_back("cuarray::RandomStream s(in0, in1 + static_cast<unsigned long long>(i));\nout0 = " +
                  std::string(d.sampler) + ";");
    return v;
  }();
  return exprs[static_cast<size_t>(row_index(def))];
}

std::string_view sampler_preamble() {
  static const std::string s =
      std::string(kernels::random_stream_cuh) + std::string(kernels::random_distributions_cuh);
  return s;
}

std::span<const std::string_view> distribution_names() {
  static const auto names = [] {
    std::array<std::string_view, kDistributions.size()> n{};
    for (size_t k = 0; k < kDistributions.size(); ++k) n[k] = kDistributions[k].name;
    return n;
  }();
  return names;
}

}  // namespace cuarray::random
