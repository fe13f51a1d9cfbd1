#include "jit/kernel_cache.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "cuarray/runtime.hpp"
#include "jit/disk_cache.hpp"
#include "jit/nvrtc.hpp"

namespace cuarray::jit {
namespace {

using KernelMap = std::unordered_map<KernelKey, CUfunction, KernelKey::Hash>;

std::mutex g_mutex;
std::vector<KernelMap> g_maps;  // one per device

KernelMap& map_for(int device) {
  if (static_cast<int>(g_maps.size()) <= device) g_maps.resize(static_cast<size_t>(device) + 1);
  return g_maps[device];
}

}  // namespace

std::string device_arch(int device) {
  const DeviceProperties& p = device_properties(device);
  return "sm_" + std::to_string(p.major) + std::to_string(p.minor);
}

std::string cubin_for(const KernelSource& source, const std::string& arch,
                      const std::vector<std::string>& extra_options) {
  std::string key_text = source.code;
  key_text += '\0';
  for (const auto& o : default_options()) key_text += o + '\0';
  for (const auto& o : extra_options) key_text += o + '\0';
  key_text += arch + '\0' + std::to_string(nvrtc_version());
  return cached_cubin(key_text, [&] { return compile_to_cubin(source.code, source.name, arch, extra_options); });
}

CUfunction load_kernel(const KernelSource& source, const std::vector<std::string>& extra_options) {
  int device = current_device();
  runtime::activate(device);
  std::string cubin = cubin_for(source, device_arch(device), extra_options);
  CUmodule module;
  CU_CALL(cuModuleLoadData, &module, cubin.data());
  CUfunction f;
  CU_CALL(cuModuleGetFunction, &f, module, source.name.c_str());
  return f;  // the module lives as long as the process: functions are cached by key
}

namespace {
// A per-thread, direct-mapped memo in front of the shared map: a repeated call finds its kernel
// without taking the lock.
struct MemoEntry {
  KernelKey key;
  int device = -1;
  CUfunction function = nullptr;
};
constexpr size_t kMemoSlots = 256;
thread_local MemoEntry t_memo[kMemoSlots];
}  // namespace

CUfunction find_kernel(const KernelKey& key) {
  const int device = current_device();
  MemoEntry& slot = t_memo[key.hash() % kMemoSlots];
  if (slot.function && slot.device == device && slot.key == key) return slot.function;
  CUfunction f = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    KernelMap& m = map_for(device);
    auto it = m.find(key);
    if (it != m.end()) f = it->second;
  }
  if (f) slot = {key, device, f};
  return f;
}

CUfunction add_kernel(const KernelKey& key, const KernelSource& source) {
  CUfunction f = load_kernel(source);  // compiled outside the lock: other kernels keep launching
  std::lock_guard<std::mutex> lock(g_mutex);
  return map_for(current_device()).emplace(key, f).first->second;
}

}  // namespace cuarray::jit
