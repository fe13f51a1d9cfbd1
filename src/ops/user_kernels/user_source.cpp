#include "ops/user_kernels/user_source.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "jit/hash.hpp"
#include "jit/kernel_source.hpp"
#include "kernels/fragments.hpp"

namespace cuarray::user_kernels {

NamedTypes NamedTypes::in(std::initializer_list<std::string_view> texts) {
  NamedTypes n;
  for (std::string_view t : texts) {
    n.float16 = n.float16 || t.find("float16") != std::string_view::npos;
    n.complex = n.complex || t.find("complex") != std::string_view::npos;
  }
  return n;
}

std::vector<DType> fragment_dtypes(const KernelParamTypes& types, NamedTypes named) {
  std::vector<DType> dtypes(types.in);
  dtypes.insert(dtypes.end(), types.out.begin(), types.out.end());
  if (named.float16) dtypes.push_back(DType::Float16);
  if (named.complex) dtypes.push_back(DType::Complex64);
  return dtypes;
}

std::string preamble(const KernelParamTypes& types, std::span<const DType> fragment_dtypes, std::string_view extra,
                     std::string_view user_preamble) {
  std::string s(kernels::user_kernel_cuh);
  bool half = false, complex = false;
  for (DType t : fragment_dtypes) {
    half = half || t == DType::Float16;
    complex = complex || is_complex(t);
  }
  if (half) s += "using cuarray::float16;\n";
  if (complex) s += "using cuarray::complex;\n";
  for (const auto& [letter, t] : types.placeholders)
    s += "typedef " + std::string(jit::kernel_type_name(t)) + " " + std::string(1, letter) + ";\n";
  s += extra;
  s += user_preamble;
  return s + "\n";
}

uint64_t text_hash(std::initializer_list<std::string_view> texts, std::span<const KernelParam> in,
                   std::span<const KernelParam> out, std::span<const std::string> options) {
  uint64_t h = jit::fnv1a64("user kernel");
  for (std::string_view t : texts) h = jit::fnv1a64(t, jit::fnv1a64("\0", 1, h));
  for (std::span<const KernelParam> params : {in, out}) {
    h = jit::fnv1a64("|", 1, h);
    for (const KernelParam& p : params) {
      h = jit::fnv1a64(p.name, h);
      const uint8_t bits[4] = {static_cast<uint8_t>(p.dtype ? static_cast<int>(*p.dtype) : 0xff),
                               static_cast<uint8_t>(p.placeholder), p.raw, p.is_const};
      h = jit::fnv1a64(bits, sizeof bits, h);
    }
  }
  for (const std::string& o : options) h = jit::fnv1a64(o, jit::fnv1a64("\0", 1, h));
  return h;
}

uint64_t op_id(uint64_t text_hash, const KernelParamTypes& types, uint32_t variant) {
  const uint8_t variant_bytes[4] = {static_cast<uint8_t>(variant), static_cast<uint8_t>(variant >> 8),
                                    static_cast<uint8_t>(variant >> 16), static_cast<uint8_t>(variant >> 24)};
  uint64_t h = jit::fnv1a64(variant_bytes, sizeof variant_bytes, text_hash);
  for (const auto& [letter, t] : types.placeholders) {
    const uint8_t bits[2] = {static_cast<uint8_t>(letter), static_cast<uint8_t>(t)};
    h = jit::fnv1a64(bits, 2, h);
  }
  return h | (1ull << 63);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::vector<std::string> compile_options(std::span<const std::string> user_options,
                                         std::initializer_list<std::string_view> texts) {
  std::vector<std::string> options(user_options.begin(), user_options.end());
  bool includes = false;
  for (std::string_view t : texts) includes = includes || t.find("#include") != std::string_view::npos;
  if (!includes) return options;
  std::vector<std::filesystem::path> candidates;
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(var); root && *root) candidates.push_back(std::filesystem::path(root) / "include");
  candidates.emplace_back("/usr/local/cuda/include");
  std::error_code ec;
  for (const auto& dir : candidates)
    if (std::filesystem::exists(dir / "cuda_fp16.h", ec)) {
      options.push_back("-I" + dir.string());
      break;
    }
  return options;
}

}  // namespace cuarray::user_kernels
