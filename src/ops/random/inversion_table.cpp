#include "ops/random/inversion_table.hpp"

#include <cmath>
#include <limits>

namespace cuarray::random {

std::optional<InversionTable> binomial_inversion_table(int64_t n, double p) {
  // random_binomial's choice: invert min(p, q) and reflect, BTPE above n min(p, q) = 30.
  const bool reflect = p > 0.5;
  const double r = reflect ? 1.0 - p : p;
  if (r * static_cast<double>(n) > 30.0) return std::nullopt;
  const double q = 1.0 - r, np = static_cast<double>(n) * r;
  const double bound_d = np + 10.0 * std::sqrt(np * q + 1);
  // np <= 30 keeps bound <= 30 + 10 sqrt(31) < 86: the table always has room.
  const int64_t bound = bound_d < static_cast<double>(n) ? static_cast<int64_t>(bound_d) : n;
  InversionTable t;
  t.cdf.fill(std::numeric_limits<double>::infinity());
  t.size = static_cast<int>(bound + 1);
  t.base = reflect ? n : 0;
  t.step = reflect ? -1 : 1;
  // NumPy's recurrence, px(x) = px(x - 1) (n - x + 1) p / (x q), summed as it subtracts.
  double px = std::exp(static_cast<double>(n) * std::log(q)), sum = px;
  t.cdf[0] = sum;
  for (int64_t x = 1; x <= bound; ++x) {
    px = (static_cast<double>(n - x + 1) * r * px) / (static_cast<double>(x) * q);
    sum += px;
    t.cdf[x] = sum;
  }
  return t;
}

std::optional<InversionTable> poisson_inversion_table(double lam) {
  if (!(lam <= 100)) return std::nullopt;  // exp(-lam) and the table's reach: far past any fit
  InversionTable t;
  t.cdf.fill(std::numeric_limits<double>::infinity());
  t.size = kInversionEntries - 1;
  t.base = 0;
  t.step = 1;
  double px = std::exp(-lam), sum = px;
  t.cdf[0] = sum;
  for (int x = 1; x < t.size; ++x) {
    px *= lam / x;
    sum += px;
    t.cdf[x] = sum;
  }
  // The mass past the table: its terms fall at least geometrically once x > lam.
  double tail = 0;
  for (int x = t.size; px > 0 && x < 1000; ++x) {
    px *= lam / x;
    tail += px;
  }
  if (tail > 0x1p-60) return std::nullopt;
  return t;
}

}  // namespace cuarray::random
