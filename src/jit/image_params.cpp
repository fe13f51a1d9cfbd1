#include "jit/image_params.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

namespace cuarray::jit {
namespace {

constexpr std::string_view kElfMagic = "\x7f" "ELF";

// The bytes of a PTX scalar type (".u32" -> 4); 0 for anything else.
uint32_t ptx_type_bytes(std::string_view t) {
  if (t.size() < 3 || t[0] != '.') return 0;
  if (t == ".pred") return 0;
  uint32_t bits = 0;
  const auto [end, error] = std::from_chars(t.data() + 2, t.data() + t.size(), bits);
  if (error != std::errc() || end != t.data() + t.size()) return 0;
  const char kind = t[1];
  if (kind != 'u' && kind != 's' && kind != 'b' && kind != 'f') return 0;
  if (t.substr(1, 2) == "bf") return 0;  // .bf16: not a parameter type nvcc emits
  return bits % 8 == 0 ? bits / 8 : 0;
}

// One ".param [.ptr .space] [.align N] .type name[[count]]" declaration; nullopt if unreadable.
struct PtxParam {
  uint32_t size, align;
};
std::optional<PtxParam> parse_param(std::string_view decl) {
  std::vector<std::string_view> words;
  for (size_t at = 0; at < decl.size();) {
    while (at < decl.size() && std::isspace(static_cast<unsigned char>(decl[at]))) ++at;
    size_t end = at;
    while (end < decl.size() && !std::isspace(static_cast<unsigned char>(decl[end]))) ++end;
    if (end > at) words.push_back(decl.substr(at, end - at));
    at = end;
  }
  if (words.size() < 3 || words[0] != ".param") return std::nullopt;
  uint32_t align = 0, element = 0;
  bool pointer = false;  // after .ptr, .align is the pointee's alignment, not the parameter's
  size_t i = 1;
  for (; i + 1 < words.size(); ++i) {
    if (words[i] == ".align" && i + 2 < words.size()) {
      const std::string_view n = words[++i];
      uint32_t value = 0;
      if (std::from_chars(n.data(), n.data() + n.size(), value).ec != std::errc() || value == 0) return std::nullopt;
      if (!pointer) align = value;
    } else if (words[i] == ".ptr") {
      pointer = true;
    } else if (words[i] == ".global" || words[i] == ".const" || words[i] == ".shared" || words[i] == ".local") {
      continue;  // the pointee's state space: the parameter is still its .u64
    } else if (uint32_t bytes = ptx_type_bytes(words[i])) {
      element = bytes;
    } else {
      return std::nullopt;
    }
  }
  if (element == 0 || i != words.size() - 1) return std::nullopt;
  const std::string_view name = words.back();
  uint32_t count = 1;
  if (const size_t open = name.find('['); open != std::string_view::npos) {
    const size_t close = name.find(']', open);
    if (close == std::string_view::npos ||
        std::from_chars(name.data() + open + 1, name.data() + close, count).ec != std::errc())
      return std::nullopt;
  }
  return PtxParam{element * count, std::max(align, element)};
}

}  // namespace

std::unordered_map<std::string, CubinParams> ptx_params(std::string_view ptx) {
  std::unordered_map<std::string, CubinParams> kernels;
  constexpr std::string_view kEntry = ".entry ";
  for (size_t at = ptx.find(kEntry); at != std::string_view::npos; at = ptx.find(kEntry, at + 1)) {
    const size_t name_at = at + kEntry.size();
    const size_t open = ptx.find('(', name_at), brace = ptx.find('{', name_at);
    size_t name_end = name_at;
    while (name_end < ptx.size() && !std::isspace(static_cast<unsigned char>(ptx[name_end])) && ptx[name_end] != '(')
      ++name_end;
    const std::string name(ptx.substr(name_at, name_end - name_at));
    CubinParams layout;
    layout.count = 0;
    if (open != std::string_view::npos && open < brace) {  // a parameter list
      const size_t close = ptx.find(')', open);
      if (close == std::string_view::npos) continue;
      const std::string_view list = ptx.substr(open + 1, close - open - 1);
      uint32_t offset = 0;
      bool readable = true;
      for (size_t from = 0; readable && from < list.size();) {
        size_t comma = list.find(',', from);
        if (comma == std::string_view::npos) comma = list.size();
        const std::string_view decl = list.substr(from, comma - from);
        from = comma + 1;
        if (decl.find_first_not_of(" \t\r\n") == std::string_view::npos) continue;
        const std::optional<PtxParam> p = parse_param(decl);
        if (!p) {
          readable = false;
          break;
        }
        offset = (offset + p->align - 1) / p->align * p->align;
        layout.params.push_back({offset, p->size});
        offset += p->size;
      }
      if (!readable) layout = {};  // count -1: the kernel exists, its layout is unknown
      else layout.count = static_cast<int>(layout.params.size());
    }
    kernels.emplace(name, std::move(layout));
  }
  return kernels;
}

std::unordered_map<std::string, CubinParams> image_params(std::string_view image) {
  if (image.substr(0, kElfMagic.size()) == kElfMagic) return cubin_params(image);
  std::unordered_map<std::string, CubinParams> kernels;
  bool any_elf = false;
  for (size_t at = image.find(kElfMagic); at != std::string_view::npos; at = image.find(kElfMagic, at + 1)) {
    any_elf = true;
    for (auto& [name, layout] : cubin_params(image.substr(at))) kernels.emplace(name, std::move(layout));
  }
  if (any_elf) return kernels;
  // PTX is text whose directives start with .version.
  if (image.find(".version") != std::string_view::npos && image.find(".entry") != std::string_view::npos)
    return ptx_params(image);
  return kernels;
}

std::optional<std::unordered_set<std::string>> image_variables(std::string_view image) {
  if (image.substr(0, kElfMagic.size()) == kElfMagic) return cubin_variables(image);
  std::optional<std::unordered_set<std::string>> variables;
  for (size_t at = image.find(kElfMagic); at != std::string_view::npos; at = image.find(kElfMagic, at + 1)) {
    if (!variables) variables.emplace();
    variables->merge(cubin_variables(image.substr(at)));
  }
  return variables;
}

}  // namespace cuarray::jit
