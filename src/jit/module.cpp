#include "jit/module.hpp"

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "jit/image_params.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"

namespace cuarray::jit {
namespace {

// The CUBIN's layout, confirmed parameter by parameter with the driver (only below the count, so
// no query fails); left unknown where the two disagree or the driver cannot say.
void read_layout(runtime::KernelInfo& info, CUfunction f, const CubinParams* from_cubin) {
  const auto& api = runtime::driver();
  if (!api.cuFuncGetParamInfo || !from_cubin || from_cubin->count < 0 ||
      from_cubin->count > runtime::kMaxKernelParams)
    return;
  for (int i = 0; i < from_cubin->count; ++i) {
    size_t offset = 0, size = 0;
    if (api.cuFuncGetParamInfo(f, static_cast<size_t>(i), &offset, &size) != CUDA_SUCCESS ||
        offset != from_cubin->params[i].offset || size != from_cubin->params[i].size)
      return;
    info.param_offset[i] = static_cast<uint32_t>(offset);
    info.param_size[i] = static_cast<uint32_t>(size);
  }
  info.param_count = from_cubin->count;
}

}  // namespace

std::shared_ptr<Module> Module::load(std::string_view cubin, int device) {
  runtime::activate(device);
  CUmodule module;
  CU_CALL(cuModuleLoadData, &module, cubin.data());
  return std::shared_ptr<Module>(new Module(device, module, image_params(cubin), image_variables(cubin)));
}

Module::~Module() {
  if (!runtime::driver_loaded()) return;
  try {
    flush_launches();
    runtime::forget_batch_graphs(device_);
    runtime::ScopedActivation on_device(device_);
    runtime::driver().cuModuleUnload(module_);
  } catch (...) {  // destructors must not throw: the module then stays loaded
  }
}

runtime::Kernel Module::kernel(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = kernels_.find(name);
  if (found != kernels_.end()) return {found->second.function, found->second.info.get()};
  runtime::ScopedActivation on_device(device_);
  CUfunction f;
  CU_CALL(cuModuleGetFunction, &f, module_, name.c_str());
  auto info = std::make_unique<runtime::KernelInfo>();
  info->name = name;
  auto params = cubin_params_.find(name);
  read_layout(*info, f, params == cubin_params_.end() ? nullptr : &params->second);
  const runtime::Kernel k{f, info.get()};
  kernels_.emplace(name, Loaded{f, std::move(info)});
  return k;
}

std::pair<CUdeviceptr, size_t> Module::global(const std::string& name) {
  if (variables_ && !variables_->count(name))
    throw_error(ErrorKind::CudaDriver,
                "cuModuleGetGlobal failed: CUDA_ERROR_NOT_FOUND: the module has no variable " + name, CUDA_ERROR_NOT_FOUND);
  runtime::ScopedActivation on_device(device_);
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CALL(cuModuleGetGlobal, &address, &bytes, module_, name.c_str());
  return {address, bytes};
}

}  // namespace cuarray::jit
