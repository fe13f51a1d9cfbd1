#include "jit/kernel_cache.hpp"

#include <mutex>
#include <unordered_map>

#include "cuarray/runtime.hpp"
#include "jit/disk_cache.hpp"
#include "jit/nvrtc.hpp"

namespace cuarray::jit {
namespace {

struct Cached {
  runtime::Kernel kernel;
  std::shared_ptr<Module> module;  // the engine's modules stay loaded for the process
};
using KernelMap = std::unordered_map<KernelKey, Cached, KernelKey::Hash>;

std::mutex g_mutex;

// One map per device, never destroyed: kernels may launch during static teardown, and unloading
// modules then would call a driver that is shutting down.
KernelMap& map_for(int device) {
  static std::vector<KernelMap>* maps = new std::vector<KernelMap>();
  if (static_cast<int>(maps->size()) <= device) maps->resize(static_cast<size_t>(device) + 1);
  return (*maps)[device];
}

}  // namespace

// A per-thread, direct-mapped memo in front of the shared map: a repeated call finds its kernel
// without taking the lock.
struct KernelMemoEntry {
  KernelKey key;
  int device = -1;
  runtime::Kernel kernel;
};

namespace {
constexpr size_t kMemoSlots = 256;
thread_local KernelMemoEntry t_memo[kMemoSlots];
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

std::shared_ptr<Module> load_module(const KernelSource& source, const std::vector<std::string>& extra_options) {
  const int device = current_device();
  return Module::load(cubin_for(source, device_arch(device), extra_options), device);
}

runtime::Kernel find_kernel(const KernelKey& key) {
  const int device = current_device();
  KernelMemoEntry& slot = t_memo[key.hash() % kMemoSlots];
  if (slot.kernel.function && slot.device == device && slot.key == key) return slot.kernel;
  runtime::Kernel k;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    KernelMap& m = map_for(device);
    auto it = m.find(key);
    if (it != m.end()) k = it->second.kernel;
  }
  if (k.function) slot = {key, device, k};
  return k;
}

runtime::Kernel add_kernel(const KernelKey& key, const KernelSource& source) {
  std::shared_ptr<Module> module = load_module(source, source.options);  // compiled outside the lock: other kernels keep launching
  const runtime::Kernel k = module->kernel(source.name);
  std::lock_guard<std::mutex> lock(g_mutex);
  return map_for(current_device()).emplace(key, Cached{k, std::move(module)}).first->second.kernel;
}

}  // namespace cuarray::jit
