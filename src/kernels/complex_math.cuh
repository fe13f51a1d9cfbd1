// Transcendental functions of complex<T> with C99 Annex G special values and branch cuts, as
// NumPy's complex ufuncs (which call the C library's cexp, clog, csqrt, casin, ...).
namespace cuarray {

template <class T> struct float_limits;
template <> struct float_limits<float> {
  static constexpr float eps = 1.1920929e-7f, min = 1.17549435e-38f, max = 3.40282347e38f;
  static constexpr float sqrt_min = 1.08420217e-19f;  // smaller values square to subnormals
  static constexpr float log_max = 88.7228394f;       // exp overflows above this
  static constexpr float tanh_one = 9.0f;             // tanh(x) rounds to 1 above this
  static constexpr int mant_dig = 24;
  static __device__ float quiet_nan() { return __int_as_float(0x7fc00000); }
  static __device__ float infinity() { return __int_as_float(0x7f800000); }
};
template <> struct float_limits<double> {
  static constexpr double eps = 2.220446049250313e-16, min = 2.2250738585072014e-308;
  static constexpr double max = 1.7976931348623157e308, sqrt_min = 1.4916681462400413e-154;
  static constexpr double log_max = 709.782712893384, tanh_one = 22.0;
  static constexpr int mant_dig = 53;
  static __device__ double quiet_nan() { return __longlong_as_double(0x7ff8000000000000ll); }
  static __device__ double infinity() { return __longlong_as_double(0x7ff0000000000000ll); }
};
// c * exp(x) without overflowing in exp(x) when the product is finite (|c| <= 1).
template <class T> __device__ inline T scaled_exp(T x, T c) {
  const T h = exp(x * T(0.5));
  return c * h * h;
}

template <class T> __device__ complex<T> exp(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (isnan(x)) return {x, y == 0 ? y : x};
  if (!isfinite(y)) {
    if (isinf(x)) return x > 0 ? complex<T>(x, y - y) : complex<T>(0, 0);
    return {y - y, y - y};
  }
  if (y == 0) return {exp(x), y};  // exact for real z, keeps the sign of the zero
  const T c = cos(y), s = sin(y);
  if (x > float_limits<T>::log_max) return {scaled_exp(x, c), scaled_exp(x, s)};
  const T e = exp(x);
  return {e * c, e * s};
}

// log|z| without overflow or underflow, and via log1p near |z| == 1 (NumPy's npy_clog).
template <class T> __device__ complex<T> log(const complex<T>& z) {
  using L = float_limits<T>;
  const T ax = fabs(z.re), ay = fabs(z.im);
  T rr;
  if (ax > L::max / 4 || ay > L::max / 4) {
    rr = log(hypot(ax / 2, ay / 2)) + T(kLn2);
  } else if (ax < L::min && ay < L::min) {
    if (ax == 0 && ay == 0) return {-T(1) / ax, arg(z)};  // -inf, divide by zero
    rr = log(hypot(ldexp(ax, L::mant_dig), ldexp(ay, L::mant_dig))) - T(L::mant_dig * kLn2);
  } else {
    const T h = hypot(ax, ay);
    if (T(0.71) <= h && h <= T(1.73)) {
      const T am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
      rr = log1p((am - 1) * (am + 1) + an * an) / 2;
    } else {
      rr = log(h);
    }
  }
  return {rr, arg(z)};
}
template <class T> __device__ inline complex<T> log2(const complex<T>& z) {
  return log(z) * T(kLog2e);
}
template <class T> __device__ inline complex<T> log10(const complex<T>& z) {
  return log(z) * T(kLog10e);
}
template <class T> __device__ inline complex<T> exp2(const complex<T>& z) {
  return exp(z * T(kLn2));
}
// NumPy's own formulas (nc_log1p, nc_expm1), not the C library's.
template <class T> __device__ inline complex<T> log1p(const complex<T>& z) {
  return {log(hypot(z.re + 1, z.im)), atan2(z.im, z.re + 1)};
}
template <class T> __device__ inline complex<T> expm1(const complex<T>& z) {
  const T a = sin(z.im / 2);
  return {expm1(z.re) * cos(z.im) - 2 * a * a, exp(z.re) * sin(z.im)};
}

// Principal square root (cut along the negative real axis); computes the larger part first and the
// other from it, scaling away from overflow and from subnormal precision loss.
template <class T> __device__ complex<T> sqrt(const complex<T>& z) {
  using L = float_limits<T>;
  T a = z.re, b = z.im;
  if (a == 0 && b == 0) return {T(0), b};
  if (isinf(b)) return {L::infinity(), b};
  if (isnan(a)) return {a, a};
  if (isinf(a)) {  // sqrt(-inf + iy) = 0 + i inf, sqrt(inf + iy) = inf + i0; a NaN y stays NaN
    if (a < 0) return {fabs(b - b), copysign(a, b)};
    return {a, copysign(b - b, b)};
  }
  int scale = 0;
  if (fabs(a) >= L::max / 4 || fabs(b) >= L::max / 4) {
    a *= T(0.25), b *= T(0.25), scale = 1;
  } else if (fabs(a) < 4 * L::min && fabs(b) < 4 * L::min) {
    a = ldexp(a, 2 * L::mant_dig), b = ldexp(b, 2 * L::mant_dig), scale = -L::mant_dig;
  }
  const T t = sqrt((fabs(a) + hypot(a, b)) / 2);
  const complex<T> r = a >= 0 ? complex<T>(t, b / (2 * t)) : complex<T>(fabs(b) / (2 * t), copysign(t, b));
  return scale ? complex<T>(ldexp(r.re, scale), ldexp(r.im, scale)) : r;
}

// x * y as C99 Annex G (libgcc's __mulsc3/__muldc3): when the plain formula gives NaN in both
// parts but an operand or a partial product is infinite, the infinity is recovered. The C
// library's cpow multiplies this way; NumPy's own multiply ufunc does not.
template <class T> __device__ complex<T> annex_g_multiply(const complex<T>& x, const complex<T>& y) {
  T a = x.re, b = x.im, c = y.re, d = y.im;
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  complex<T> r(ac - bd, ad + bc);
  if (!isnan(r.re) || !isnan(r.im)) return r;
  bool recalc = false;
  const auto box = [](T& v) { v = copysign(isinf(v) ? T(1) : T(0), v); };
  const auto zero_nan = [](T& v) { if (isnan(v)) v = copysign(T(0), v); };
  if (isinf(a) || isinf(b)) {
    box(a), box(b), zero_nan(c), zero_nan(d);
    recalc = true;
  }
  if (isinf(c) || isinf(d)) {
    box(c), box(d), zero_nan(a), zero_nan(b);
    recalc = true;
  }
  if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
    zero_nan(a), zero_nan(b), zero_nan(c), zero_nan(d);
    recalc = true;
  }
  if (recalc) {
    const T inf = float_limits<T>::infinity();
    r = complex<T>(inf * (a * c - b * d), inf * (a * d + b * c));
  }
  return r;
}

