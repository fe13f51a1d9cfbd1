#include "cuarray/dtype.hpp"

#include <array>

namespace cuarray {
namespace {
#include "core/dtype_tables.inc"

struct DTypeInfo {
  std::string_view name;
  char type_char;
  uint8_t itemsize;
  DTypeKind kind;
};

constexpr std::array<DTypeInfo, kNumDTypes> kInfo = {{
    {"bool", '?', 1, DTypeKind::Bool},
    {"int8", 'b', 1, DTypeKind::SignedInt},
    {"uint8", 'B', 1, DTypeKind::UnsignedInt},
    {"int16", 'h', 2, DTypeKind::SignedInt},
    {"uint16", 'H', 2, DTypeKind::UnsignedInt},
    {"int32", 'i', 4, DTypeKind::SignedInt},
    {"uint32", 'I', 4, DTypeKind::UnsignedInt},
    {"int64", 'l', 8, DTypeKind::SignedInt},
    {"uint64", 'L', 8, DTypeKind::UnsignedInt},
    {"float16", 'e', 2, DTypeKind::Float},
    {"float32", 'f', 4, DTypeKind::Float},
    {"float64", 'd', 8, DTypeKind::Float},
    {"complex64", 'F', 8, DTypeKind::Complex},
    {"complex128", 'D', 16, DTypeKind::Complex},
}};

const DTypeInfo& info(DType t) { return kInfo[static_cast<int>(t)]; }
}  // namespace

size_t itemsize(DType t) { return info(t).itemsize; }
DTypeKind kind(DType t) { return info(t).kind; }
char type_char(DType t) { return info(t).type_char; }
std::string_view dtype_name(DType t) { return info(t).name; }

std::optional<DType> dtype_from_char(char c) {
  if (c == 'q') return DType::Int64;
  if (c == 'Q') return DType::UInt64;
  for (int i = 0; i < kNumDTypes; ++i)
    if (kInfo[i].type_char == c) return static_cast<DType>(i);
  return std::nullopt;
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kInfo[i].name == name) return static_cast<DType>(i);
  return std::nullopt;
}

DType real_dtype(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}

DType promote_types(DType a, DType b) { return kPromote[static_cast<int>(a)][static_cast<int>(b)]; }

DType promote_types(std::span<const DType> dtypes) {
  // NumPy's PyArray_PromoteDTypeSequence: the builtin DType with the larger type number answers
  // for a pair, so the "main" DType is the one of highest number (float16 is NPY_HALF = 23, above
  // every other; the rest are numbered in this enum's order).
  auto number = [](DType t) { return t == DType::Float16 ? kNumDTypes : static_cast<int>(t); };
  DType main = dtypes[0];
  for (DType t : dtypes)
    if (number(t) > number(main)) main = t;
  DType result = promote_types(main, dtypes[0]);
  for (DType t : dtypes) result = promote_types(result, promote_types(main, t));
  return result;
}

bool can_cast(DType from, DType to, Casting casting) {
  return (kCanCast[static_cast<int>(casting)][static_cast<int>(from)] >> static_cast<int>(to)) & 1;
}

namespace {
constexpr std::array<std::string_view, 5> kCastingNames = {"no", "equiv", "safe", "same_kind", "unsafe"};
}
std::string_view casting_name(Casting c) { return kCastingNames[static_cast<int>(c)]; }
std::optional<Casting> casting_from_name(std::string_view name) {
  for (size_t i = 0; i < kCastingNames.size(); ++i)
    if (kCastingNames[i] == name) return static_cast<Casting>(i);
  return std::nullopt;
}

}  // namespace cuarray
