// numpy.random on the GPU: a counter-based Philox4x32-10 stream (key = seed, a 128-bit counter)
// and every NumPy distribution (cuarray.random in Python; docs/random.md).
//
// A stream is (seed, offset): a call draws element e from the substream at counter offset + e and
// advances the offset by its element count, so results are a pure function of the seed and the
// call sequence, whatever the launch shape or device, and no state lives on the device.
#pragma once
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray::random {

// Whose rules a generator follows where NumPy's two APIs differ (parameter checks and messages,
// e.g. negative_binomial's p = 0, hypergeometric's nsample = 0).
enum class Api : uint8_t { Legacy, Generator };  // numpy.random.RandomState, numpy.random.Generator

// The Philox stream (seed, offset) plus the distributions. Thread-safe: each call reserves its
// counter range under a lock. Parameters are Operands (an array or a host scalar) that broadcast
// as NumPy's; `size` (nullopt: NumPy's None) must hold the parameters' broadcast shape.
// Invalid parameters raise NumPy's ValueError with NumPy's message: scalar ones on the host
// before any GPU work, array ones after one check on the device (one bool read back).
class Generator {
 public:
  explicit Generator(uint64_t seed, Api api = Api::Generator) : seed_(seed), api_(api) {}

  uint64_t seed() const;
  uint64_t offset() const;
  Api api() const { return api_; }
  void set_state(uint64_t seed, uint64_t offset);
  void reseed(uint64_t seed) { set_state(seed, 0); }
  // Reserves `count` consecutive counters: the key and the first counter.
  struct Counters {
    uint64_t key, offset;
  };
  Counters reserve(uint64_t count);

  // ---- bulk fills (float32 generated natively, not cast from float64) ----
  // Uniform in [0, 1); dtype float32 or float64 (TypeError otherwise).
  NDArray random(const Shape& shape, DType dtype = DType::Float64);
  NDArray standard_normal(const Shape& shape, DType dtype = DType::Float64);
  NDArray standard_exponential(const Shape& shape, DType dtype = DType::Float64);
  // numpy's integers/randint: [low, high) (or [low, high] with endpoint), any integer dtype or
  // bool; unbiased (Lemire's multiply-shift with rejection); array bounds broadcast.
  NDArray integers(const Operand& low, const Operand& high, std::optional<Shape> size, DType dtype = DType::Int64,
                   bool endpoint = false);
  // Uniformly random uint32 or uint64 words (sort keys for choice/permutation).
  NDArray random_bits(const Shape& shape, DType dtype);
  // k distinct integers of [0, n) in random order (int64): pi(0), ..., pi(k - 1) for pi a
  // pseudo-random permutation of [0, n) keyed by the stream (a Feistel network with Philox rounds;
  // docs/random_composites.md). O(k) work, no sort; reserves one counter. ValueError unless
  // 0 <= k <= n.
  NDArray permutation_prefix(int64_t n, int64_t k);

  // ---- every parameterised distribution, by NumPy's name ("gamma", "binomial", ...) ----
  // dtype: float32 is accepted where NumPy's Generator accepts it (standard_gamma); discrete
  // distributions give int64. ValueError for an unknown name or a wrong parameter count.
  NDArray sample(std::string_view distribution, std::span<const Operand> params, std::optional<Shape> size,
                 std::optional<DType> dtype = std::nullopt);

  NDArray uniform(const Operand& low, const Operand& high, std::optional<Shape> size) {
    return sample("uniform", std::array<Operand, 2>{low, high}, size);
  }
  NDArray normal(const Operand& loc, const Operand& scale, std::optional<Shape> size) {
    return sample("normal", std::array<Operand, 2>{loc, scale}, size);
  }
  NDArray exponential(const Operand& scale, std::optional<Shape> size) {
    return sample("exponential", std::array<Operand, 1>{scale}, size);
  }
  NDArray standard_gamma(const Operand& shape, std::optional<Shape> size, DType dtype = DType::Float64) {
    return sample("standard_gamma", std::array<Operand, 1>{shape}, size, dtype);
  }
  NDArray gamma(const Operand& shape, const Operand& scale, std::optional<Shape> size) {
    return sample("gamma", std::array<Operand, 2>{shape, scale}, size);
  }
  NDArray beta(const Operand& a, const Operand& b, std::optional<Shape> size) {
    return sample("beta", std::array<Operand, 2>{a, b}, size);
  }
  NDArray binomial(const Operand& n, const Operand& p, std::optional<Shape> size) {
    return sample("binomial", std::array<Operand, 2>{n, p}, size);
  }
  NDArray poisson(const Operand& lam, std::optional<Shape> size) {
    return sample("poisson", std::array<Operand, 1>{lam}, size);
  }
  NDArray chisquare(const Operand& df, std::optional<Shape> size) {
    return sample("chisquare", std::array<Operand, 1>{df}, size);
  }
  NDArray f(const Operand& dfnum, const Operand& dfden, std::optional<Shape> size) {
    return sample("f", std::array<Operand, 2>{dfnum, dfden}, size);
  }
  NDArray geometric(const Operand& p, std::optional<Shape> size) {
    return sample("geometric", std::array<Operand, 1>{p}, size);
  }
  NDArray hypergeometric(const Operand& ngood, const Operand& nbad, const Operand& nsample, std::optional<Shape> size) {
    return sample("hypergeometric", std::array<Operand, 3>{ngood, nbad, nsample}, size);
  }
  NDArray negative_binomial(const Operand& n, const Operand& p, std::optional<Shape> size) {
    return sample("negative_binomial", std::array<Operand, 2>{n, p}, size);
  }
  NDArray lognormal(const Operand& mean, const Operand& sigma, std::optional<Shape> size) {
    return sample("lognormal", std::array<Operand, 2>{mean, sigma}, size);
  }
  NDArray noncentral_chisquare(const Operand& df, const Operand& nonc, std::optional<Shape> size) {
    return sample("noncentral_chisquare", std::array<Operand, 2>{df, nonc}, size);
  }
  NDArray noncentral_f(const Operand& dfnum, const Operand& dfden, const Operand& nonc, std::optional<Shape> size) {
    return sample("noncentral_f", std::array<Operand, 3>{dfnum, dfden, nonc}, size);
  }
  NDArray standard_t(const Operand& df, std::optional<Shape> size) {
    return sample("standard_t", std::array<Operand, 1>{df}, size);
  }
  NDArray standard_cauchy(std::optional<Shape> size) { return sample("standard_cauchy", {}, size); }
  NDArray pareto(const Operand& a, std::optional<Shape> size) {
    return sample("pareto", std::array<Operand, 1>{a}, size);
  }
  NDArray weibull(const Operand& a, std::optional<Shape> size) {
    return sample("weibull", std::array<Operand, 1>{a}, size);
  }
  NDArray power(const Operand& a, std::optional<Shape> size) {
    return sample("power", std::array<Operand, 1>{a}, size);
  }
  NDArray laplace(const Operand& loc, const Operand& scale, std::optional<Shape> size) {
    return sample("laplace", std::array<Operand, 2>{loc, scale}, size);
  }
  NDArray gumbel(const Operand& loc, const Operand& scale, std::optional<Shape> size) {
    return sample("gumbel", std::array<Operand, 2>{loc, scale}, size);
  }
  NDArray logistic(const Operand& loc, const Operand& scale, std::optional<Shape> size) {
    return sample("logistic", std::array<Operand, 2>{loc, scale}, size);
  }
  NDArray rayleigh(const Operand& scale, std::optional<Shape> size) {
    return sample("rayleigh", std::array<Operand, 1>{scale}, size);
  }
  NDArray vonmises(const Operand& mu, const Operand& kappa, std::optional<Shape> size) {
    return sample("vonmises", std::array<Operand, 2>{mu, kappa}, size);
  }
  NDArray wald(const Operand& mean, const Operand& scale, std::optional<Shape> size) {
    return sample("wald", std::array<Operand, 2>{mean, scale}, size);
  }
  NDArray triangular(const Operand& left, const Operand& mode, const Operand& right, std::optional<Shape> size) {
    return sample("triangular", std::array<Operand, 3>{left, mode, right}, size);
  }
  NDArray logseries(const Operand& p, std::optional<Shape> size) {
    return sample("logseries", std::array<Operand, 1>{p}, size);
  }
  NDArray zipf(const Operand& a, std::optional<Shape> size) { return sample("zipf", std::array<Operand, 1>{a}, size); }

 private:
  mutable std::mutex mutex_;
  uint64_t seed_;
  uint64_t offset_ = 0;
  Api api_;
};

// The generator behind the module-level functions; seeded from the OS at first use.
Generator& default_generator();
uint64_t fresh_seed();

// NumPy's names of the parameterised distributions, in table order (Generator::sample's names).
std::span<const std::string_view> distribution_names();

}  // namespace cuarray::random
