// Device functions with NumPy's semantics, called by the ufunc expressions of
// src/ops/ufunc/ufunc_table.cpp where a plain C++ operator or math function would differ from NumPy.
// Each is one template over the loop types: float16 computes in float32 (compute_t) and rounds
// once, as NumPy's half loops do; a complex branch is only instantiated by complex loops.

namespace cuarray {

// |v| as an unsigned type, exact for the most negative value.
template <class T> __device__ inline wrap_t<T> magnitude(T v) {
  using W = wrap_t<T>;
  if constexpr (is_signed_int_v<T>) return v < 0 ? W(0) - W(v) : W(v);
  else return W(v);
}

template <class T> __device__ inline bool is_negative(T v) {
  if constexpr (is_signed_int_v<T>) return v < 0;
  else return false;
}

template <class T> __device__ inline wrap_t<T> gcd_of_magnitudes(T a, T b) {
  wrap_t<T> x = magnitude(a), y = magnitude(b);
  while (y != 0) {
    const wrap_t<T> r = x % y;
    x = y;
    y = r;
  }
  return x;
}

// NumPy's npy_divmod: Python's floor division and modulo (the remainder takes the sign of the
// divisor) built on fmod's exact remainder, with the quotient snapped to an integer.
template <class C> __device__ C divmod_floating(C a, C b, C& mod) {
  mod = fmod(a, b);
  if (b == 0) return a / b;
  C div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1;
    }
  } else {
    mod = copysign(C(0), b);
  }
  if (div == 0) return copysign(C(0), a / b);
  const C floordiv = floor(div);
  return div - floordiv > C(0.5) ? floordiv + 1 : floordiv;
}

template <bool Base2, class T> __device__ inline T logaddexp(T a, T b) {
  using C = compute_t<T>;
  const C x = C(a), y = C(b);
  if (x == y) return T(x + (Base2 ? C(1) : C(kLn2)));  // also infinities of one sign: no inf - inf
  const C d = x - y;
  if (d != d) return T(d);
  const C tail = Base2 ? log1p(exp2(-fabs(d))) * C(kLog2e) : log1p(exp(-fabs(d)));
  return T((d > 0 ? x : y) + tail);
}

}  // namespace cuarray

template <class T> __device__ inline bool cuarray_isnan(T a) {
  if constexpr (cuarray::is_floating_v<T> || cuarray::is_complex_v<T>) return isnan(a);
  else return false;
}
template <class T> __device__ inline bool cuarray_isinf(T a) {
  if constexpr (cuarray::is_floating_v<T> || cuarray::is_complex_v<T>) return isinf(a);
  else return false;
}
template <class T> __device__ inline bool cuarray_isfinite(T a) {
  if constexpr (cuarray::is_floating_v<T> || cuarray::is_complex_v<T>) return isfinite(a);
  else return true;
}

// NumPy's bool and integer loops of floor, ceil and trunc are the identity.
#define CUARRAY_INTEGER_IDENTITY(f)                         \
  template <class T> __device__ inline T cuarray_##f(T a) { \
    if constexpr (cuarray::is_floating_v<T>) return f(a);   \
    else return a;                                          \
  }
CUARRAY_INTEGER_IDENTITY(floor)
CUARRAY_INTEGER_IDENTITY(ceil)
CUARRAY_INTEGER_IDENTITY(trunc)
#undef CUARRAY_INTEGER_IDENTITY

// ---- Division. Integers: x // 0 == x % 0 == 0 (NumPy warns), MIN // -1 wraps to MIN.

template <class T> __device__ inline T cuarray_floor_divide(T a, T b) {
  if constexpr (cuarray::is_integer_v<T>) {
    if (b == 0) return 0;
    if constexpr (cuarray::is_signed_int_v<T>) {
      if (b == -1) return T(cuarray::wrap_t<T>(0) - cuarray::wrap_t<T>(a));  // a / -1 is UB for MIN
    }
    const T q = a / b;
    return q * b != a && cuarray::is_negative(a) != cuarray::is_negative(b) ? T(q - 1) : q;
  } else {
    using C = cuarray::compute_t<T>;
    C mod;
    return T(cuarray::divmod_floating(C(a), C(b), mod));
  }
}

