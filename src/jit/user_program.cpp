#include "jit/user_program.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "jit/disk_cache.hpp"
#include "jit/nvcc.hpp"

namespace cuarray::jit {
namespace {

// The cache file's payload: the lowered names (a count, then each as a length and its bytes),
// then the CUBIN.
void append_u32(std::string& out, uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }

std::string serialize(const CompiledProgram& p) {
  std::string out;
  append_u32(out, static_cast<uint32_t>(p.lowered_names.size()));
  for (const auto& name : p.lowered_names) {
    append_u32(out, static_cast<uint32_t>(name.size()));
    out += name;
  }
  return out + p.cubin;
}

// Null when the payload is not one serialize() wrote: the caller compiles again.
bool deserialize(const std::string& payload, size_t expected_names, CompiledProgram& out) {
  size_t at = 0;
  auto read_u32 = [&](uint32_t& v) {
    if (payload.size() - at < 4) return false;
    std::memcpy(&v, payload.data() + at, 4);
    at += 4;
    return true;
  };
  uint32_t count = 0;
  if (!read_u32(count) || count != expected_names) return false;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t n = 0;
    if (!read_u32(n) || payload.size() - at < n) return false;
    out.lowered_names.emplace_back(payload, at, n);
    at += n;
  }
  out.cubin = payload.substr(at);
  return true;
}

}  // namespace

const std::string& toolkit_include_dir() {
  static const std::string dir = [] {
    namespace fs = std::filesystem;
    std::vector<fs::path> roots;
    for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
      if (const char* root = std::getenv(variable); root && *root) roots.emplace_back(root);
    roots.emplace_back("/usr/local/cuda");
    for (const auto& root : roots) {
      std::error_code ignored;
      if (fs::exists(root / "include" / "cuda_runtime.h", ignored)) return (root / "include").string();
    }
    return std::string();
  }();
  return dir;
}

std::vector<std::string> user_program_options(const UserProgram& program, const std::string& arch) {
  std::vector<std::string> options = program.options;
  if (program.nvcc) return options;
  options.push_back("--gpu-architecture=" + arch);
  if (const std::string& include = toolkit_include_dir(); !include.empty()) {
    options.push_back("-I" + include);
    // CUDA 13 keeps libcu++ (<cuda/std/...>, which <cooperative_groups.h> includes) under cccl/.
    std::error_code ignored;
    if (std::filesystem::exists(include + "/cccl", ignored)) options.push_back("-I" + include + "/cccl");
  }
  return options;
}

std::string user_program_key(const UserProgram& program, const std::string& arch) {
  std::string key_text = program.nvcc ? "user program, nvcc " + find_nvcc() : "user program, nvrtc";
  key_text += '\0' + program.source + '\0';
  for (const auto& o : user_program_options(program, arch)) key_text += o + '\0';
  key_text += "name expressions";
  for (const auto& e : program.name_expressions) key_text += '\0' + e;
  return key_text + '\0' + arch + '\0' + std::to_string(program.nvcc ? 0 : nvrtc_version());
}

CompiledProgram compile_user_program(const UserProgram& program, const std::string& arch) {
  const std::vector<std::string> options = user_program_options(program, arch);
  const std::string key_text = user_program_key(program, arch);
  auto compile = [&] {
    if (program.nvcc) return serialize({compile_with_nvcc(program.source, program.name, arch, options), {}});
    return serialize(compile_program(program.source, program.name, options, program.name_expressions));
  };
  CompiledProgram out;
  if (deserialize(cached_cubin(key_text, compile), program.name_expressions.size(), out)) return out;
  out = {};
  deserialize(compile(), program.name_expressions.size(), out);  // what we just wrote always reads back
  return out;
}

}  // namespace cuarray::jit
