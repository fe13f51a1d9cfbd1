// NumPy's parameter checks of numpy.random (numpy/random/_common.pyx check_constraint and
// check_array_constraint, and the per-distribution checks of mtrand.pyx / _generator.pyx), as one
// predicate per check. This file is plain C++ that both sides compile: the host includes it to check
// scalar parameters before any GPU work, NVRTC embeds it to check array parameters on the device
// (src/ops/random/parameter_checks.cpp), so the two can never disagree.
#ifndef CUARRAY_RANDOM_CHECKS
#define CUARRAY_RANDOM_CHECKS
#ifdef __CUDACC_RTC__
#define CUARRAY_HD __host__ __device__
#else
#include <cmath>
#define CUARRAY_HD
#endif

namespace cuarray::random_checks {

// Largest lam NumPy's poisson accepts: int64 max - 10 sqrt(int64 max).
constexpr double kPoissonLamMax = 9.2233720064847708e18;
// Generator.hypergeometric's bound on ngood and nbad.
constexpr double kHypergeometricMax = 1e9;

enum class CheckKind : unsigned char {
  Negative,           // signbit and not NaN (-0.0 included): "{0} < 0"
  NotPositive,        // v <= 0: "{0} <= 0"
  NotIn0To1,          // !(0 <= v <= 1)
  NotInAbove0To1,     // !(0 < v <= 1)
  NotIn0ToBelow1,     // !(0 <= v < 1)
  NotAbove1,          // !(v > 1)
  NotAtLeast1,        // !(v >= 1)
  NegativeOrNaN,      // !(v >= 0)
  AboveLamMax,        // !(v <= kPoissonLamMax)
  Greater,            // a > b
  Equal,              // a == b
  SumBelow,           // a + b < c
  AnyAtLeastMax,      // a >= kHypergeometricMax or b >= kHypergeometricMax
  RangeNotFinite,     // !isfinite(b - a)
  RangeNegative,      // b - a < 0 (by sign bit, NaN aside)
  NaN,                // a is NaN
  NegativeBinomialLamTooLarge,  // the gamma-Poisson mixture's mean bound (1-p)/p (n + 10 sqrt(n)) too large
};

CUARRAY_HD inline bool violates(CheckKind kind, double a, double b, double c) {
  switch (kind) {
    case CheckKind::Negative: return a == a && (a < 0 || (a == 0 && 1.0 / a < 0));
    case CheckKind::NotPositive: return a <= 0;
    case CheckKind::NotIn0To1: return !(a >= 0 && a <= 1);
    case CheckKind::NotInAbove0To1: return !(a > 0 && a <= 1);
    case CheckKind::NotIn0ToBelow1: return !(a >= 0 && a < 1);
    case CheckKind::NotAbove1: return !(a > 1);
    case CheckKind::NotAtLeast1: return !(a >= 1);
    case CheckKind::NegativeOrNaN: return !(a >= 0);
    case CheckKind::AboveLamMax: return !(a <= kPoissonLamMax);
    case CheckKind::Greater: return a > b;
    case CheckKind::Equal: return a == b;
    case CheckKind::SumBelow: return a + b < c;
    case CheckKind::AnyAtLeastMax: return a >= kHypergeometricMax || b >= kHypergeometricMax;
    case CheckKind::RangeNotFinite: {
      const double d = b - a;
      return !(d - d == 0);  // inf - inf and NaN - NaN are NaN
    }
    case CheckKind::RangeNegative: return violates(CheckKind::Negative, b - a, 0, 0);
    case CheckKind::NaN: return a != a;
    case CheckKind::NegativeBinomialLamTooLarge: return (1 - b) / b * (a + 10 * ::sqrt(a)) > kPoissonLamMax;
  }
  return false;
}

}  // namespace cuarray::random_checks
#endif
