// CuPy's parameter lists ("float32 x, raw T y") and its rule binding placeholders to dtypes.
#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>

#include "cuarray/errors.hpp"
#include "cuarray/user_kernels.hpp"

namespace cuarray {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}


// What numpy.dtype(name) accepts for the dtypes cuarray has: canonical names, Python's type
// names, C names and the kind-and-size codes ("f4", "i8", "c16", "b1").
std::optional<DType> dtype_from_kernel_type(const std::string& t) {
  if (auto d = dtype_from_name(t)) return d;
  static const std::unordered_map<std::string, DType> kAliases = {
      {"bool_", DType::Bool},      {"float", DType::Float64},     {"int", DType::Int64},
      {"complex", DType::Complex128}, {"double", DType::Float64}, {"single", DType::Float32},
      {"half", DType::Float16},    {"byte", DType::Int8},         {"ubyte", DType::UInt8},
      {"short", DType::Int16},     {"ushort", DType::UInt16},     {"intc", DType::Int32},
      {"uintc", DType::UInt32},    {"longlong", DType::Int64},    {"ulonglong", DType::UInt64},
      {"uint", DType::UInt64},     {"intp", DType::Int64},        {"uintp", DType::UInt64},
      {"csingle", DType::Complex64}, {"cdouble", DType::Complex128},
      {"b1", DType::Bool},         {"i1", DType::Int8},           {"u1", DType::UInt8},
      {"i2", DType::Int16},        {"u2", DType::UInt16},         {"i4", DType::Int32},
      {"u4", DType::UInt32},       {"i8", DType::Int64},          {"u8", DType::UInt64},
      {"f2", DType::Float16},      {"f4", DType::Float32},        {"f8", DType::Float64},
      {"c8", DType::Complex64},    {"c16", DType::Complex128}};
  if (auto it = kAliases.find(t); it != kAliases.end()) return it->second;
  return std::nullopt;
}

KernelParam parse_param(std::string_view text, bool is_const) {
  const std::vector<std::string> words = split_words(text);
  if (words.size() < 2) throw_error(ErrorKind::Value, "Syntax error: " + std::string(trim(text)));
  KernelParam p;
  p.is_const = is_const;
  const std::string& type = words[words.size() - 2];
  p.name = words.back();
  if (type.size() == 1) {
    p.placeholder = type[0];
  } else if (auto d = dtype_from_kernel_type(type)) {
    p.dtype = *d;
  } else {
    throw_error(ErrorKind::Type, "data type '" + type + "' not understood (parameter " + p.name + ")");
  }
  for (size_t k = 0; k + 2 < words.size(); ++k) {
    if (words[k] == "raw") p.raw = true;
    else if (words[k] == "_non_const") p.is_const = false;
    else throw_error(ErrorKind::Value, "Unknown keyword \"" + words[k] + "\"");
  }
  if (p.name == "i") throw_error(ErrorKind::Value, "Can not use 'i' as a parameter name");
  return p;
}

std::string placeholder_of(const KernelParam& p) { return std::string(1, p.placeholder); }

}  // namespace

std::vector<KernelParam> parse_kernel_params(std::string_view params, bool is_const) {
  std::vector<KernelParam> out;
  params = trim(params);
  if (params.empty()) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = params.find(',', start);
    out.push_back(parse_param(params.substr(start, comma == std::string_view::npos ? comma : comma - start), is_const));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

KernelParamTypes decide_param_types(std::span<const KernelParam> in_params, std::span<const KernelParam> out_params,
                                    std::span<const std::optional<DType>> in_dtypes,
                                    std::span<const DType> out_dtypes) {
  // Callers with their own argument checks never get here with other counts; the host-side
  // source builders (ElementwiseKernel._source) do, and must not read past the lists.
  if (in_dtypes.size() != in_params.size())
    throw_error(ErrorKind::Type, "the kernel has " + std::to_string(in_params.size()) + " input parameters, given " +
                                     std::to_string(in_dtypes.size()) + " input dtypes");
  if (!out_dtypes.empty() && out_dtypes.size() != out_params.size())
    throw_error(ErrorKind::Type, "the kernel has " + std::to_string(out_params.size()) +
                                     " output parameters, given " + std::to_string(out_dtypes.size()) +
                                     " output dtypes (none, or one per output)");
  std::vector<std::pair<char, DType>> bound;
  auto find = [&](char c) -> const DType* {
    for (const auto& [letter, t] : bound)
      if (letter == c) return &t;
    return nullptr;
  };
  auto bind = [&](const KernelParam& p, DType a) {
    if (p.dtype) {
      if (*p.dtype != a)
        throw_error(ErrorKind::Type, "Type is mismatched. " + p.name + " " + std::string(dtype_name(a)) + " " +
                                         std::string(dtype_name(*p.dtype)));
    } else if (const DType* t = find(p.placeholder)) {
      if (*t != a)
        throw_error(ErrorKind::Type, "Type is mismatched. " + p.name + " " + std::string(dtype_name(a)) + " " +
                                         std::string(dtype_name(*t)) + " " + placeholder_of(p));
    } else {
      bound.emplace_back(p.placeholder, a);
    }
  };
  for (size_t k = 0; k < out_dtypes.size(); ++k) bind(out_params[k], out_dtypes[k]);
  for (size_t k = 0; k < in_params.size(); ++k)
    if (in_dtypes[k]) bind(in_params[k], *in_dtypes[k]);

  auto type_of = [&](const KernelParam& p) {
    if (p.dtype) return *p.dtype;
    if (const DType* t = find(p.placeholder)) return *t;
    throw_error(ErrorKind::Type, "Cannot decide the type " + placeholder_of(p) + " of " + p.name +
                                     ": no array argument binds it (scalars take their parameter's type)");
  };
  KernelParamTypes types;
  for (const KernelParam& p : in_params) types.in.push_back(type_of(p));
  for (const KernelParam& p : out_params) types.out.push_back(type_of(p));
  std::sort(bound.begin(), bound.end());
  types.placeholders = std::move(bound);
  return types;
}

std::string numbered_source(std::string_view source) {
  std::string out;
  int line = 1;
  size_t start = 0;
  while (start <= source.size()) {
    const size_t end = source.find('\n', start);
    const std::string_view text = source.substr(start, end == std::string_view::npos ? end : end - start);
    std::string number = std::to_string(line++);
    out += std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') + number + " | ";
    out += text;
    out += '\n';
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace cuarray
