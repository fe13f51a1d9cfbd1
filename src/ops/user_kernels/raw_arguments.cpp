#include "ops/user_kernels/raw_arguments.hpp"

#include <cstring>
#include <string>

#include "cuarray/errors.hpp"

namespace cuarray::ops {
namespace {

const char* description(KernelArgument::Kind kind) {
  switch (kind) {
    case KernelArgument::Kind::Pointer: return "a device pointer";
    case KernelArgument::Kind::PythonInt: return "a Python int, passed as int64";
    case KernelArgument::Kind::Value: break;
  }
  return "a value";
}

// Whether the int64 `v` survives being read as the low `bytes` bytes of itself, signed or unsigned.
bool fits(int64_t v, uint32_t bytes) {
  const int bits = static_cast<int>(bytes) * 8;
  const int64_t lowest = -(int64_t{1} << (bits - 1));
  const int64_t highest_unsigned = (int64_t{1} << bits) - 1;
  return v >= lowest && v <= highest_unsigned;
}

}  // namespace

RawArguments::RawArguments(const runtime::KernelInfo* layout, std::string_view kernel,
                           std::span<const KernelArgument> args) {
  const bool known = layout && layout->param_count >= 0;
  const std::string name(kernel);
  if (known && static_cast<int>(args.size()) != layout->param_count)
    throw_error(ErrorKind::Type, "kernel " + name + " takes " + std::to_string(layout->param_count) +
                                     " arguments (" + std::to_string(args.size()) + " given)");
  SmallVector<size_t, 16> offsets;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& a = args[i];
    const size_t given = a.bytes.size();
    const uint32_t size = known ? layout->param_size[i] : static_cast<uint32_t>(given);
    const bool narrowed = a.kind == KernelArgument::Kind::PythonInt && size < given;
    if (narrowed && (size == 0 || size > 8)) {
      // not an integer parameter: fall through to the size error below
    } else if (narrowed) {
      int64_t v;
      std::memcpy(&v, a.bytes.data(), 8);
      if (!fits(v, size))
        throw_error(ErrorKind::Overflow, "argument " + std::to_string(i) + " of kernel " + name + ": Python int " +
                                             std::to_string(v) + " does not fit its " + std::to_string(size) +
                                             "-byte parameter");
    }
    if (given != size && !(narrowed && size > 0 && size <= 8))
      throw_error(ErrorKind::Type, "argument " + std::to_string(i) + " of kernel " + name + " is " +
                                       std::to_string(given) + " bytes (" + description(a.kind) +
                                       ") but the kernel's parameter " + std::to_string(i) + " is " +
                                       std::to_string(size) + " bytes; pass a NumPy scalar of the parameter's type");
    const size_t at = (bytes_.size() + 15) / 16 * 16;
    bytes_.resize(at + size);
    std::memcpy(bytes_.data() + at, a.bytes.data(), size);  // little-endian: the low bytes
    offsets.push_back(at);
    sizes_.push_back(size);
  }
  for (size_t at : offsets) values_.push_back(bytes_.data() + at);  // bytes_ no longer moves
}

}  // namespace cuarray::ops
