// The device samplers of cuarray.random run on the host here, compiled from the same .cuh files
// that NVRTC compiles, with stand-ins for the few CUDA intrinsics they call: every distribution's
// mean (and variance, where its fourth moment is finite) matches the law's, so the algorithms are
// checked in CI without a GPU. The GPU suite tests the full goodness of fit (tests/python).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "ops/random/inversion_table.hpp"
#include "ops/random/ziggurat.hpp"

#define __device__
#define __forceinline__ inline
namespace {
unsigned int __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
void sincospi(double x, double* s, double* c) { *s = std::sin(M_PI * x), *c = std::cos(M_PI * x); }
void sincospif(float x, float* s, float* c) {
  *s = std::sin(static_cast<float>(M_PI) * x), *c = std::cos(static_cast<float>(M_PI) * x);
}
double cospi(double x) { return std::cos(M_PI * x); }
double __longlong_as_double(long long i) { return std::bit_cast<double>(i); }
long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
}  // namespace
namespace cuarray {
constexpr double kPi = M_PI;  // from common.cuh on the device
}
#include "kernels/random_stream.cuh"
// (the samplers need the stream first)
#include "kernels/random_distributions.cuh"
#include "kernels/random_ziggurat.cuh"
#undef __device__
#undef __forceinline__
// After the samplers: their unqualified log/exp must not see cuarray's array functions.
#include "cuarray/random.hpp"
#include "gpu_test.hpp"

