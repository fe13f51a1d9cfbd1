// Element types and NumPy's promotion and casting rules.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cuarray {

// The order is fixed: tables generated from NumPy (src/core/dtype_tables.inc) index by it.
enum class DType : uint8_t {
  Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64,
  Float16, Float32, Float64, Complex64, Complex128,
};
inline constexpr int kNumDTypes = 14;

// NumPy's dtype.kind: 'b', 'i', 'u', 'f', 'c'. Ordered so that a larger kind can hold a smaller.
enum class DTypeKind : uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex };

// NumPy's casting= levels, in increasing permissiveness.
enum class Casting : uint8_t { No, Equiv, Safe, SameKind, Unsafe };

size_t itemsize(DType t);
DTypeKind kind(DType t);
char type_char(DType t);                        // NumPy's dtype.char: '?', 'b', ..., 'l', 'L', 'e', 'f', 'd', 'F', 'D'
std::string_view dtype_name(DType t);           // "float32"
std::optional<DType> dtype_from_char(char c);   // accepts NumPy's aliases 'q'/'Q' for int64/uint64
std::optional<DType> dtype_from_name(std::string_view name);  // NumPy's canonical names: "float32", ...
inline bool is_integer(DType t) { return kind(t) == DTypeKind::SignedInt || kind(t) == DTypeKind::UnsignedInt; }
inline bool is_inexact(DType t) { return kind(t) >= DTypeKind::Float; }
inline bool is_complex(DType t) { return kind(t) == DTypeKind::Complex; }
DType real_dtype(DType complex_or_real);        // complex64 -> float32; others unchanged

DType promote_types(DType a, DType b);          // np.promote_types
// np.result_type of several dtypes (concatenate's, einsum's): NumPy promotes each with the one of
// highest type number first and then those results together, which is not a left fold of
// promote_types: int8, uint8, float16 give float16, where the fold gives float32. Not empty.
DType promote_types(std::span<const DType> dtypes);
bool can_cast(DType from, DType to, Casting casting);  // np.can_cast
std::string_view casting_name(Casting c);
std::optional<Casting> casting_from_name(std::string_view name);

// The C++ type that stores each dtype on the host (float16 and complex are raw bit layouts).
struct Float16Bits { uint16_t bits; };
template <class T> struct ComplexValue { T re, im; };

}  // namespace cuarray
