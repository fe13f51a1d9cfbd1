namespace cuarray {

// NumPy's float -> integer casts are C casts, undefined out of range. NumPy on x86-64 converts
// with cvttsd2si, which gives the "integer indefinite" 0x80...0 for NaN and out-of-range values
// of its 32- and 64-bit conversions; narrower types keep the low bits of a 32-bit conversion
// (300.0 -> int8 44, -1.0 -> uint8 255, NaN -> 0), uint32 keeps the low bits of a 64-bit conversion
// (NumPy's scalar loops: short arrays, float16, complex, ufunc.at; its vectorized float loops differ
// outside (-2^31, 2^32), so there NumPy's result depends on the array's length), and uint64 is
// converted in two halves split at 2^63. The GPU's conversions saturate instead (NaN -> 0), so the
// x86 results are built from in-range conversions here: a NaN written into an int64 array is
// INT64_MIN, as in NumPy.
template <class I, class F> __device__ inline I truncate_or_indefinite(F v) {
  constexpr F lo = -F(1ull << (8 * sizeof(I) - 1)), hi = F(1ull << (8 * sizeof(I) - 1));
  return v >= lo && v < hi ? I(v) : I(1ull << (8 * sizeof(I) - 1));  // NaN fails both tests
}

// uint64 results: values from 2^63 up are converted less 2^63, and the top bit is set again by the
// xor.
template <class S, class U, class F> __device__ inline U split_at_sign_bit(F v) {
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  if (v >= F(sign)) return U(truncate_or_indefinite<S>(v - F(sign))) ^ sign;
  return U(truncate_or_indefinite<S>(v));
}

template <class To, class From> __device__ inline To x86_float_to_integer(From v) {
  if constexpr (sizeof(To) < 4 || is_same_v<To, int>) return To(truncate_or_indefinite<int>(v));
  else if constexpr (is_same_v<To, long long>) return truncate_or_indefinite<long long>(v);
  else if constexpr (is_same_v<To, unsigned int>) return To(truncate_or_indefinite<long long>(v));
  else return split_at_sign_bit<long long, To>(v);
}

}  // namespace cuarray

// cuarray_cast<To>(v): NumPy's astype between the storage types. Bool is "nonzero" (for complex:
// either part), complex to real keeps the real part, real to complex has a zero imaginary part and
// float16 goes through float.
template <class To, class From> __device__ inline To cuarray_cast(const From& v) {
  using namespace cuarray;
  if constexpr (is_same_v<To, From>) {
    return v;
  } else if constexpr (is_bool_v<To>) {
    if constexpr (is_complex_v<From>) return v.re != 0 || v.im != 0;
    else return v != 0;
  } else if constexpr (is_complex_v<To>) {
    using R = real_t<To>;
    if constexpr (is_complex_v<From>) return To(cuarray_cast<R>(v.re), cuarray_cast<R>(v.im));
    else return To(cuarray_cast<R>(v));
  } else if constexpr (is_complex_v<From>) {
    return cuarray_cast<To>(v.re);
  } else if constexpr (!is_same_v<compute_t<From>, From>) {  // float16 converts through float
    return cuarray_cast<To>(compute_t<From>(v));
  } else if constexpr (is_integer_v<To> && is_floating_v<From>) {
    return cuarray::x86_float_to_integer<To>(v);
  } else {
    return To(v);
  }
}