namespace {

using cuarray::RandomStream;

struct Law {
  std::string name;
  std::function<double(RandomStream&)> draw;
  double mean, var;
  bool check_var = true;  // false where the fourth moment is infinite
};

const std::vector<Law>& laws() {
  using namespace cuarray;
  static const std::vector<Law> v = {
      {"uniform(-2, 3)", [](RandomStream& s) { return random_uniform(s, -2, 3); }, 0.5, 25.0 / 12},
      {"normal(1.5, 2)", [](RandomStream& s) { return random_normal(s, 1.5, 2); }, 1.5, 4},
      {"standard_normal<float>", [](RandomStream& s) { return double(standard_normal<float>(s)); }, 0, 1},
      {"exponential(2)", [](RandomStream& s) { return random_exponential(s, 2); }, 2, 4},
      {"standard_gamma(0.3)", [](RandomStream& s) { return standard_gamma<double>(s, 0.3); }, 0.3, 0.3},
      {"standard_gamma(4.5)", [](RandomStream& s) { return standard_gamma<double>(s, 4.5); }, 4.5, 4.5},
      {"standard_gamma<float>(0.4)", [](RandomStream& s) { return double(standard_gamma<float>(s, 0.4f)); }, 0.4, 0.4},
      {"gamma(2.5, 3)", [](RandomStream& s) { return random_gamma(s, 2.5, 3); }, 7.5, 22.5},
      {"beta(0.5, 0.7)", [](RandomStream& s) { return random_beta(s, 0.5, 0.7); }, 0.5 / 1.2, 0.35 / (1.44 * 2.2)},
      {"beta(2, 5)", [](RandomStream& s) { return random_beta(s, 2, 5); }, 2.0 / 7, 10.0 / (49 * 8)},
      {"chisquare(3)", [](RandomStream& s) { return random_chisquare(s, 3); }, 3, 6},
      {"noncentral_chisquare(3, 2)", [](RandomStream& s) { return random_noncentral_chisquare(s, 3, 2); }, 5, 14},
      {"noncentral_chisquare(0.5, 2)", [](RandomStream& s) { return random_noncentral_chisquare(s, 0.5, 2); }, 2.5, 9},
      {"f(5, 12)", [](RandomStream& s) { return random_f(s, 5, 12); }, 1.2, 2 * 144.0 * 15 / (5 * 100 * 8)},
      {"noncentral_f(5, 12, 2)", [](RandomStream& s) { return random_noncentral_f(s, 5, 12, 2); }, 12.0 * 7 / (5 * 10),
       2 * 144.0 / 25 * (49 + 9 * 10) / (100 * 8), false},
      {"standard_t(5)", [](RandomStream& s) { return random_standard_t(s, 5); }, 0, 5.0 / 3, false},
      {"pareto(5)", [](RandomStream& s) { return random_pareto(s, 5); }, 0.25, 5.0 / (16 * 3), false},
      {"weibull(1.5)", [](RandomStream& s) { return random_weibull(s, 1.5); }, std::tgamma(1 + 1 / 1.5),
       std::tgamma(1 + 2 / 1.5) - std::pow(std::tgamma(1 + 1 / 1.5), 2)},
      {"power(2.5)", [](RandomStream& s) { return random_power(s, 2.5); }, 2.5 / 3.5, 2.5 / (12.25 * 4.5)},
      {"laplace(1, 2)", [](RandomStream& s) { return random_laplace(s, 1, 2); }, 1, 8},
      {"gumbel(1, 2)", [](RandomStream& s) { return random_gumbel(s, 1, 2); }, 1 + 2 * 0.5772156649015329,
       M_PI * M_PI / 6 * 4},
      {"logistic(1, 2)", [](RandomStream& s) { return random_logistic(s, 1, 2); }, 1, 4 * M_PI * M_PI / 3},
      {"lognormal(0.5, 0.75)", [](RandomStream& s) { return random_lognormal(s, 0.5, 0.75); }, std::exp(0.78125),
       std::expm1(0.5625) * std::exp(1.5625)},
      {"rayleigh(2)", [](RandomStream& s) { return random_rayleigh(s, 2); }, 2 * std::sqrt(M_PI / 2),
       (4 - M_PI) / 2 * 4},
      {"vonmises(0, 1e-6)", [](RandomStream& s) { return random_vonmises(s, 0, 1e-6); }, 0, M_PI * M_PI / 3},
      {"wald(1.5, 2)", [](RandomStream& s) { return random_wald(s, 1.5, 2); }, 1.5, 3.375 / 2},
      {"triangular(-1, 0.5, 2)", [](RandomStream& s) { return random_triangular(s, -1, 0.5, 2); }, 0.5, 6.75 / 18},
      {"binomial(10, 0.3)", [](RandomStream& s) { return double(random_binomial(s, 10, 0.3)); }, 3, 2.1},
      {"binomial(1000, 0.4)", [](RandomStream& s) { return double(random_binomial(s, 1000, 0.4)); }, 400, 240},
      {"binomial(100, 0.8)", [](RandomStream& s) { return double(random_binomial(s, 100, 0.8)); }, 80, 16},
      {"negative_binomial(5, 0.3)", [](RandomStream& s) { return double(random_negative_binomial(s, 5, 0.3)); },
       5 * 0.7 / 0.3, 5 * 0.7 / 0.09},
      {"poisson(3)", [](RandomStream& s) { return double(random_poisson(s, 3)); }, 3, 3},
      {"poisson(50)", [](RandomStream& s) { return double(random_poisson(s, 50)); }, 50, 50},
      {"geometric(0.5)", [](RandomStream& s) { return double(random_geometric(s, 0.5)); }, 2, 2},
      {"geometric(0.05)", [](RandomStream& s) { return double(random_geometric(s, 0.05)); }, 20, 380},
      {"hypergeometric(5, 10, 4)", [](RandomStream& s) { return double(random_hypergeometric(s, 5, 10, 4)); }, 4.0 / 3,
       4.0 / 3 * 2.0 / 3 * 11.0 / 14},
      {"hypergeometric(100, 200, 50)", [](RandomStream& s) { return double(random_hypergeometric(s, 100, 200, 50)); },
       50.0 / 3, 50.0 / 3 * 2.0 / 3 * 250.0 / 299},
      {"logseries(0.5)", [](RandomStream& s) { return double(random_logseries(s, 0.5)); }, 1 / std::log(2.0),
       -0.5 * (0.5 + std::log(0.5)) / (0.25 * std::log(0.5) * std::log(0.5))},
      {"zipf(3.5)", [](RandomStream& s) { return double(random_zipf(s, 3.5)); }, 1.341487257250917 / 1.126733867317057,
       2.612375348685488 / 1.126733867317057 - std::pow(1.341487257250917 / 1.126733867317057, 2), false},
      {"bounded(-5, [0, 9])",
       [](RandomStream& s) {
         return double(static_cast<long long>(cuarray::random_bounded(s, static_cast<unsigned long long>(-5), 9)));
       },
       -0.5, 99.0 / 12},
  };
  return v;
}

}  // namespace

