// complex<T>: the layout of NumPy's complex64/complex128 (real, imaginary) and the arithmetic of
// NumPy's complex loops. The transcendental functions live in complex_math.cuh.
namespace cuarray {

template <class T> struct complex {
  T re, im;

  complex() = default;
  __device__ constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
  template <class U>
  __device__ explicit constexpr complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}

  __device__ constexpr T real() const { return re; }  // as thrust::complex (CuPy's user kernels)
  __device__ constexpr T imag() const { return im; }
  __device__ complex& operator+=(const complex& o) { return *this = *this + o; }
  __device__ complex& operator-=(const complex& o) { return *this = *this - o; }
  __device__ complex& operator*=(const complex& o) { return *this = *this * o; }
  __device__ complex& operator/=(const complex& o) { return *this = *this / o; }
};

template <class T> __device__ inline complex<T> operator+(const complex<T>& a) { return a; }
template <class T> __device__ inline complex<T> operator-(const complex<T>& a) {
  return {-a.re, -a.im};
}
template <class T>
__device__ inline complex<T> operator+(const complex<T>& a, const complex<T>& b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
__device__ inline complex<T> operator-(const complex<T>& a, const complex<T>& b) {
  return {a.re - b.re, a.im - b.im};
}
// Fused as NumPy's SIMD loops (fmaddsub): the same rounding, and an overflowing product inside an
// fma does not turn inf - inf into nan.
template <class T>
__device__ inline complex<T> operator*(const complex<T>& a, const complex<T>& b) {
  return {fma(a.re, b.re, -(a.im * b.im)), fma(a.re, b.im, a.im * b.re)};
}
// A product the compiler may not fuse into an fma: NumPy's complex division is not fused, and
// fusing would also break z / z == 1.
__device__ inline float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ inline double mul_rn(double a, double b) { return __dmul_rn(a, b); }

// Smith's algorithm, as NumPy's complex divide: scales by the larger part of b so |b|**2 cannot
// overflow; b == 0 gives inf or nan parts like a real division by zero.
template <class T>
__device__ inline complex<T> operator/(const complex<T>& a, const complex<T>& b) {
  const T abs_re = fabs(b.re), abs_im = fabs(b.im);
  if (abs_re >= abs_im) {
    if (abs_re == 0) return {a.re / abs_re, a.im / abs_re};
    const T rat = b.im / b.re, scl = T(1) / (b.re + mul_rn(b.im, rat));
    return {(a.re + mul_rn(a.im, rat)) * scl, (a.im - mul_rn(a.re, rat)) * scl};
  }
  const T rat = b.re / b.im, scl = T(1) / (b.im + mul_rn(b.re, rat));
  return {(mul_rn(a.re, rat) + a.im) * scl, (mul_rn(a.im, rat) - a.re) * scl};
}
// NumPy's complex reciprocal loop: Smith's division of 1 by z.
template <class T> __device__ inline complex<T> reciprocal(const complex<T>& z) {
  if (fabs(z.im) <= fabs(z.re)) {
    const T r = z.im / z.re, d = z.re + mul_rn(z.im, r);
    return {1 / d, -r / d};
  }
  const T r = z.re / z.im, d = mul_rn(z.re, r) + z.im;
  return {r / d, -1 / d};
}
template <class T> __device__ inline bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.re == b.re && a.im == b.im;
}
template <class T> __device__ inline bool operator!=(const complex<T>& a, const complex<T>& b) {
  return !(a == b);
}

// Complex with a real scalar: the scalar is a complex with zero imaginary part, but * and / scale
// the parts directly (no 0 * inf = nan from the missing imaginary part).
#define CUARRAY_WITH_SCALAR \
  template <class T, class S, enable_if_t<is_real_v<S>, int> = 0> __device__ inline
CUARRAY_WITH_SCALAR complex<T> operator+(const complex<T>& a, S s) { return {a.re + T(s), a.im}; }
CUARRAY_WITH_SCALAR complex<T> operator+(S s, const complex<T>& a) { return {T(s) + a.re, a.im}; }
CUARRAY_WITH_SCALAR complex<T> operator-(const complex<T>& a, S s) { return {a.re - T(s), a.im}; }
CUARRAY_WITH_SCALAR complex<T> operator-(S s, const complex<T>& a) { return {T(s) - a.re, -a.im}; }
CUARRAY_WITH_SCALAR complex<T> operator*(const complex<T>& a, S s) { return {a.re * T(s), a.im * T(s)}; }
CUARRAY_WITH_SCALAR complex<T> operator*(S s, const complex<T>& a) { return {T(s) * a.re, T(s) * a.im}; }
CUARRAY_WITH_SCALAR complex<T> operator/(const complex<T>& a, S s) { return {a.re / T(s), a.im / T(s)}; }
CUARRAY_WITH_SCALAR complex<T> operator/(S s, const complex<T>& a) { return complex<T>(T(s)) / a; }
CUARRAY_WITH_SCALAR bool operator==(const complex<T>& a, S s) { return a.re == T(s) && a.im == 0; }
CUARRAY_WITH_SCALAR bool operator!=(const complex<T>& a, S s) { return !(a == s); }
#undef CUARRAY_WITH_SCALAR

template <class T> __device__ inline T abs(const complex<T>& z) { return hypot(z.re, z.im); }
template <class T> __device__ inline T arg(const complex<T>& z) { return atan2(z.im, z.re); }
template <class T> __device__ inline complex<T> conj(const complex<T>& z) { return {z.re, -z.im}; }
template <class T> __device__ inline complex<T> rint(const complex<T>& z) {
  return {rint(z.re), rint(z.im)};
}
template <class T> __device__ inline bool isnan(const complex<T>& z) {
  return isnan(z.re) || isnan(z.im);
}
template <class T> __device__ inline bool isinf(const complex<T>& z) {
  return isinf(z.re) || isinf(z.im);
}
template <class T> __device__ inline bool isfinite(const complex<T>& z) {
  return isfinite(z.re) && isfinite(z.im);
}

}  // namespace cuarray
