// The samplers of cuarray.random, one device function per NumPy distribution, drawing from an
// element's RandomStream (random_stream.cuh). The algorithms are those of NumPy's
// numpy/random/src/distributions/distributions.c unless a comment says otherwise, in double, and
// natively in float where NumPy's Generator offers dtype=float32 (standard_normal,
// standard_exponential, standard_gamma). docs/random.md lists the choices.
// Uses kPi of common.cuh (every elementwise kernel includes it).
namespace cuarray {

// Box-Muller on two uniforms: exact in law and branch-free, where NumPy's ziggurat needs 3 tables
// of 256 entries and a divergent tail path. The pair's second value is kept for the next call.
template <class T>
__device__ T standard_normal(RandomStream& s) {
  if (s.has_spare) {
    s.has_spare = false;
    return static_cast<T>(s.spare);
  }
  const T r = sqrt(T(-2) * log(s.next_open_uniform<T>()));
  T sn, cs;
  if constexpr (sizeof(T) == 4) sincospif(T(2) * s.next_uniform<T>(), &sn, &cs);
  else sincospi(T(2) * s.next_uniform<T>(), &sn, &cs);
  s.spare = static_cast<double>(r * sn);
  s.has_spare = true;
  return r * cs;
}

// -log(U) with U in (0, 1]: inversion (NumPy's Generator uses a ziggurat, its legacy code this).
template <class T>
__device__ T standard_exponential(RandomStream& s) {
  return -log(s.next_open_uniform<T>());
}

// Marsaglia and Tsang (2000) for shape >= 1, as NumPy; below 1 the boost
// G(a) = G(a + 1) * U^(1/a) (Marsaglia and Tsang's own reduction), whose acceptance rate stays
// near 1 where NumPy's shape < 1 rejection loop slows down.
template <class T>
__device__ T standard_gamma(RandomStream& s, T shape) {
  if (shape == T(1)) return standard_exponential<T>(s);
  if (shape == T(0)) return T(0);
  if (!(shape == shape)) return shape;
  T boost = T(1);
  if (shape < T(1)) {
    boost = pow(s.next_open_uniform<T>(), T(1) / shape);
    shape += T(1);
  }
  const T b = shape - T(1) / T(3);
  const T c = T(1) / sqrt(T(9) * b);
  for (;;) {
    T x, v;
    do {
      x = standard_normal<T>(s);
      v = T(1) + c * x;
    } while (v <= T(0));
    v = v * v * v;
    const T u = s.next_uniform<T>();
    if (u < T(1) - T(0.0331) * (x * x) * (x * x)) return b * v * boost;
    if (log(u) < T(0.5) * x * x + b * (T(1) - v + log(v))) return b * v * boost;
  }
}

__device__ double random_normal(RandomStream& s, double loc, double scale) {
  return loc + scale * standard_normal<double>(s);
}
__device__ double random_uniform(RandomStream& s, double low, double high) {
  return low + (high - low) * s.next_double();
}
__device__ double random_exponential(RandomStream& s, double scale) { return scale * standard_exponential<double>(s); }
__device__ double random_gamma(RandomStream& s, double shape, double scale) {
  return scale * standard_gamma<double>(s, shape);
}
__device__ double random_chisquare(RandomStream& s, double df) { return 2.0 * standard_gamma<double>(s, df / 2.0); }
__device__ double random_f(RandomStream& s, double dfnum, double dfden) {
  return (random_chisquare(s, dfnum) * dfden) / (random_chisquare(s, dfden) * dfnum);
}
__device__ double random_standard_cauchy(RandomStream& s) {
  return standard_normal<double>(s) / standard_normal<double>(s);
}
__device__ double random_pareto(RandomStream& s, double a) { return expm1(standard_exponential<double>(s) / a); }
__device__ double random_weibull(RandomStream& s, double a) {
  return a == 0.0 ? 0.0 : pow(standard_exponential<double>(s), 1.0 / a);
}
__device__ double random_power(RandomStream& s, double a) {
  return pow(-expm1(-standard_exponential<double>(s)), 1.0 / a);
}
__device__ double random_laplace(RandomStream& s, double loc, double scale) {
  for (;;) {
    const double u = s.next_double();
    if (u >= 0.5) return loc - scale * log(2.0 - u - u);
    if (u > 0.0) return loc + scale * log(u + u);
  }
}
__device__ double random_gumbel(RandomStream& s, double loc, double scale) {
  for (;;) {
    const double u = 1.0 - s.next_double();
    if (u < 1.0) return loc - scale * log(-log(u));
  }
}
__device__ double random_logistic(RandomStream& s, double loc, double scale) {
  for (;;) {
    const double u = s.next_double();
    if (u > 0.0) return loc + scale * log(u / (1.0 - u));
  }
}
__device__ double random_lognormal(RandomStream& s, double mean, double sigma) {
  return exp(random_normal(s, mean, sigma));
}
__device__ double random_rayleigh(RandomStream& s, double mode) {
  return mode * sqrt(-2.0 * log(s.next_open_double()));
}
__device__ double random_standard_t(RandomStream& s, double df) {
  const double num = standard_normal<double>(s);
  const double denom = standard_gamma<double>(s, df / 2);
  return sqrt(df / 2) * num / sqrt(denom);
}
__device__ double random_beta(RandomStream& s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    // Johnk's algorithm, with NumPy's log-space fallback when X + Y underflows.
    for (;;) {
      const double u = s.next_double(), v = s.next_double();
      const double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b);
      const double xpy = x + y;
      if (xpy <= 1.0 && xpy > 0.0) return x / xpy;
      if (xpy <= 1.0 && u > 0.0 && v > 0.0) {
        double log_x = log(u) / a, log_y = log(v) / b;
        const double log_m = log_x > log_y ? log_x : log_y;
        log_x -= log_m;
        log_y -= log_m;
        return exp(log_x - log(exp(log_x) + exp(log_y)));
      }
    }
  }
  const double ga = standard_gamma<double>(s, a), gb = standard_gamma<double>(s, b);
  return ga / (ga + gb);
}
__device__ double random_triangular(RandomStream& s, double left, double mode, double right) {
  const double base = right - left, left_base = mode - left;
  const double ratio = left_base / base;
  const double u = s.next_double();
  if (u <= ratio) return left + sqrt(u * left_base * base);
  return right - sqrt((1.0 - u) * (right - mode) * base);
}
__device__ double random_wald(RandomStream& s, double mean, double scale) {
  const double mu_2l = mean / (2 * scale);
  double y = standard_normal<double>(s);
  y = mean * y * y;
  const double x = mean + mu_2l * (y - sqrt(4 * scale * y + y * y));
  const double u = s.next_double();
  return u <= mean / (mean + x) ? x : mean * mean / x;
}
__device__ double random_vonmises(RandomStream& s, double mu, double kappa) {
  if (!(kappa == kappa)) return kappa;
  if (kappa < 1e-8) return kPi * (2 * s.next_double() - 1);
  double rs;
  if (kappa < 1e-5) {
    rs = 1.0 / kappa + kappa;  // second-order Taylor expansion around kappa = 0
  } else if (kappa <= 1e6) {
    const double r = 1 + sqrt(1 + 4 * kappa * kappa);
    const double rho = (r - sqrt(2 * r)) / (2 * kappa);
    rs = (1 + rho * rho) / (2 * rho);
  } else {
    // NumPy's Generator: a wrapped normal for very large kappa, where the rejection loop's
    // arithmetic loses all precision.
    double result = mu + sqrt(1.0 / kappa) * standard_normal<double>(s);
    if (result < -kPi) result += 2 * kPi;
    if (result > kPi) result -= 2 * kPi;
    return result;
  }
  double w;
  for (;;) {
    const double u = s.next_double();
    const double z = cospi(u);
    w = (1 + rs * z) / (rs + z);
    const double y = kappa * (rs - w);
    const double v = s.next_double();
    if (y * (2 - y) - v >= 0 || log(y / v) + 1 - y >= 0) break;
  }
  const double u = s.next_double();
  double result = acos(w);
  if (u < 0.5) result = -result;
  result += mu;
  const bool negative = result < 0;
  double mod = fabs(result);
  mod = fmod(mod + kPi, 2 * kPi) - kPi;
  return negative ? -mod : mod;
}