class SamplerOnHost : public ::testing::TestWithParam<int> {};

TEST_P(SamplerOnHost, MomentsMatchTheLaw) {
  const Law& law = laws()[GetParam()];
  constexpr int n = 200000;
  double sum = 0, sum2 = 0;
  for (int e = 0; e < n; ++e) {
    RandomStream s(20261126, static_cast<unsigned long long>(e));
    const double x = law.draw(s);
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  EXPECT_NEAR(mean, law.mean, 6 * std::sqrt(law.var / n)) << law.name;
  if (law.check_var) EXPECT_NEAR(var / law.var, 1.0, 0.03) << law.name;
}

INSTANTIATE_TEST_SUITE_P(EveryLaw, SamplerOnHost, ::testing::Range(0, static_cast<int>(laws().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name;
                           for (char c : laws()[info.param].name)
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : 'U';
                           return name;
                         });

TEST(RandomStreamOnHost, IndependentOfHowElementsAreVisited) {
  // Element e's values depend only on (key, counter e): visiting order and draw counts of other
  // elements change nothing.
  std::vector<double> forward, backward(1000);
  for (unsigned long long e = 0; e < 1000; ++e) {
    RandomStream s(7, e);
    forward.push_back(cuarray::random_gamma(s, 0.5, 1));
  }
  for (unsigned long long e = 1000; e-- > 0;) {
    RandomStream s(7, e);
    backward[e] = cuarray::random_gamma(s, 0.5, 1);
  }
  EXPECT_EQ(forward, backward);
  RandomStream a(7, 0), b(8, 0), c(7, 1);
  const unsigned int wa = a.next_u32();
  EXPECT_NE(wa, b.next_u32());
  EXPECT_NE(wa, c.next_u32());
}

namespace {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Float64 normals as the bulk fill draws them: a Philox block's two 64-bit words per group, the
// group's slow paths drawing from one redraw stream at draw 1, 2, ...
const std::vector<cuarray::ZigguratLayer>& ziggurat_layers() {
  static const std::vector<cuarray::ZigguratLayer> layers = [] {
    const auto& z = cuarray::random::normal_ziggurat();
    std::vector<cuarray::ZigguratLayer> v(256);
    for (int i = 0; i < 256; ++i) v[i] = {z.k[i], z.w[i]};
    return v;
  }();
  return layers;
}

// Group g's two values.
std::array<double, 2> ziggurat_group(unsigned long long key, unsigned long long offset, unsigned long long g) {
  const auto& f = cuarray::random::normal_ziggurat().f;
  const cuarray::PhiloxBlock w = cuarray::philox4x32_10(offset + g, 0, key);
  RandomStream redraw(key, offset + g, 1);
  const double x0 = cuarray::ziggurat_normal(cuarray::join_words(w.v[0], w.v[1]), redraw, ziggurat_layers().data(), f.data());
  return {x0, cuarray::ziggurat_normal(cuarray::join_words(w.v[2], w.v[3]), redraw, ziggurat_layers().data(), f.data())};
}

std::vector<double> ziggurat_fill(unsigned long long key, unsigned long long offset, int groups) {
  std::vector<double> out;
  for (int g = 0; g < groups; ++g)
    for (double x : ziggurat_group(key, offset, g)) out.push_back(x);
  return out;
}

}  // namespace

TEST(NormalZiggurat, TablesHaveNumPysGeometry) {
  // Entries of NumPy's ki_double / wi_double (ziggurat_constants.h): the same layers to ~1e-14.
  const auto& z = cuarray::random::normal_ziggurat();
  const double m = 4503599627370496.0;
  EXPECT_NEAR(z.k[0] / m, 0x000EF33D8025EF6Aull / m, 1e-13);
  EXPECT_NEAR(z.k[2] / m, 0x000C08BE98FBC6A8ull / m, 1e-13);
  EXPECT_NEAR(z.k[14] / m, 0x000F8FA6578325DEull / m, 1e-13);
  EXPECT_EQ(z.k[1], 0u);
  EXPECT_NEAR(z.w[0] / 8.68362706080130616677e-16, 1.0, 1e-14);
  EXPECT_NEAR(z.w[254] / 7.65893637080557275482e-16, 1.0, 1e-14);
  EXPECT_NEAR(z.w[255] / 8.11384933765648418565e-16, 1.0, 1e-14);
  // Every layer above the base has the base strip's area v = x_0 f(r) (w[0] is v / f(r) / 2^52).
  const double v = z.w[0] * m * z.f[255];
  for (int i = 2; i < 256; ++i) EXPECT_NEAR(z.w[i] * m * (z.f[i - 1] - z.f[i]) / v, 1.0, 1e-12) << i;
  EXPECT_NEAR(z.w[1] * m * (1.0 - z.f[1]) / v, 1.0, 1e-9);
}

TEST(NormalZiggurat, DrawIsNumPysProductBitForBit) {
  // The double built from bits times the signed width is NumPy's (double)rabs * wi[idx], negated
  // for a set sign bit; `inside` is NumPy's rabs < ki[idx].
  const auto& z = cuarray::random::normal_ziggurat();
  RandomStream s(11, 12);
  for (int i = 0; i < 200000; ++i) {
    unsigned long long r = s.next_u64();
    if (i % 4 == 1) r |= 0x1ffffffffffffe00ull;  // the largest magnitude
    if (i % 4 == 2) r &= 0xe0000000000001ffull;  // magnitude 0 (x = -0.0 with the sign set)
    const int idx = static_cast<int>(r & 0xff);
    const unsigned long long rabs = (r >> 9) & 0x000fffffffffffffull;
    const double numpy = (r >> 8 & 1) ? -(static_cast<double>(rabs) * z.w[idx]) : static_cast<double>(rabs) * z.w[idx];
    const cuarray::ZigguratDraw d = cuarray::ziggurat_draw(r, ziggurat_layers().data());
    ASSERT_EQ(std::bit_cast<unsigned long long>(d.x), std::bit_cast<unsigned long long>(numpy)) << std::hex << r;
    ASSERT_EQ(d.idx, idx);
    ASSERT_EQ(d.rabs, rabs);
    ASSERT_EQ(d.inside, rabs < z.k[idx]);
  }
}

TEST(NormalZiggurat, FillIsStandardNormalTailsIncluded) {
  std::vector<double> x = ziggurat_fill(20261126, 0, 2000000);
  const double n = static_cast<double>(x.size());
  double sum = 0, sum2 = 0;
  int beyond_r = 0, beyond_4 = 0, negative = 0;
  for (double v : x) {
    sum += v;
    sum2 += v * v;
    beyond_r += std::fabs(v) > cuarray::kZigguratR;
    beyond_4 += std::fabs(v) > 4;
    negative += v < 0;
  }
  EXPECT_NEAR(sum / n, 0, 6 / std::sqrt(n));
  EXPECT_NEAR(sum2 / n, 1, 6 * std::sqrt(2 / n));
  // The tail path (|x| > r) and beyond 4 sigma, within 5 standard deviations of their counts.
  const double p_r = 2 * normal_cdf(-cuarray::kZigguratR), p_4 = 2 * normal_cdf(-4);
  EXPECT_NEAR(beyond_r, n * p_r, 5 * std::sqrt(n * p_r));
  EXPECT_NEAR(beyond_4, n * p_4, 5 * std::sqrt(n * p_4));
  EXPECT_NEAR(negative, n / 2, 5 * std::sqrt(n / 4));
  // Kolmogorov-Smirnov against the normal CDF: D below the 0.1% critical value 1.95 / sqrt(n).
  std::sort(x.begin(), x.end());
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double c = normal_cdf(x[i]);
    d = std::max({d, c - i / n, (i + 1) / n - c});
  }
  EXPECT_LT(d, 1.95 / std::sqrt(n)) << d * std::sqrt(n);
}

TEST(InversionTable, BinomialTableIsTheTruncatedPmf) {
  using cuarray::random::binomial_inversion_table;
  for (auto [n, p] : std::vector<std::pair<long long, double>>{{10, 0.3}, {100, 0.3}, {100, 0.8}, {7, 1.0}, {0, 0.4},
                                                               {60, 0.5}, {1000000000000ll, 2.5e-11}}) {
    const auto t = binomial_inversion_table(n, p);
    ASSERT_TRUE(t.has_value()) << n << " " << p;
    const bool reflect = p > 0.5;
    const double r = reflect ? 1 - p : p, np = n * r;
    EXPECT_EQ(t->base, reflect ? n : 0);
    EXPECT_EQ(t->step, reflect ? -1 : 1);
    EXPECT_EQ(t->size, std::min<long long>(n, static_cast<long long>(np + 10 * std::sqrt(np * (1 - r) + 1))) + 1);
    double prev = 0;
    for (int x = 0; x < t->size; ++x) {
      // log C(n, x) as a sum: lgamma(n + 1) loses the digits for n = 10^12. log(1 - r), not
      // log1p(-r): NumPy's q^n rounds 1 - r first, and the table keeps NumPy's law.
      double log_choose = 0;
      for (int i = 0; i < x; ++i) log_choose += std::log(static_cast<double>(n - i) / (i + 1));
      const double pmf = r == 0 ? (x == 0) : std::exp(log_choose + x * std::log(r) + (n - x) * std::log(1 - r));
      EXPECT_NEAR(t->cdf[x] - prev, pmf, 1e-12) << n << " " << p << " x=" << x;
      prev = t->cdf[x];
    }
    // The truncated mass is tiny; for n = 10^12 NumPy's rounded q^n leaves 2e-6 (redrawn).
    EXPECT_NEAR(prev, 1.0, 1e-5);
    for (int x = t->size; x < cuarray::random::kInversionEntries; ++x) EXPECT_TRUE(std::isinf(t->cdf[x]));
  }
  // BTPE's range (n min(p, q) > 30) has no table, as NumPy does not invert there.
  EXPECT_FALSE(binomial_inversion_table(1000, 0.4).has_value());
  EXPECT_FALSE(binomial_inversion_table(100, 0.69).has_value());
  EXPECT_TRUE(binomial_inversion_table(100, 0.75).has_value());
}

TEST(InversionTable, SearchFindsTheFirstEntryNotBelow) {
  constexpr int N = cuarray::random::kInversionEntries;
  const auto t = *cuarray::random::binomial_inversion_table(100, 0.3);
  RandomStream s(3, 4);
  for (int i = 0; i < 20000; ++i) {
    // Uniforms, and the table's own entries and their neighbours (ties and off-by-ones).
    double u = s.next_double();
    if (i % 4 == 1) u = t.cdf[s.next_u32() % t.size];
    if (i % 4 == 2) u = std::nextafter(t.cdf[s.next_u32() % t.size], 0.0);
    if (i % 4 == 3) u = std::nextafter(t.cdf[s.next_u32() % t.size], 2.0);
    const int expected = static_cast<int>(std::lower_bound(t.cdf.begin(), t.cdf.end(), u) - t.cdf.begin());
    ASSERT_EQ(cuarray::cdf_search<N>(t.cdf.data(), u), expected) << u;
  }
  // Past the last finite entry the search lands on the first +inf: the kernel draws again there.
  EXPECT_EQ(cuarray::cdf_search<N>(t.cdf.data(), std::nextafter(t.cdf[t.size - 1], 2.0)), t.size);
}

TEST(InversionTable, PoissonTableIsThePmfWherePtrsIsNotNeeded) {
  using cuarray::random::poisson_inversion_table;
  for (double lam : {0.0, 1e-3, 3.0, 10.0, 50.0}) {
    const auto t = poisson_inversion_table(lam);
    ASSERT_TRUE(t.has_value()) << lam;
    EXPECT_EQ(t->base, 0);
    EXPECT_EQ(t->step, 1);
    EXPECT_EQ(t->size, cuarray::random::kInversionEntries - 1);
    double prev = 0;
    for (int x = 0; x < t->size; ++x) {
      const double pmf = lam == 0 ? (x == 0) : std::exp(x * std::log(lam) - lam - std::lgamma(x + 1.0));
      EXPECT_NEAR(t->cdf[x] - prev, pmf, 1e-13 * std::max(1.0, pmf * 100)) << lam << " x=" << x;
      prev = t->cdf[x];
    }
    EXPECT_NEAR(prev, 1.0, 1e-14) << lam;
    EXPECT_TRUE(std::isinf(t->cdf[cuarray::random::kInversionEntries - 1]));
  }
  // Where the mass past 126 reaches 2^-60, PTRS per element keeps the whole law.
  EXPECT_FALSE(poisson_inversion_table(70.0).has_value());
  EXPECT_FALSE(poisson_inversion_table(1e6).has_value());
}

namespace {

// The inversion kind as the kernel runs it: group g takes block (offset + g, draw 0), a 53-bit
// uniform from each half, redraws from (offset + g, draw 1, ...).
std::vector<long long> inversion_fill(const cuarray::random::InversionTable& t, unsigned long long key,
                                      unsigned long long offset, int n) {
  constexpr int N = cuarray::random::kInversionEntries;
  std::vector<long long> out;
  for (int g = 0; 2 * g < n; ++g) {
    const cuarray::PhiloxBlock w = cuarray::philox4x32_10(offset + g, 0, key);
    RandomStream redraw(key, offset + g, 1);
    for (int j = 0; j < 2 && 2 * g + j < n; ++j) {
      const double u = cuarray::uniform_double(cuarray::join_words(w.v[2 * j], w.v[2 * j + 1]));
      int x = cuarray::cdf_search<N>(t.cdf.data(), u);
      while (std::isinf(t.cdf[x])) x = cuarray::cdf_search<N>(t.cdf.data(), redraw.next_double());
      out.push_back(t.base + t.step * x);
    }
  }
  return out;
}

// Integers of a 32-bit span into 64-bit elements as the kernel draws them: four values per block,
// group g = 32 t + l holding elements 128 t + 2 l + {0, 1} and 128 t + 64 + 2 l + {0, 1}.
std::vector<long long> integer_fill_64(long long low, unsigned int range, unsigned long long key,
                                       unsigned long long offset, int n) {
  std::vector<long long> out(n);
  for (int g = 0; g / 32 * 128 + g % 32 * 2 < n; ++g) {
    const cuarray::PhiloxBlock w = cuarray::philox4x32_10(offset + g, 0, key);
    RandomStream redraw(key, offset + g, 1);
    for (int j = 0; j < 4; ++j) {
      const long long value = low + cuarray::bounded_u32(redraw, w.v[j], range);
      const int e = g / 32 * 128 + j / 2 * 64 + g % 32 * 2 + j % 2;
      if (e < n) out[e] = value;
    }
  }
  return out;
}

}  // namespace

// The GPU's bulk fills against this file's host model of the kernel: the element-to-counter
// mapping, the word order and the partial last group, value for value.
TEST(RandomFillGpu, MatchesTheHostModel) {
  CUARRAY_SKIP_WITHOUT_GPU();
  using namespace cuarray;
  constexpr int n = 100001;  // odd: a partial last group
  const uint64_t key = 20261126;
  random::Generator g(key);
  std::vector<double> normals(n);
  g.standard_normal({n}).copy_to_host(normals.data());
  const std::vector<double> want = ziggurat_fill(key, 0, (n + 1) / 2);
  int differ = 0;
  for (int i = 0; i < n; ++i) {
    // The fast path is exact arithmetic; a slow path's exp/log1p may differ by an ulp.
    EXPECT_NEAR(normals[i], want[i], 1e-12 * (1 + std::fabs(want[i]))) << i;
    differ += normals[i] != want[i];
  }
  EXPECT_LT(differ, n / 100);
  for (auto [trials, p] : std::vector<std::pair<long long, double>>{{100, 0.3}, {100, 0.8}}) {
    const uint64_t offset = g.offset();
    std::vector<long long> got(n);
    g.binomial(Operand::of(Scalar::from_int(trials)), Operand::of(Scalar::from_double(p)), Shape{n})
        .copy_to_host(got.data());
    EXPECT_EQ(got, inversion_fill(*random::binomial_inversion_table(trials, p), key, offset, n)) << p;
  }
  for (int size : {n, n + 60}) {  // partial last tiles of 33 and 93 elements
    const uint64_t offset = g.offset();
    std::vector<long long> got(size);
    g.integers(Operand::of(Scalar::from_int(-7)), Operand::of(Scalar::from_int(993)), Shape{size}, DType::Int64, false)
        .copy_to_host(got.data());
    EXPECT_EQ(got, integer_fill_64(-7, 1000, key, offset, size)) << size;
  }
  const uint64_t offset = g.offset();
  std::vector<long long> got(n);
  g.poisson(Operand::of(Scalar::from_double(10.0)), Shape{n}).copy_to_host(got.data());
  EXPECT_EQ(got, inversion_fill(*random::poisson_inversion_table(10.0), key, offset, n));
}

// The benchmark's size: each warp of the float64 normal fill's capped grid goes round ~23 times and
// queues ~22 slow paths, so many warps run a full pass of 32 inside the loop and wrap their ring
// (random_fill.cuh, ZigguratRetries). Every value, against the host model; odd n: the partial last
// group's second value is neither stored nor retried.
TEST(RandomFillGpu, NormalRetryQueueMatchesTheHostModelAtScale) {
  CUARRAY_SKIP_WITHOUT_GPU();
  using namespace cuarray;
  constexpr long long n = 100'000'001;
  const uint64_t key = 977;
  random::Generator g(key);
  g.standard_normal({7});  // an offset that is not a multiple of anything
  const uint64_t offset = g.offset();
  std::vector<double> got(n);
  g.standard_normal({n}).copy_to_host(got.data());
  long long far = 0, differ = 0;
  for (long long e = 0; e < n; e += 2) {
    const std::array<double, 2> want = ziggurat_group(key, offset, static_cast<unsigned long long>(e / 2));
    for (long long j = 0; j < 2 && e + j < n; ++j) {
      far += !(std::fabs(got[e + j] - want[j]) <= 1e-12 * (1 + std::fabs(want[j])));
      differ += got[e + j] != want[j];
    }
  }
  EXPECT_EQ(far, 0);
  EXPECT_LT(differ, n / 1000);  // an ulp of a slow path's exp or log1p at most
  EXPECT_EQ(g.offset(), offset + n);
}
