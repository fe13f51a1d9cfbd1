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
    // Out of range is undefined in NumPy too. Going through int64 wraps negative values into
    // unsigned types as NumPy does on x86 (-1.0 -> 255), where a direct conversion would clamp to 0.
    if constexpr (is_same_v<To, unsigned long long>) return v < 0 ? To((long long)v) : To(v);
    else return To((long long)v);
  } else {
    return To(v);
  }
}
