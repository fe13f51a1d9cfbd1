// A host scalar operand. Python's int/float/complex/bool (and plain C++ numbers) are "weak" in
// NumPy 2's sense (NEP 50): they take the dtype of the arrays they meet. NumPy scalars are strong.
#pragma once
#include <complex>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "cuarray/dtype.hpp"

namespace cuarray {

struct Scalar {
  enum class Kind : uint8_t { Bool, Int, Float, Complex };  // Python's bool/int/float/complex
  Kind kind = Kind::Int;
  bool int_is_unsigned = false;  // an int in [2**63, 2**64): held in u
  union {
    bool b;
    int64_t i;
    uint64_t u;
    double f;
  };
  double imag = 0;              // for Complex: re is f
  std::optional<DType> dtype;   // set for strong scalars (NumPy scalars, C++ typed values)

  Scalar() : i(0) {}
  static Scalar from_bool(bool v) { Scalar s; s.kind = Kind::Bool; s.b = v; return s; }
  static Scalar from_int(int64_t v) { Scalar s; s.kind = Kind::Int; s.i = v; return s; }
  static Scalar from_uint(uint64_t v) {
    Scalar s; s.kind = Kind::Int;
    if (v > static_cast<uint64_t>(INT64_MAX)) { s.int_is_unsigned = true; s.u = v; } else { s.i = static_cast<int64_t>(v); }
    return s;
  }
  static Scalar from_double(double v) { Scalar s; s.kind = Kind::Float; s.f = v; return s; }
  static Scalar from_complex(std::complex<double> v) { Scalar s; s.kind = Kind::Complex; s.f = v.real(); s.imag = v.imag(); return s; }
  template <class T>
  static Scalar from(T v) {
    if constexpr (std::is_same_v<T, bool>) return from_bool(v);
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) return from_uint(v);
    else if constexpr (std::is_integral_v<T>) return from_int(v);
    else if constexpr (std::is_floating_point_v<T>) return from_double(static_cast<double>(v));
    else return from_complex(std::complex<double>(v));
  }

  bool weak() const { return !dtype.has_value(); }
  // The dtype NumPy gives this value on its own (np.asarray(value).dtype).
  DType default_dtype() const;
  double real_value() const;    // as a double
  // Writes the value converted to `t` (NumPy's cast) into `out` (itemsize(t) bytes).
  void store_as(DType t, void* out) const;
  // The value of one element of dtype `t` stored at `bytes` (a strong scalar of that dtype).
  static Scalar load(DType t, const void* bytes);
  // NumPy's checks when a Python scalar is stored into an array of dtype `t` (setitem, fill, full):
  // complex into a real dtype raises TypeError; an int (or a float truncated to one) that does not
  // fit an integer dtype raises OverflowError. Strong (NumPy) scalars cast unchecked.
  void check_assignable(DType t) const;
  // Whether an int fits `t` exactly (NEP 50 raises OverflowError for a weak int that does not).
  bool int_fits(DType t) const;
};

}  // namespace cuarray
