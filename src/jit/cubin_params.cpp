#include "jit/cubin_params.hpp"

#include <cstring>
#include <algorithm>
#include <string>

namespace cuarray::jit {
namespace {

// ELF64 little-endian, as every CUBIN is: the offsets of the fields read below.
constexpr size_t kElfHeaderBytes = 64, kSectionHeaderBytes = 64;

// Attribute records of .nv.info sections: a format byte, an attribute byte, then two bytes that
// hold the value of the formats without data (NVAL: none, BVAL: a byte, HVAL: a half word) or the
// size of the data that follows (SVAL); every record stays 4-byte aligned.
constexpr uint8_t kFormatNoValue = 0x01, kFormatHalfValue = 0x03, kFormatSizedValue = 0x04;
constexpr uint8_t kAttrParamInfo = 0x17;       // EIATTR_KPARAM_INFO: 12 bytes per parameter
constexpr uint8_t kAttrParamBankSize = 0x19;   // EIATTR_CBANK_PARAM_SIZE: total parameter bytes

template <class T>
bool read(std::string_view bytes, size_t at, T& out) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
  std::memcpy(&out, bytes.data() + at, sizeof(T));
  return true;
}

// Calls visit(name, bytes) for every section.
template <class Visit>
void for_each_section(std::string_view elf, Visit&& visit) {
  if (elf.size() < kElfHeaderBytes || elf.substr(0, 4) != "\x7f" "ELF" || elf[4] != 2 /* 64-bit */) return;
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read(elf, 0x28, shoff) || !read(elf, 0x3a, shentsize) || !read(elf, 0x3c, shnum) ||
      !read(elf, 0x3e, shstrndx) || shentsize < kSectionHeaderBytes || shstrndx >= shnum)
    return;
  auto header = [&](uint16_t i, uint32_t& name_at, uint64_t& offset, uint64_t& size) {
    const size_t at = shoff + static_cast<size_t>(i) * shentsize;
    return read(elf, at, name_at) && read(elf, at + 24, offset) && read(elf, at + 32, size) && offset <= elf.size() &&
           size <= elf.size() - offset;
  };
  uint32_t unused = 0;
  uint64_t names_at = 0, names_size = 0;
  if (!header(shstrndx, unused, names_at, names_size)) return;
  const std::string_view names = elf.substr(names_at, names_size);
  for (uint16_t i = 0; i < shnum; ++i) {
    uint32_t name_at = 0;
    uint64_t offset = 0, size = 0;
    if (!header(i, name_at, offset, size) || name_at >= names.size()) continue;
    const std::string_view rest = names.substr(name_at);
    visit(rest.substr(0, rest.find('\0')), elf.substr(offset, size));
  }
}

CubinParams parse_kernel_info(std::string_view info) {
  CubinParams unknown;
  std::vector<CubinParam> params;
  std::vector<bool> seen;
  int64_t bank_size = -1;
  for (size_t at = 0; at < info.size();) {
    uint8_t format = 0, attribute = 0;
    uint16_t value = 0;
    if (!read(info, at, format) || !read(info, at + 1, attribute) || !read(info, at + 2, value)) return unknown;
    if (format >= kFormatNoValue && format <= kFormatHalfValue) {
      if (format == kFormatHalfValue && attribute == kAttrParamBankSize) bank_size = value;
      at += 4;
      continue;
    }
    if (format != kFormatSizedValue) return unknown;
    const size_t data = at + 4;
    if (data + value > info.size()) return unknown;
    if (attribute == kAttrParamInfo) {
      // index (4 bytes), ordinal (2), offset (2), then a word whose bits 18..31 are the size.
      uint16_t ordinal = 0, offset = 0;
      uint32_t packed = 0;
      if (value < 12 || !read(info, data + 4, ordinal) || !read(info, data + 6, offset) ||
          !read(info, data + 8, packed))
        return unknown;
      if (ordinal >= params.size()) params.resize(ordinal + 1u), seen.resize(ordinal + 1u);
      if (seen[ordinal]) return unknown;
      seen[ordinal] = true;
      params[ordinal] = {offset, packed >> 18};
    }
    at = data + value;
  }
  // Every ordinal once, and the last parameter ends where the parameter bank does.
  int64_t end = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!seen[i]) return unknown;
    end = std::max<int64_t>(end, params[i].offset + params[i].size);
  }
  if (bank_size >= 0 ? end != bank_size : !params.empty()) return unknown;
  return {static_cast<int>(params.size()), std::move(params)};
}

}  // namespace

std::unordered_map<std::string, CubinParams> cubin_params(std::string_view cubin) {
  constexpr std::string_view kPrefix = ".nv.info.";
  std::unordered_map<std::string, CubinParams> kernels;
  for_each_section(cubin, [&](std::string_view name, std::string_view bytes) {
    if (name.size() > kPrefix.size() && name.substr(0, kPrefix.size()) == kPrefix)
      kernels.emplace(std::string(name.substr(kPrefix.size())), parse_kernel_info(bytes));
  });
  return kernels;
}

std::unordered_set<std::string> cubin_variables(std::string_view cubin) {
  std::string_view symbols, strings;
  for_each_section(cubin, [&](std::string_view name, std::string_view bytes) {
    if (name == ".symtab") symbols = bytes;
    if (name == ".strtab") strings = bytes;
  });
  // Elf64_Sym: name offset (4 bytes), info (1: the type in its low 4 bits), other (1), section
  // index (2), value (8), size (8).
  constexpr size_t kSymbolBytes = 24;
  constexpr uint8_t kTypeObject = 1;
  std::unordered_set<std::string> variables;
  for (size_t at = 0; at + kSymbolBytes <= symbols.size(); at += kSymbolBytes) {
    uint32_t name_at = 0;
    uint8_t info = 0;
    uint16_t section = 0;
    if (!read(symbols, at, name_at) || !read(symbols, at + 4, info) || !read(symbols, at + 6, section)) break;
    if ((info & 0xf) != kTypeObject || section == 0 || name_at >= strings.size()) continue;
    const std::string_view rest = strings.substr(name_at);
    variables.emplace(rest.substr(0, rest.find('\0')));
  }
  return variables;
}

}  // namespace cuarray::jit