template <class T> __device__ inline T cuarray_remainder(T a, T b) {
  if constexpr (cuarray::is_integer_v<T>) {
    if (b == 0) return 0;
    if constexpr (cuarray::is_signed_int_v<T>) {
      if (b == -1) return 0;
    }
    const T r = a % b;
    return r != 0 && cuarray::is_negative(r) != cuarray::is_negative(b) ? T(r + b) : r;
  } else {
    using C = cuarray::compute_t<T>;
    C mod;
    cuarray::divmod_floating(C(a), C(b), mod);
    return T(mod);
  }
}

template <class T> __device__ inline void cuarray_divmod(T a, T b, T& quotient, T& remainder) {
  if constexpr (cuarray::is_integer_v<T>) {
    quotient = cuarray_floor_divide(a, b);
    remainder = cuarray_remainder(a, b);
  } else {
    using C = cuarray::compute_t<T>;
    C mod;
    quotient = T(cuarray::divmod_floating(C(a), C(b), mod));
    remainder = T(mod);
  }
}

// C's truncated remainder, the sign of the dividend.
template <class T> __device__ inline T cuarray_fmod(T a, T b) {
  if constexpr (cuarray::is_integer_v<T>) {
    if (b == 0) return 0;
    if constexpr (cuarray::is_signed_int_v<T>) {
      if (b == -1) return 0;
    }
    return a % b;
  } else {
    return fmod(a, b);
  }
}

// Integers by squaring, wrapping on overflow. A negative exponent is NumPy's ValueError, which the
// host raises before launch; here it gives 0.
template <class T> __device__ inline T cuarray_power(T a, T b) {
  if constexpr (cuarray::is_integer_v<T>) {
    if (cuarray::is_negative(b)) return 0;
    using W = cuarray::wrap_t<T>;
    W base = W(a), result = 1;
    for (W e = W(b); e != 0; e >>= 1) {
      if (e & 1) result *= base;
      base *= base;
    }
    return T(result);
  } else if constexpr (cuarray::is_floating_v<T>) {
    // The device pow is within 2 ulp (and, built with --fmad=false, not always exact), while NumPy's
    // libm is correctly rounded: pow(-23.0, 3.0) can come back as -12166.999..., which a cast to an
    // integer type (float_power.at on int8) truncates to -12166. An integral base to a non-negative
    // integral power is an integer, exactly representable below 2**digits: round to it.
    using C = cuarray::compute_t<T>;
    const C x = C(a), y = C(b);
    C r = pow(x, y);
    constexpr C kExact = sizeof(C) == 8 ? C(9007199254740992.0) : C(16777216.0f);  // 2**53, 2**24
    if (y >= C(0) && x == trunc(x) && y == trunc(y) && fabs(r) < kExact) r = rint(r);
    return T(r);
  } else {
    return pow(a, b);
  }
}

// ---- Unary arithmetic.

template <class T> __device__ inline auto cuarray_absolute(T a) {
  if constexpr (cuarray::is_complex_v<T>) return abs(a);
  else if constexpr (cuarray::is_floating_v<T>) return fabs(a);
  else if constexpr (cuarray::is_signed_int_v<T>) return T(cuarray::magnitude(a));  // MIN stays MIN
  else return a;
}

// NumPy 2: z / |z| for complex (0 for 0, nan for nan).
template <class T> __device__ inline T cuarray_sign(T a) {
  if constexpr (cuarray::is_complex_v<T>) {
    using R = cuarray::real_t<T>;
    const R m = abs(a);
    if (isnan(m)) return T(m, m);
    if (isinf(m)) {
      if (!isinf(a.re)) return T(0, a.im > 0 ? 1 : -1);
      if (isinf(a.im)) return T(m - m, m - m);
      return T(a.re > 0 ? 1 : -1, 0);
    }
    if (m == 0) return T(0, 0);
    return T(a.re / m, a.im / m);
  } else if constexpr (cuarray::is_floating_v<T>) {
    return a > 0 ? T(1) : a < 0 ? T(-1) : a == 0 ? T(0) : a;  // nan stays nan
  } else {
    return T(a > 0) - T(cuarray::is_negative(a));
  }
}

template <class T> __device__ inline T cuarray_reciprocal(T a) {
  if constexpr (cuarray::is_complex_v<T>) {
    return reciprocal(a);
  } else if constexpr (cuarray::is_integer_v<T>) {
    return cuarray_cast<T>(1.0 / a);  // NumPy's integer loop divides in double
  } else {
    return T(1) / a;
  }
}