// a**b as NumPy's npy_cpow: exact repeated multiplication for small integer exponents, else the
// C library's cpow, exp(b log a) with an Annex G product.
template <class T> __device__ complex<T> pow(const complex<T>& a, const complex<T>& b) {
  if (b.re == 0 && b.im == 0) return {T(1), T(0)};
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) return {T(0), T(0)};
    const T nan = float_limits<T>::quiet_nan();
    return {nan, nan};
  }
  if (b.im == 0 && b.re == trunc(b.re) && fabs(b.re) < 100) {
    int n = int(fabs(b.re));
    complex<T> p = a;
    for (; !(n & 1); n >>= 1) p = p * p;
    complex<T> r = p;  // starts at the lowest set bit of n, not at 1 * a: 1 * inf would give nan
    while (n >>= 1) {
      p = p * p;
      if (n & 1) r = r * p;
    }
    return b.re < 0 ? complex<T>(T(1), T(0)) / r : r;
  }
  return exp(annex_g_multiply(b, log(a)));
}

// Hyperbolic functions; the circular ones follow from sin(z) = -i sinh(iz), cos(z) = cosh(iz),
// tan(z) = -i tanh(iz).
template <class T> __device__ complex<T> sinh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return {sinh(x), y};
    if (fabs(x) <= float_limits<T>::log_max) return {sinh(x) * cos(y), cosh(x) * sin(y)};
    return {scaled_exp(fabs(x), copysign(T(0.5), x) * cos(y)), scaled_exp(fabs(x), T(0.5) * sin(y))};
  }
  if (x == 0 || y == 0) return {x, x == 0 ? y - y : y};
  if (isinf(x)) return isfinite(y) ? complex<T>(x * cos(y), fabs(x) * sin(y)) : complex<T>(x * x, y - y);
  return {x * (y - y), x * (y - y)};
}
template <class T> __device__ complex<T> cosh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return {cosh(x), x * y};
    if (fabs(x) <= float_limits<T>::log_max) return {cosh(x) * cos(y), sinh(x) * sin(y)};
    return {scaled_exp(fabs(x), T(0.5) * cos(y)), scaled_exp(fabs(x), copysign(T(0.5), x) * sin(y))};
  }
  if (x == 0) return {y - y, x};
  if (y == 0) return {x * x, copysign(T(0), x) * y};
  if (isinf(x)) return isfinite(y) ? complex<T>(fabs(x) * cos(y), x * sin(y)) : complex<T>(x * x, x * (y - y));
  return {x * (y - y), x * (y - y)};
}
// Kahan's formula: tanh z = (beta rho s + i t) / (1 + beta s^2) with t = tan y, beta = 1 + t^2,
// s = sinh x, rho = sqrt(1 + s^2); stable for all finite z.
template <class T> __device__ complex<T> tanh(const complex<T>& z) {
  const T x = z.re, y = z.im;
  if (isnan(x)) return {x, y == 0 ? y : x};
  if (isinf(x)) return {copysign(T(1), x), copysign(T(0), isinf(y) ? y : sin(y) * cos(y))};
  if (!isfinite(y)) return {x == 0 ? x : y - y, y - y};
  if (fabs(x) >= float_limits<T>::tanh_one) {
    const T e = exp(-fabs(x));
    return {copysign(T(1), x), 4 * sin(y) * cos(y) * e * e};
  }
  const T t = tan(y), beta = 1 + t * t, s = sinh(x), rho = sqrt(1 + s * s);
  const T denom = 1 + beta * s * s;
  return {beta * rho * s / denom, t / denom};
}
// i z, and back: -i w.
template <class T> __device__ inline complex<T> times_i(const complex<T>& z) { return {-z.im, z.re}; }
template <class T> __device__ inline complex<T> times_minus_i(const complex<T>& w) { return {w.im, -w.re}; }
template <class T> __device__ inline complex<T> sin(const complex<T>& z) {
  // the sign of this infinity is unspecified in C99; glibc's csin, so NumPy, gives +inf
  if (!isfinite(z.re) && isinf(z.im)) return {z.re - z.re, fabs(z.im)};
  return times_minus_i(sinh(times_i(z)));
}
template <class T> __device__ inline complex<T> cos(const complex<T>& z) { return cosh(times_i(z)); }
template <class T> __device__ inline complex<T> tan(const complex<T>& z) { return times_minus_i(tanh(times_i(z))); }

