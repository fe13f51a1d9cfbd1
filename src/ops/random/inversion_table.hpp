// Discrete laws with scalar parameters by inversion of a CDF table (the bulk fill's Inversion
// kind, src/kernels/random_fill.cuh): the host runs the law's probability recurrence once per call
// instead of once per element. Each value is then a branch-free search over the table.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

namespace cuarray::random {

inline constexpr int kInversionEntries = 128;  // a power of two: the search halves it 7 times

struct InversionTable {
  // cdf[x] = P(X <= x) for x < size; +inf above. A uniform past cdf[size - 1] is drawn again.
  std::array<double, kInversionEntries> cdf;
  int size;
  // The value is base + step * X (step -1: the reflection n - X for p > 1/2).
  int64_t base;
  int64_t step;
};

// NumPy's binomial inversion (random_binomial_inversion: truncated at
// bound = min(n, n p + 10 sqrt(n p q + 1)), redrawing past it) for n min(p, 1 - p) <= 30, where
// NumPy inverts; nullopt where it uses BTPE. n >= 0 and p in [0, 1] (checked before).
std::optional<InversionTable> binomial_inversion_table(int64_t n, double p);

// Poisson(lam) for lam >= 0 whose mass past the table's last finite entry is below 2^-60 (about
// lam <= 55; NumPy's uniforms resolve 2^-53): a uniform past it is drawn again, which changes no
// probability a double can hold. nullopt above (PTRS per element).
std::optional<InversionTable> poisson_inversion_table(double lam);

}  // namespace cuarray::random