template <class T> __device__ inline T cuarray_conjugate(T a) {
  if constexpr (cuarray::is_complex_v<T>) return conj(a);
  else return a;
}

template <class T> __device__ inline T cuarray_invert(T a) {
  if constexpr (cuarray::is_bool_v<T>) return !a;
  else return T(~a);
}

// ---- Comparisons. NumPy compares int64 with uint64 by value (its qQ loops), not after C++'s
// conversion to unsigned. Complex numbers order lexicographically, except that a NaN imaginary
// part voids the comparison of the real parts.

template <class A, class B>
constexpr bool cuarray_mixed_sign_v = cuarray::is_integer_v<A> && cuarray::is_integer_v<B> &&
                                      cuarray::is_signed_int_v<A> != cuarray::is_signed_int_v<B>;

template <class A, class B> __device__ inline bool cuarray_less(A a, B b) {
  using cuarray::is_negative;
  if constexpr (cuarray::is_complex_v<A>) {
    return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im < b.im);
  } else if constexpr (cuarray_mixed_sign_v<A, B>) {
    return is_negative(a) != is_negative(b) ? is_negative(a) : (unsigned long long)a < (unsigned long long)b;
  } else {
    return a < b;
  }
}
template <class A, class B> __device__ inline bool cuarray_less_equal(A a, B b) {
  using cuarray::is_negative;
  if constexpr (cuarray::is_complex_v<A>) {
    return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im <= b.im);
  } else if constexpr (cuarray_mixed_sign_v<A, B>) {
    return is_negative(a) != is_negative(b) ? is_negative(a) : (unsigned long long)a <= (unsigned long long)b;
  } else {
    return a <= b;
  }
}
template <class A, class B> __device__ inline bool cuarray_equal(A a, B b) {
  using cuarray::is_negative;
  if constexpr (cuarray_mixed_sign_v<A, B>) {
    return is_negative(a) == is_negative(b) && (unsigned long long)a == (unsigned long long)b;
  } else {
    return a == b;
  }
}

// maximum and minimum propagate NaN, fmax and fmin ignore it. On ties (-0.0 vs 0.0) maximum and
// minimum return the second argument, as NumPy's array loops do.
template <class T> __device__ inline T cuarray_maximum(T a, T b) {
  return cuarray_isnan(a) || cuarray_less(b, a) ? a : b;
}
template <class T> __device__ inline T cuarray_minimum(T a, T b) {
  return cuarray_isnan(a) || cuarray_less(a, b) ? a : b;
}
template <class T> __device__ inline T cuarray_fmax(T a, T b) {
  return cuarray_isnan(b) || !(cuarray_isnan(a) || cuarray_less(a, b)) ? a : b;
}
template <class T> __device__ inline T cuarray_fmin(T a, T b) {
  return cuarray_isnan(b) || !(cuarray_isnan(a) || cuarray_less(b, a)) ? a : b;
}

// ---- Bits. Shifting by the bit width or more, or by a negative count, gives 0 (-1 for a negative
// value shifted right), as NumPy's npy_lshift/npy_rshift.

template <class T> __device__ inline T cuarray_left_shift(T a, T b) {
  using W = cuarray::wrap_t<T>;
  return W(b) < sizeof(T) * 8 ? T(W(a) << W(b)) : T(0);
}
template <class T> __device__ inline T cuarray_right_shift(T a, T b) {
  if (cuarray::wrap_t<T>(b) < sizeof(T) * 8) return T(a >> b);
  return cuarray::is_negative(a) ? T(-1) : T(0);
}

// gcd and lcm of the absolute values, the lcm wrapping on overflow as NumPy's.
template <class T> __device__ inline T cuarray_gcd(T a, T b) { return T(cuarray::gcd_of_magnitudes(a, b)); }
template <class T> __device__ inline T cuarray_lcm(T a, T b) {
  const cuarray::wrap_t<T> g = cuarray::gcd_of_magnitudes(a, b);
  return g == 0 ? T(0) : T(cuarray::magnitude(a) / g * cuarray::magnitude(b));
}

template <class T> __device__ inline uint8_t cuarray_bitwise_count(T a) {
  const cuarray::wrap_t<T> m = cuarray::magnitude(a);
  if constexpr (sizeof(m) == 8) return __popcll(m);
  else return __popc(m);
}

// ---- Floating point.

