// cuarray dtypes as DLPack data types: one rule, inverted by search, so the two never disagree.
#include "cuarray/interop.hpp"

namespace cuarray {

DLDataType to_dlpack_dtype(DType t) {
  uint8_t code = 0;
  switch (kind(t)) {
    case DTypeKind::Bool: code = kDLBool; break;  // one byte per element, as NumPy stores it
    case DTypeKind::SignedInt: code = kDLInt; break;
    case DTypeKind::UnsignedInt: code = kDLUInt; break;
    case DTypeKind::Float: code = kDLFloat; break;
    case DTypeKind::Complex: code = kDLComplex; break;  // bits count both parts: complex64 is 64
  }
  return {code, static_cast<uint8_t>(itemsize(t) * 8), 1};
}

std::optional<DType> dtype_from_dlpack(DLDataType d) {
  if (d.lanes != 1) return std::nullopt;
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    const DLDataType ours = to_dlpack_dtype(t);
    if (ours.code == d.code && ours.bits == d.bits) return t;
  }
  return std::nullopt;
}

}  // namespace cuarray