// ---- discrete (int64 results, as NumPy's 'l' on Linux and its Generator) ----

__device__ long long poisson_multiplication(RandomStream& s, double lam) {
  const double enlam = exp(-lam);
  long long x = 0;
  double prod = 1.0;
  for (;;) {
    prod *= s.next_double();
    if (prod <= enlam) return x;
    ++x;
  }
}

// Hoermann's transformed rejection with squeeze (PTRS), for lam >= 10.
__device__ long long poisson_ptrs(RandomStream& s, double lam) {
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = s.next_double() - 0.5, v = s.next_double();
    const double us = 0.5 - fabs(u);
    const long long k = static_cast<long long>(floor((2 * a / us + b) * u + lam + 0.43));
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0)) return k;
  }
}

__device__ long long random_poisson(RandomStream& s, double lam) {
  if (lam >= 10) return poisson_ptrs(s, lam);
  if (lam == 0) return 0;
  return poisson_multiplication(s, lam);
}

__device__ long long binomial_inversion(RandomStream& s, long long n, double p) {
  const double q = 1.0 - p;
  const double qn = exp(n * log(q));
  const double np = n * p;
  const double bound_d = np + 10.0 * sqrt(np * q + 1);
  const long long bound = bound_d < static_cast<double>(n) ? static_cast<long long>(bound_d) : n;
  long long x = 0;
  double px = qn;
  double u = s.next_double();
  while (u > px) {
    ++x;
    if (x > bound) {
      x = 0;
      px = qn;
      u = s.next_double();
    } else {
      u -= px;
      px = ((n - x + 1) * p * px) / (x * q);
    }
  }
  return x;
}

