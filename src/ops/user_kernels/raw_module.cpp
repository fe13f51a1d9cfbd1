// RawModule and RawKernel (include/cuarray/raw_kernel.hpp): a user's program compiled through
// jit::compile_user_program (disk cache, NVRTC or nvcc) or read from a file, loaded as a
// jit::Module once per device, and its kernels launched through runtime::launch.
#include "cuarray/raw_kernel.hpp"

#include <cuda.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "cuarray/errors.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/module.hpp"
#include "jit/user_program.hpp"
#include "ops/user_kernels/raw_arguments.hpp"
#include "ops/user_kernels/user_source.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/launch.hpp"

namespace cuarray {
namespace {

// The program compiled (or read from the disk cache); NVRTC's log comes with the numbered source,
// as every user kernel reports it.
jit::CompiledProgram compile_reporting_errors(const jit::UserProgram& program, const std::string& arch) {
  jit::CompiledProgram compiled;
  user_kernels::reporting_compile_errors("RawModule", program.name,
                                         [&] { compiled = jit::compile_user_program(program, arch); });
  return compiled;
}

// A module variable's memory, viewed by an array; holds the module loaded while the array lives.
class ModuleGlobalBuffer final : public Buffer {
 public:
  ModuleGlobalBuffer(std::shared_ptr<jit::Module> module, CUdeviceptr address, size_t bytes)
      : Buffer(reinterpret_cast<void*>(address), bytes, module->device()), module_(std::move(module)) {}

