// IEEE binary16, self-contained: NVRTC compiles kernels with no include paths, so no <cuda_fp16.h>.
// As in NumPy's float16 loops, every operation computes in float32 and rounds once back to half.
namespace cuarray {

struct float16 {
  unsigned short bits;

  float16() = default;
  template <class T, enable_if_t<is_real_v<T>, int> = 0>
  __device__ float16(T v) : bits(round_from(v)) {}

  __device__ operator float() const {
#ifdef __CUDA_ARCH__
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
    return f;
#else  // host builds of the fragments (unit tests): the host compiler's own binary16
    return float(__builtin_bit_cast(_Float16, bits));
#endif
  }

  static __device__ float16 from_bits(unsigned short b) {
    float16 h;
    h.bits = b;
    return h;
  }

  __device__ float16& operator+=(float16 o) { return *this = float(*this) + float(o); }
  __device__ float16& operator-=(float16 o) { return *this = float(*this) - float(o); }
  __device__ float16& operator*=(float16 o) { return *this = float(*this) * float(o); }
  __device__ float16& operator/=(float16 o) { return *this = float(*this) / float(o); }

 private:
  // double rounds straight to half: going through float would round twice.
  static __device__ unsigned short round_from(double d) {
#ifdef __CUDA_ARCH__
    unsigned short h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
    return h;
#else
    return __builtin_bit_cast(unsigned short, (_Float16)d);
#endif
  }
  static __device__ unsigned short round_from(float f) {
#ifdef __CUDA_ARCH__
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    return __builtin_bit_cast(unsigned short, (_Float16)f);
#endif
  }
  // bool and integers: float is exact below 2**24 and every larger integer overflows half anyway.
  template <class T> static __device__ unsigned short round_from(T v) { return round_from(float(v)); }
};

// Free functions of float16 are templates so that NVRTC only analyses the ones a kernel uses.
template <class H, class R = H> using if_half = enable_if_t<is_same_v<H, float16>, R>;
template <class A, class B, class R>
using if_half_operands =
    enable_if_t<(is_same_v<A, float16> || is_same_v<B, float16>) && is_real_v<A> && is_real_v<B>, R>;

template <class H> __device__ inline if_half<H> operator+(H a) { return a; }
template <class H> __device__ inline if_half<H> operator-(H a) { return H::from_bits(a.bits ^ 0x8000u); }

// Half with half, or with any real scalar (the scalar adapts, like NumPy's weak Python scalars).
#define CUARRAY_HALF_OPERATOR(op, R)                                         \
  template <class A, class B>                                                \
  __device__ inline if_half_operands<A, B, R> operator op(A a, B b) {        \
    return R(float(a) op float(b));                                          \
  }
CUARRAY_HALF_OPERATOR(+, float16)
CUARRAY_HALF_OPERATOR(-, float16)
CUARRAY_HALF_OPERATOR(*, float16)
CUARRAY_HALF_OPERATOR(/, float16)
CUARRAY_HALF_OPERATOR(==, bool)
CUARRAY_HALF_OPERATOR(!=, bool)
CUARRAY_HALF_OPERATOR(<, bool)
CUARRAY_HALF_OPERATOR(<=, bool)
CUARRAY_HALF_OPERATOR(>, bool)
CUARRAY_HALF_OPERATOR(>=, bool)
#undef CUARRAY_HALF_OPERATOR

// Math functions on half compute in float.
#define CUARRAY_HALF_UNARY(f) \
  template <class H> __device__ inline if_half<H> f(H x) { return f(float(x)); }
#define CUARRAY_HALF_BINARY(f) \
  template <class H> __device__ inline if_half<H> f(H x, H y) { return f(float(x), float(y)); }
CUARRAY_HALF_UNARY(fabs)
CUARRAY_HALF_UNARY(sqrt)
CUARRAY_HALF_UNARY(cbrt)
CUARRAY_HALF_UNARY(exp)
CUARRAY_HALF_UNARY(exp2)
CUARRAY_HALF_UNARY(expm1)
CUARRAY_HALF_UNARY(log)
CUARRAY_HALF_UNARY(log2)
CUARRAY_HALF_UNARY(log10)
CUARRAY_HALF_UNARY(log1p)
CUARRAY_HALF_UNARY(sin)
CUARRAY_HALF_UNARY(cos)
CUARRAY_HALF_UNARY(tan)
CUARRAY_HALF_UNARY(asin)
CUARRAY_HALF_UNARY(acos)
CUARRAY_HALF_UNARY(atan)
CUARRAY_HALF_UNARY(sinh)
CUARRAY_HALF_UNARY(cosh)
CUARRAY_HALF_UNARY(tanh)
CUARRAY_HALF_UNARY(asinh)
CUARRAY_HALF_UNARY(acosh)
CUARRAY_HALF_UNARY(atanh)
CUARRAY_HALF_UNARY(floor)
CUARRAY_HALF_UNARY(ceil)
CUARRAY_HALF_UNARY(trunc)
CUARRAY_HALF_UNARY(rint)
CUARRAY_HALF_BINARY(atan2)
CUARRAY_HALF_BINARY(hypot)
CUARRAY_HALF_BINARY(pow)
CUARRAY_HALF_BINARY(fmod)
CUARRAY_HALF_BINARY(copysign)
CUARRAY_HALF_BINARY(fmax)
CUARRAY_HALF_BINARY(fmin)
#undef CUARRAY_HALF_UNARY
#undef CUARRAY_HALF_BINARY

template <class H> __device__ inline if_half<H, bool> isnan(H x) { return (x.bits & 0x7fffu) > 0x7c00u; }
template <class H> __device__ inline if_half<H, bool> isinf(H x) { return (x.bits & 0x7fffu) == 0x7c00u; }
template <class H> __device__ inline if_half<H, bool> isfinite(H x) { return (x.bits & 0x7fffu) < 0x7c00u; }
template <class H> __device__ inline if_half<H, bool> signbit(H x) { return x.bits >> 15; }

// As NumPy's npy_half_nextafter: half is sign-magnitude, so a step away from zero adds one to
// the bits and a step towards zero subtracts one; equal arguments return y (C99, and NumPy 2.5:
// nextafter(0.0, -0.0) is -0.0).
template <class H> __device__ inline if_half<H> nextafter(H x, H y) {
  if (isnan(x) || isnan(y)) return H::from_bits(0x7e00u);
  if (float(x) == float(y)) return y;
  if ((x.bits & 0x7fffu) == 0) return H::from_bits((y.bits & 0x8000u) | 1u);
  const bool away_from_zero = (float(x) < float(y)) != signbit(x);
  return H::from_bits(away_from_zero ? x.bits + 1 : x.bits - 1);
}

}  // namespace cuarray
