#include "cuarray/scalar.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "cuarray/errors.hpp"

namespace cuarray {
namespace {

// IEEE binary16 from a double with one round-to-nearest-even step, as NumPy's npy_double_to_half
// (going through float would round twice).
uint16_t to_half_bits(double value) {
  uint64_t x;
  std::memcpy(&x, &value, 8);
  const uint16_t sign = static_cast<uint16_t>((x >> 48) & 0x8000u);
  const uint64_t mantissa = x & ((1ull << 52) - 1);
  const int e = static_cast<int>((x >> 52) & 0x7ff);
  if (e == 0x7ff) return sign | 0x7c00u | (mantissa ? 0x200u : 0);
  if (e > 1038) return sign | 0x7c00u;
  auto round_shift = [](uint64_t m, int s) {
    uint64_t r = m >> s, rem = m & ((1ull << s) - 1), halfway = 1ull << (s - 1);
    return (rem > halfway || (rem == halfway && (r & 1))) ? r + 1 : r;
  };
  if (e >= 1009) {  // normal in half; a carry out of the mantissa correctly bumps the exponent
    uint64_t m = (static_cast<uint64_t>(e - 1008) << 52 | mantissa);
    return static_cast<uint16_t>(sign | round_shift(m, 42));
  }
  const int s = 1051 - e;  // subnormal: units of 2**-24
  if (s > 53) return sign;
  return static_cast<uint16_t>(sign | round_shift((1ull << 52) | mantissa, s));
}

double half_bits_to_double(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(static_cast<double>(mant), -24);
  else if (exp == 31) v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else v = std::ldexp(static_cast<double>(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

template <class T>
T get(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T>
void put(void* out, T v) {
  std::memcpy(out, &v, sizeof(T));
}

}  // namespace

DType Scalar::default_dtype() const {
  if (dtype) return *dtype;
  switch (kind) {
    case Kind::Bool: return DType::Bool;
    case Kind::Int: return int_is_unsigned ? DType::UInt64 : DType::Int64;
    case Kind::Float: return DType::Float64;
    case Kind::Complex: return DType::Complex128;
  }
  return DType::Float64;
}

double Scalar::real_value() const {
  switch (kind) {
    case Kind::Bool: return b ? 1.0 : 0.0;
    case Kind::Int: return int_is_unsigned ? static_cast<double>(u) : static_cast<double>(i);
    default: return f;
  }
}

Scalar Scalar::load(DType t, const void* p) {
  Scalar s;
  switch (t) {
    case DType::Bool: s = from_bool(get<uint8_t>(p) != 0); break;
    case DType::Int8: s = from_int(get<int8_t>(p)); break;
    case DType::UInt8: s = from_int(get<uint8_t>(p)); break;
    case DType::Int16: s = from_int(get<int16_t>(p)); break;
    case DType::UInt16: s = from_int(get<uint16_t>(p)); break;
    case DType::Int32: s = from_int(get<int32_t>(p)); break;
    case DType::UInt32: s = from_int(get<uint32_t>(p)); break;
    case DType::Int64: s = from_int(get<int64_t>(p)); break;
    case DType::UInt64: s = from_uint(get<uint64_t>(p)); break;
    case DType::Float16: s = from_double(half_bits_to_double(get<uint16_t>(p))); break;
    case DType::Float32: s = from_double(get<float>(p)); break;
    case DType::Float64: s = from_double(get<double>(p)); break;
    case DType::Complex64: {
      const float* c = static_cast<const float*>(p);
      s = from_complex({get<float>(c), get<float>(c + 1)});
      break;
    }
    case DType::Complex128: {
      const double* c = static_cast<const double*>(p);
      s = from_complex({get<double>(c), get<double>(c + 1)});
      break;
    }
  }
  s.dtype = t;
  return s;
}

void Scalar::check_assignable(DType t) const {
  if (!weak() || t == DType::Bool || is_complex(t)) return;
  if (kind == Kind::Complex)
    throw_error(ErrorKind::Type, is_integer(t) ? "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
                                               : "float() argument must be a string or a real number, not 'complex'");
  if (!is_integer(t)) return;
  Scalar as_int = *this;
  if (kind == Kind::Float) {
    if (std::isnan(f)) throw_error(ErrorKind::Value, "cannot convert float NaN to integer");
    if (std::isinf(f)) throw_error(ErrorKind::Overflow, "cannot convert float infinity to integer");
    const double truncated = std::trunc(f);
    if (truncated >= 18446744073709551616.0 || truncated < -9223372036854775808.0)
      throw_error(ErrorKind::Overflow, "Python integer out of bounds for " + std::string(dtype_name(t)));
    as_int = truncated >= 9223372036854775808.0 ? from_uint(static_cast<uint64_t>(truncated))
                                                : from_int(static_cast<int64_t>(truncated));
  }
  if (!as_int.int_fits(t))
    throw_error(ErrorKind::Overflow, "Python integer " +
                                         (as_int.int_is_unsigned ? std::to_string(as_int.u) : std::to_string(as_int.i)) +
                                         " out of bounds for " + std::string(dtype_name(t)));
}

bool Scalar::int_fits(DType t) const {
  if (kind != Kind::Int) return true;
  if (int_is_unsigned) return t == DType::UInt64 || is_inexact(t);
  switch (t) {
    case DType::Bool: return i == 0 || i == 1;
    case DType::Int8: return i >= INT8_MIN && i <= INT8_MAX;
    case DType::UInt8: return i >= 0 && i <= UINT8_MAX;
    case DType::Int16: return i >= INT16_MIN && i <= INT16_MAX;
    case DType::UInt16: return i >= 0 && i <= UINT16_MAX;
    case DType::Int32: return i >= INT32_MIN && i <= INT32_MAX;
    case DType::UInt32: return i >= 0 && i <= static_cast<int64_t>(UINT32_MAX);
    case DType::UInt64: return i >= 0;
    default: return true;
  }
}

void Scalar::store_as(DType t, void* out) const {
  // Integers convert through their exact value (wrapping modulo 2**bits like NumPy's astype);
  // floats through double.
  const bool integral = kind == Kind::Bool || kind == Kind::Int;
  const uint64_t bits = kind == Kind::Bool ? (b ? 1 : 0) : (int_is_unsigned ? u : static_cast<uint64_t>(i));
  const double re = real_value();
  const double im = kind == Kind::Complex ? imag : 0.0;
  auto as_int = [&]() -> uint64_t {
    if (integral) return bits;
    if (std::isnan(re) || std::isinf(re)) return static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
    return re < 0 ? static_cast<uint64_t>(static_cast<int64_t>(re)) : static_cast<uint64_t>(re);
  };
  switch (t) {
    case DType::Bool: put<uint8_t>(out, (re != 0 || im != 0) ? 1 : 0); break;
    case DType::Int8: case DType::UInt8: put<uint8_t>(out, static_cast<uint8_t>(as_int())); break;
    case DType::Int16: case DType::UInt16: put<uint16_t>(out, static_cast<uint16_t>(as_int())); break;
    case DType::Int32: case DType::UInt32: put<uint32_t>(out, static_cast<uint32_t>(as_int())); break;
    case DType::Int64: case DType::UInt64: put<uint64_t>(out, as_int()); break;
    case DType::Float16: put<uint16_t>(out, to_half_bits(re)); break;
    case DType::Float32: put<float>(out, static_cast<float>(re)); break;
    case DType::Float64: put<double>(out, re); break;
    case DType::Complex64: {
      float v[2] = {static_cast<float>(re), static_cast<float>(im)};
      std::memcpy(out, v, sizeof(v));
      break;
    }
    case DType::Complex128: {
      double v[2] = {re, im};
      std::memcpy(out, v, sizeof(v));
      break;
    }
  }
}

}  // namespace cuarray