template <class T> __device__ inline T cuarray_heaviside(T x, T h0) {
  return cuarray_isnan(x) ? x : x == 0 ? h0 : x < 0 ? T(0) : T(1);
}

template <class T> __device__ inline T cuarray_logaddexp(T a, T b) { return cuarray::logaddexp<false>(a, b); }
template <class T> __device__ inline T cuarray_logaddexp2(T a, T b) { return cuarray::logaddexp<true>(a, b); }

// NumPy scales by pi/180 rounded in the loop's compute type (float32 for float16 and float32).
template <class T> __device__ inline T cuarray_deg2rad(T x) {
  using C = cuarray::compute_t<T>;
  return T(C(x) * (C(cuarray::kPi) / C(180)));
}
template <class T> __device__ inline T cuarray_rad2deg(T x) {
  using C = cuarray::compute_t<T>;
  return T(C(x) * (C(180) / C(cuarray::kPi)));
}

// NumPy's npy_spacing: the gap to the next value away from zero (0 gives the smallest subnormal,
// inf and nan give nan); npy_half_spacing instead steps towards +inf, so it is positive for -1.0.
template <class T> __device__ inline T cuarray_spacing(T x) {
  if (!isfinite(x)) return x - x;
  if constexpr (cuarray::is_same_v<T, cuarray::float16>) {
    return nextafter(x, T::from_bits(0x7c00u)) - x;
  } else {
    if (x == 0) return nextafter(T(0), T(1));
    return nextafter(x, 2 * x) - x;  // 2x lies further from zero, or is inf
  }
}

// NumPy clamps an int64 exponent to the int range; the result saturates long before.
template <class T, class I> __device__ inline T cuarray_ldexp(T x, I n) {
  using C = cuarray::compute_t<T>;
  const long long e = n;
  return T(ldexp(C(x), int(e > 2147483647 ? 2147483647 : e < -2147483648ll ? -2147483648ll : e)));
}

// The exponent of inf and nan is unspecified in C; glibc, and so NumPy, gives 0.
template <class T> __device__ inline T cuarray_frexp(T x, int& exponent) {
  using C = cuarray::compute_t<T>;
  const C mantissa = frexp(C(x), &exponent);
  if (!isfinite(x)) exponent = 0;
  return T(mantissa);
}

template <class T> __device__ inline T cuarray_modf(T x, T& integral) {
  using C = cuarray::compute_t<T>;
  C i;
  const C fraction = modf(C(x), &i);
  integral = T(i);
  return T(fraction);
}

// ---- Helpers of NumPy functions that are not ufuncs.

// np.round/around: round half to even at 10**decimals, computed in the array's own type (float16
// rounds after each step like NumPy's half multiply, rint and divide); integers change only for
// decimals < 0, computed in double and cast back.
template <class T> __device__ inline T cuarray_round(T x, long long decimals) {
  if constexpr (cuarray::is_complex_v<T>) {
    return T(cuarray_round(x.re, decimals), cuarray_round(x.im, decimals));
  } else {
    double scale = 1;  // NumPy's power_of_ten: repeated multiplication, inf past double's range
    for (long long n = decimals < 0 ? -decimals : decimals; n > 0 && scale <= 1.7976931348623157e308; --n) scale *= 10;
    if constexpr (cuarray::is_integer_v<T>) {
      return decimals >= 0 ? x : cuarray_cast<T>(rint(double(x) / scale) * scale);
    } else {
      const T s = T(scale);
      return decimals >= 0 ? T(rint(x * s) / s) : T(rint(x / s) * s);
    }
  }
}

// np.nan_to_num; a complex value has each part replaced.
template <class T, class R> __device__ inline T cuarray_nan_to_num(T x, R nan, R posinf, R neginf) {
  if constexpr (cuarray::is_complex_v<T>) {
    return T(cuarray_nan_to_num(x.re, nan, posinf, neginf), cuarray_nan_to_num(x.im, nan, posinf, neginf));
  } else {
    return isnan(x) ? nan : isinf(x) ? (x > 0 ? posinf : neginf) : x;
  }
}

// np.angle: arctan2(imag, real); pi for negative reals and -0.0; bool gives float64 0.
template <class T> __device__ inline auto cuarray_angle(T x) {
  if constexpr (cuarray::is_complex_v<T>) return arg(x);
  else if constexpr (cuarray::is_floating_v<T>) return atan2(T(0), x);
  else return 0.0;
}