// The inverse functions use the exchange of parts: asinh(z) = swap(asin(swap(z))) and
// atan(z) = swap(atanh(swap(z))), where swap(x + iy) = y + ix.
template <class T> __device__ inline complex<T> swap_parts(const complex<T>& z) { return {z.im, z.re}; }

// For x, y >= 0, not NaN: asin(x + iy) = atan2(x, d) + i eta and acos(x + iy) = atan2(d, x) - i eta,
// with A = (|z + 1| + |z - 1|) / 2, eta = acosh(A) and d = sqrt(A^2 - x^2) (Hull, Fairgrieve and
// Tang 1997). A - 1 and A - x are formed as sums of non-negative terms, so nothing cancels.
template <class T> __device__ void asin_parts(T x, T y, T& eta, T& d) {
  using L = float_limits<T>;
  if (x > 1 / L::eps || y > 1 / L::eps) {  // 1 is negligible beside z: asin z = -i log(2iz)
    eta = log(hypot(x / 2, y / 2)) + T(2 * kLn2);
    d = y;
    return;
  }
  const T r = hypot(x + 1, y), s = hypot(x - 1, y), a = (r + s) / 2;
  const T y2_r = y * y / (r + x + 1);  // |z + 1| - (x + 1)
  d = x <= 1 ? sqrt((a + x) * (y2_r + (s + (1 - x))) / 2)
             : y * sqrt((a + x) * (1 / (r + x + 1) + 1 / (s + (x - 1))) / 2);
  if (x < 1 && y < L::sqrt_min) {  // y * y underflows; eta ~ sqrt(2 (A - 1)), A - 1 ~ y^2 / (2 (1 - x^2))
    eta = y / sqrt((1 - x) * (1 + x));
  } else if (a <= T(1.5)) {
    const T am1 = (y2_r + (x < 1 ? y * y / (s + (1 - x)) : s + (x - 1))) / 2;
    eta = log1p(am1 + sqrt(am1 * (a + 1)));
  } else {
    eta = log(a + sqrt(a * a - 1));
  }
}
template <class T> __device__ complex<T> asin(const complex<T>& z) {
  const T x = fabs(z.re), y = fabs(z.im);
  if (isnan(x) || isnan(y)) {
    if (isinf(x) || isinf(y)) return {x + y, copysign(float_limits<T>::infinity(), z.im)};
    return {x == 0 ? z.re : x + y, x + y};
  }
  T eta, d;
  asin_parts(x, y, eta, d);
  return {copysign(atan2(x, d), z.re), copysign(eta, z.im)};
}
template <class T> __device__ complex<T> acos(const complex<T>& z) {
  const T x = fabs(z.re), y = fabs(z.im);
  if (isnan(x) || isnan(y)) {
    if (isinf(x) || isinf(y)) return {x + y, -copysign(float_limits<T>::infinity(), z.im)};
    return {x == 0 ? T(kHalfPi) : x + y, x + y};
  }
  T eta, d;
  asin_parts(x, y, eta, d);
  return {atan2(d, z.re), -copysign(eta, z.im)};  // atan2 with the signed real part: pi - angle for x < 0
}
template <class T> __device__ inline complex<T> asinh(const complex<T>& z) {
  return swap_parts(asin(swap_parts(z)));
}
// acosh z = +-i acos z, the sign chosen for a non-negative real part.
template <class T> __device__ complex<T> acosh(const complex<T>& z) {
  const complex<T> w = acos(z);
  if (isnan(w.im)) return {w.im, w.re};  // acos(+-0 + i nan) = pi/2 + i nan gives nan + i pi/2, as glibc
  if (isnan(w.re)) return {fabs(w.im), w.re};
  return {fabs(w.im), copysign(w.re, z.im)};
}
// atanh z = log1p(4x / ((1 - x)^2 + y^2)) / 4 + i atan2(2y, (1 - x)(1 + x) - y^2) / 2 for x, y >= 0.
template <class T> __device__ complex<T> atanh(const complex<T>& z) {
  using L = float_limits<T>;
  const T x = fabs(z.re), y = fabs(z.im);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return {copysign(T(0), z.re), y + y};
    if (isinf(y)) return {copysign(T(0), z.re), copysign(T(kHalfPi), z.im)};
    return {x == 0 ? z.re : x + y, x + y};
  }
  T rx, ry;
  if (x > 1 / L::eps || y > 1 / L::eps) {  // atanh z = 1/z + i pi/2: Re(1/z) = x / |z|^2, scaled
    const T m = fmax(x, y);
    rx = isinf(m) ? T(0) : x / m / (x / m * (x / m) + y / m * (y / m)) / m;
    ry = T(kHalfPi);
  } else if (y == 0 && x <= 1) {
    rx = atanh(x), ry = y;
  } else {
    // at x == 1 the log1p argument is 4 / y^2, which overflows for tiny y; log1p ~ log there
    rx = x == 1 && y < L::eps ? (T(kLn2) - log(y)) / 2 : log1p(4 * x / ((x - 1) * (x - 1) + y * y)) / 4;
    ry = atan2(2 * y, (1 - x) * (1 + x) - y * y) / 2;
  }
  return {copysign(rx, z.re), copysign(ry, z.im)};
}
template <class T> __device__ inline complex<T> atan(const complex<T>& z) {
  return swap_parts(atanh(swap_parts(z)));
}

}  // namespace cuarray