// Kachitvichyanukul and Schmeiser's BTPE for n * min(p, 1 - p) > 30 (p <= 0.5 here).
__device__ long long binomial_btpe(RandomStream& s, long long n, double p) {
  const double r = p, q = 1.0 - r;
  const double fm = n * r + r;
  const long long m = static_cast<long long>(floor(fm));
  const double p1 = floor(2.195 * sqrt(n * r * q) - 4.6 * q) + 0.5;
  const double xm = m + 0.5, xl = xm - p1, xr = xm + p1;
  const double c = 0.134 + 20.5 / (15.3 + m);
  double a = (fm - xl) / (fm - xl * r);
  const double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  const double lamr = a * (1.0 + a / 2.0);
  const double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
  const double nrq = n * r * q;
  for (;;) {
    const double u = s.next_double() * p4;
    double v = s.next_double();
    long long y;
    if (u <= p1) return static_cast<long long>(floor(xm - p1 * v + u));
    if (u <= p2) {
      const double x = xl + (u - p1) / c;
      v = v * c + 1.0 - fabs(m - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = static_cast<long long>(floor(x));
    } else if (u <= p3) {
      y = static_cast<long long>(floor(xl + log(v) / laml));
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = static_cast<long long>(floor(xr - log(v) / lamr));
      if (y > n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    const long long k = y > m ? y - m : m - y;
    if (k <= 20 || k >= nrq / 2.0 - 1) {
      // Explicit evaluation of f(y) / f(m).
      const double sr = r / q, aa = sr * (n + 1);
      double f = 1.0;
      if (m < y) {
        for (long long i = m + 1; i <= y; ++i) f *= (aa / i - sr);
      } else if (m > y) {
        for (long long i = y + 1; i <= m; ++i) f /= (aa / i - sr);
      }
      if (v > f) continue;
      return y;
    }
    // Squeezing with the normal approximation, then Stirling's formula for the final test.
    const double rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    const double t = -static_cast<double>(k) * k / (2 * nrq);
    const double aa = log(v);
    if (aa < t - rho) return y;
    if (aa > t + rho) continue;
    const double x1 = y + 1, f1 = m + 1, z = n + 1 - m, w = n - y + 1;
    const double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
    const double bound = xm * log(f1 / x1) + (n - m + 0.5) * log(z / w) + (y - m) * log(w * r / (x1 * q)) +
                         (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) / f1 / 166320. +
                         (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) / z / 166320. +
                         (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x1 / 166320. +
                         (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) / w / 166320.;
    if (aa > bound) continue;
    return y;
  }
}

__device__ long long random_binomial(RandomStream& s, long long n, double p) {
  if (n == 0 || p == 0.0) return 0;
  if (p <= 0.5) return p * n <= 30.0 ? binomial_inversion(s, n, p) : binomial_btpe(s, n, p);
  const double q = 1.0 - p;
  return n - (q * n <= 30.0 ? binomial_inversion(s, n, q) : binomial_btpe(s, n, q));
}

__device__ long long random_negative_binomial(RandomStream& s, double n, double p) {
  const double lam = random_gamma(s, n, (1 - p) / p);
  // RandomState accepts p = 0: an infinite mean, which NumPy's cast turns into int64's minimum.
  if (!(lam <= 9.2233720064847708e18)) return -9223372036854775807ll - 1;
  return random_poisson(s, lam);
}

__device__ long long random_geometric(RandomStream& s, double p) {
  if (p >= 1.0 / 3.0) {
    // Search from 1: few steps when p is large.
    long long x = 1;
    double sum = p, prod = p;
    const double q = 1.0 - p, u = s.next_double();
    while (u > sum) {
      prod *= q;
      sum += prod;
      ++x;
    }
    return x;
  }
  return static_cast<long long>(ceil(-standard_exponential<double>(s) / log1p(-p)));
}

__device__ long long random_logseries(RandomStream& s, double p) {
  const double r = log1p(-p);
  for (;;) {
    const double v = s.next_double();
    if (v >= p) return 1;
    const double u = s.next_double();
    const double q = -expm1(r * u);
    if (v <= q * q) {
      const long long result = static_cast<long long>(floor(1 + log(v) / log(q)));
      if (result < 1 || v == 0.0) continue;
      return result;
    }
    return v >= q ? 1 : 2;
  }
}

__device__ long long random_zipf(RandomStream& s, double a) {
  const double am1 = a - 1.0;
  const double b = pow(2.0, am1);
  // P(X = 1) = 1 / zeta(a) rounds to 1 long before 2^(a-1) overflows; the test below would be NaN.
  if (!(b <= 1.7976931348623157e308)) return 1;
  for (;;) {
    const double u = s.next_open_double(), v = s.next_double();
    const double x = floor(pow(u, -1.0 / am1));
    // Values past int64 are rejected: NumPy's zipf is truncated to the integer range too.
    if (x > 9.2233720368547748e18 || x < 1.0) continue;
    const double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return static_cast<long long>(x);
  }
}

__device__ double log_factorial(long long k) { return lgamma(k + 1.0); }

// Draws without replacement one by one: NumPy's method for small samples.
__device__ long long hypergeometric_sample(RandomStream& s, long long good, long long bad, long long sample) {
  const long long total = good + bad;
  const bool complement = sample > total / 2;
  long long todo = complement ? total - sample : sample;
  long long remaining_total = total, remaining_good = good;
  while (todo > 0 && remaining_good > 0 && remaining_total > remaining_good) {
    if (static_cast<long long>(random_interval(s, static_cast<unsigned long long>(remaining_total - 1))) <
        remaining_good)
      --remaining_good;
    --remaining_total;
    --todo;
  }
  if (remaining_total == remaining_good) remaining_good -= todo;
  return complement ? remaining_good : good - remaining_good;
}

// Stadlober's ratio-of-uniforms HRUA (NumPy's choice for 10 <= sample <= total - 10).
__device__ long long hypergeometric_hrua(RandomStream& s, long long good, long long bad, long long sample) {
  const double d1 = 1.7155277699214135, d2 = 0.8989161620588988;
  const long long popsize = good + bad;
  const long long computed = sample < popsize - sample ? sample : popsize - sample;
  const long long mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
  const double p = static_cast<double>(mingb) / popsize, q = static_cast<double>(maxgb) / popsize;
  const double mu = computed * p, a = mu + 0.5;
  const double var = static_cast<double>(popsize - computed) * computed * p * q / (popsize - 1);
  const double c = sqrt(var + 0.5), h = d1 * c + d2;
  const long long m = static_cast<long long>(floor(static_cast<double>(computed + 1) * (mingb + 1) / (popsize + 2)));
  const double g = log_factorial(m) + log_factorial(mingb - m) + log_factorial(computed - m) +
                   log_factorial(maxgb - computed + m);
  const double lim = static_cast<double>((computed < mingb ? computed : mingb) + 1);
  const double b = fmin(lim, floor(a + 16 * c));
  long long k;
  for (;;) {
    const double u = s.next_double(), v = s.next_double();
    const double x = a + h * (v - 0.5) / u;
    if (x < 0.0 || x >= b) continue;
    k = static_cast<long long>(floor(x));
    const double t = g - (log_factorial(k) + log_factorial(mingb - k) + log_factorial(computed - k) +
                          log_factorial(maxgb - computed + k));
    if (u * (4.0 - u) - 3.0 <= t) break;
    if (u * (u - t) >= 1) continue;
    if (2.0 * log(u) <= t) break;
  }
  if (good > bad) k = computed - k;
  if (computed < sample) k = good - k;
  return k;
}

__device__ long long random_hypergeometric(RandomStream& s, long long good, long long bad, long long sample) {
  if (sample >= 10 && sample <= good + bad - 10) return hypergeometric_hrua(s, good, bad, sample);
  return hypergeometric_sample(s, good, bad, sample);
}

__device__ double random_noncentral_chisquare(RandomStream& s, double df, double nonc) {
  if (!(nonc == nonc)) return nonc;
  if (nonc == 0) return random_chisquare(s, df);
  if (1 < df) {
    const double chi2 = random_chisquare(s, df - 1);
    const double n = standard_normal<double>(s) + sqrt(nonc);
    return chi2 + n * n;
  }
  const long long i = random_poisson(s, nonc / 2.0);
  return random_chisquare(s, df + 2 * i);
}

__device__ double random_noncentral_f(RandomStream& s, double dfnum, double dfden, double nonc) {
  const double t = random_noncentral_chisquare(s, dfnum, nonc) * dfden;
  return t / (random_chisquare(s, dfden) * dfnum);
}

// integers/randint with array bounds: low + [0, high - low) (span = high - low - 1 >= 0; the
// caller adds 1 to high for endpoint=True); 64-bit arithmetic wraps as the unsigned range needs.
__device__ unsigned long long random_bounded(RandomStream& s, unsigned long long low, unsigned long long span) {
  return low + random_interval(s, span);
}

}  // namespace cuarray