 private:
  std::shared_ptr<jit::Module> module_;
};

// The modules of user programs loaded anywhere in the process, by program and device. CuPy code
// often builds the same RawKernel again and again (inside a function called in a loop): it then
// finds the loaded module here, with no disk read and no second load. Entries hold weak
// references, so a module still unloads when its last RawModule, RawKernel or global goes.
struct LoadedProgram {
  std::weak_ptr<jit::Module> module;
  std::vector<std::string> lowered_names;
};
std::mutex g_programs_mutex;
std::unordered_map<std::string, LoadedProgram>& loaded_programs() {
  static auto* programs = new std::unordered_map<std::string, LoadedProgram>();  // outlives static teardown
  return *programs;
}

void forget_unloaded_programs(std::unordered_map<std::string, LoadedProgram>& programs) {
  for (auto it = programs.begin(); it != programs.end();) it = it->second.module.expired() ? programs.erase(it) : ++it;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

struct RawModule::Impl {
  bool from_source = true;
  jit::UserProgram program;  // from source
  std::string image;         // from a compiled file: CUBIN, PTX (NUL-terminated by std::string) or fatbin
  bool cooperative = false;

  struct Loaded {
    std::shared_ptr<jit::Module> module;
    std::vector<std::string> lowered_names;
  };
  std::mutex mutex;
  std::unordered_map<int, Loaded> loaded;  // by device

  Loaded on_current_device() {
    const int device = current_device();
    std::lock_guard<std::mutex> lock(mutex);
    if (auto found = loaded.find(device); found != loaded.end()) return found->second;
    Loaded fresh = from_source ? from_program(device) : Loaded{jit::Module::load(image, device), {}};
    return loaded.emplace(device, std::move(fresh)).first->second;
  }

  // The program's module on `device`: one already loaded for the same program, else compiled (or
  // read from the disk cache) and loaded.
  Loaded from_program(int device) const {
    const std::string arch = jit::device_arch(device);
    const std::string key = jit::user_program_key(program, arch) + '\0' + std::to_string(device);
    {
      std::lock_guard<std::mutex> lock(g_programs_mutex);
      auto found = loaded_programs().find(key);
      if (found != loaded_programs().end())
        if (std::shared_ptr<jit::Module> module = found->second.module.lock())
          return {std::move(module), found->second.lowered_names};
    }
    jit::CompiledProgram compiled = compile_reporting_errors(program, arch);
    Loaded fresh{jit::Module::load(compiled.cubin, device), std::move(compiled.lowered_names)};
    std::lock_guard<std::mutex> lock(g_programs_mutex);
    auto& programs = loaded_programs();
    if (programs.size() >= 64 && (programs.size() & (programs.size() - 1)) == 0) forget_unloaded_programs(programs);
    programs[key] = {fresh.module, fresh.lowered_names};
    return fresh;
  }
};

KernelArgument KernelArgument::pointer(const void* address) {
  const uintptr_t v = reinterpret_cast<uintptr_t>(address);
  KernelArgument a;
  a.kind = Kind::Pointer;
  a.bytes.resize(sizeof v);
  std::memcpy(a.bytes.data(), &v, sizeof v);
  return a;
}

KernelArgument KernelArgument::python_int(int64_t value) {
  KernelArgument a = KernelArgument::value(&value, sizeof value);
  a.kind = Kind::PythonInt;
  return a;
}

KernelArgument KernelArgument::value(const void* data, size_t size) {
  KernelArgument a;
  a.bytes.resize(size);
  if (size) std::memcpy(a.bytes.data(), data, size);
  return a;
}

// ---- RawModule ---------------------------------------------------------------------------------

RawModule RawModule::from_source(std::string code, RawModuleOptions options) {
  if (options.backend == CompilerBackend::Nvcc && !options.name_expressions.empty())
    throw_error(ErrorKind::Value, "only nvrtc supports retrieving the mangled names for the given name expressions");
  auto impl = std::make_shared<Impl>();
  impl->program.source = std::move(code);
  impl->program.name = "raw_module";
  impl->program.options = std::move(options.options);
  impl->program.name_expressions = std::move(options.name_expressions);
  impl->program.nvcc = options.backend == CompilerBackend::Nvcc;
  impl->cooperative = options.enable_cooperative_groups;
  return RawModule(std::move(impl));
}

RawModule RawModule::from_file(const std::string& path, RawModuleOptions options) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  if (!in || !(contents << in.rdbuf())) throw_error(ErrorKind::Value, "cannot read the module file " + path);
  if (ends_with(path, ".cu")) return from_source(contents.str(), std::move(options));
  auto impl = std::make_shared<Impl>();
  impl->from_source = false;
  impl->image = contents.str();
  impl->cooperative = options.enable_cooperative_groups;
  return RawModule(std::move(impl));
}

void RawModule::compile() const { impl_->on_current_device(); }

std::vector<std::string> RawModule::lowered_names() const { return impl_->on_current_device().lowered_names; }

std::vector<std::string> RawModule::compile_for(const std::string& arch) const {
  if (!impl_->from_source)
    throw_error(ErrorKind::Value, "a module loaded from a compiled file has no source to compile");
  return compile_reporting_errors(impl_->program, arch).lowered_names;
}

RawKernel RawModule::get_function(const std::string& name) const {
  Impl::Loaded loaded = impl_->on_current_device();
  const auto& expressions = impl_->program.name_expressions;
  std::string symbol = name;
  for (size_t i = 0; i < expressions.size(); ++i)
    if (expressions[i] == name) symbol = loaded.lowered_names[i];
  if (!loaded.module->may_have_kernel(symbol))  // refused without a failing driver call
    throw_error(ErrorKind::CudaDriver, "cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND: the module has no kernel " +
                                           name + (symbol == name ? "" : " (" + symbol + ")"),
                CUDA_ERROR_NOT_FOUND);
  return RawKernel(std::move(loaded.module), symbol, impl_->cooperative);
}

NDArray RawModule::get_global(const std::string& name) const {
  std::shared_ptr<jit::Module> module = impl_->on_current_device().module;
  const auto [address, bytes] = module->global(name);
  auto buffer = std::make_shared<ModuleGlobalBuffer>(std::move(module), address, bytes);
  return NDArray(std::move(buffer), reinterpret_cast<char*>(address), Shape{static_cast<int64_t>(bytes)}, Strides{1},
                 DType::UInt8);
}

// ---- RawKernel ---------------------------------------------------------------------------------

RawKernel::RawKernel(std::shared_ptr<jit::Module> module, std::string name, bool cooperative)
    : module_(std::move(module)), name_(std::move(name)), cooperative_(cooperative) {
  const runtime::Kernel k = module_->kernel(name_);
  function_ = k.function;
  info_ = k.info;
}

int RawKernel::device() const { return module_->device(); }

int RawKernel::param_count() const { return info_ ? info_->param_count : -1; }

void RawKernel::launch(GridDims grid, GridDims block, std::span<const KernelArgument> args,
                       unsigned shared_mem) const {
  if (current_device() != device())
    throw_error(ErrorKind::Value, "kernel " + name_ + " is loaded on device " + std::to_string(device()) +
                                      " but the current device is " + std::to_string(current_device()));
  const ops::RawArguments packed(info_, name_, args);
  runtime::LaunchConfig config{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared_mem, cooperative_};
  runtime::launch(runtime::Kernel{static_cast<CUfunction>(function_), info_}, config, packed.params());
}

KernelAttributes RawKernel::attributes() const {
  runtime::ScopedActivation on_device(device());
  auto get = [&](CUfunction_attribute attribute) {
    int v = 0;
    CU_CALL(cuFuncGetAttribute, &v, attribute, static_cast<CUfunction>(function_));
    return v;
  };
  return {get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
          get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
          get(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES),
          get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
          get(CU_FUNC_ATTRIBUTE_NUM_REGS),
          get(CU_FUNC_ATTRIBUTE_PTX_VERSION),
          get(CU_FUNC_ATTRIBUTE_BINARY_VERSION),
          get(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA),
          get(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
          get(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)};
}

void RawKernel::set_max_dynamic_shared_size_bytes(int bytes) const {
  runtime::ScopedActivation on_device(device());
  CU_CALL(cuFuncSetAttribute, static_cast<CUfunction>(function_), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
          bytes);
}

void RawKernel::set_preferred_shared_memory_carveout(int percent) const {
  runtime::ScopedActivation on_device(device());
  CU_CALL(cuFuncSetAttribute, static_cast<CUfunction>(function_), CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
          percent);
}

}  // namespace cuarray
