// RawModule and RawKernel. On the host: user programs compile with NVRTC (and nvcc where it is
// installed) through the disk cache, name expressions come back lowered, the parameter layout is
// read from the CUBIN and CuPy-style arguments are packed against it or refused. On a GPU: launches,
// template kernels found by name expression, module globals, attributes, cooperative launches,
// and a dropped module whose launch is still held.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/ndarray.hpp"
#include "cuarray/raw_kernel.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"
#include "jit/cubin_params.hpp"
#include "jit/image_params.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/nvcc.hpp"
#include "jit/user_program.hpp"
#include "ops/user_kernels/raw_arguments.hpp"

using namespace cuarray;
using cuarray::test::expect_error;

namespace {

constexpr const char* kScale = R"(
extern "C" __global__ void scale(const float* x, float* y, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
)";

constexpr const char* kTemplates = R"(
template <typename T>
__global__ void fill(T* out, int n, T value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + (T)i;
}
__device__ int counter[4];
__constant__ float coefficients[3];
extern "C" __global__ void use_globals(float* out) {
  out[threadIdx.x] = coefficients[threadIdx.x % 3] + counter[threadIdx.x % 4];
}
)";

// A temporary cache directory for the duration of a test.
struct ScratchCache {
  std::string dir;
  std::string previous;
  bool had_previous;
  ScratchCache() {
    char pattern[] = "/tmp/cuarray-raw-cache-XXXXXX";
    dir = ::mkdtemp(pattern);
    const char* p = std::getenv("CUARRAY_CACHE_DIR");
    had_previous = p != nullptr;
    if (p) previous = p;
    ::setenv("CUARRAY_CACHE_DIR", dir.c_str(), 1);
  }
  ~ScratchCache() {
    if (had_previous) ::setenv("CUARRAY_CACHE_DIR", previous.c_str(), 1);
    else ::unsetenv("CUARRAY_CACHE_DIR");
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  size_t files() const {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
    return n;
  }
};

// The layout the launch path would hold for `kernel` of `cubin`, read on the host.
runtime::KernelInfo layout_of(const std::string& cubin, const std::string& kernel) {
  const auto params = jit::cubin_params(cubin).at(kernel);
  runtime::KernelInfo info;
  info.name = kernel;
  info.param_count = params.count;
  for (int i = 0; i < params.count; ++i) {
    info.param_offset[i] = params.params[i].offset;
    info.param_size[i] = params.params[i].size;
  }
  return info;
}

template <class T>
KernelArgument scalar(T v) {
  return KernelArgument::value(&v, sizeof v);
}

template <class T>
T read_param(const runtime::KernelParams& p, int i) {
  T v;
  EXPECT_EQ(p.sizes[i], sizeof(T)) << i;
  std::memcpy(&v, p.values[i], sizeof(T));
  return v;
}

}  // namespace

TEST(RawProgram, CompilesWithTheUsersOptionsOnly) {
  jit::UserProgram program{kScale, "scale", {"-DSCALE=1"}, {}, false};
  const auto options = jit::user_program_options(program, "sm_90");
  EXPECT_EQ(options.front(), "-DSCALE=1");
  EXPECT_NE(std::find(options.begin(), options.end(), "--gpu-architecture=sm_90"), options.end());
  // None of the engine's own options: user code keeps NVRTC's defaults (FMA contraction among them).
  EXPECT_EQ(std::find(options.begin(), options.end(), "--fmad=false"), options.end());
  EXPECT_EQ(std::find(options.begin(), options.end(), "--device-as-default-execution-space"), options.end());
}

TEST(RawProgram, NameExpressionsComeBackLoweredAndCached) {
  ScratchCache cache;
  jit::UserProgram program{kTemplates, "templates", {"-std=c++17"}, {"fill<float>", "fill<int>", "fill<double>"}};
  const jit::CompiledProgram first = jit::compile_user_program(program, "sm_90");
  ASSERT_EQ(first.lowered_names.size(), 3u);
  EXPECT_EQ(first.lowered_names[0], "_Z4fillIfEvPT_iS0_");
  EXPECT_EQ(first.lowered_names[1], "_Z4fillIiEvPT_iS0_");
  EXPECT_EQ(first.lowered_names[2], "_Z4fillIdEvPT_iS0_");
  const auto kernels = jit::cubin_params(first.cubin);
  EXPECT_EQ(kernels.at(first.lowered_names[2]).count, 3);
  EXPECT_EQ(kernels.at(first.lowered_names[2]).params[2].size, 8u);
  EXPECT_EQ(kernels.at("use_globals").count, 1);
  // Its variables, from the symbol table (get_global looks there before asking the driver).
  const auto variables = jit::cubin_variables(first.cubin);
  EXPECT_TRUE(variables.count("counter"));
  EXPECT_TRUE(variables.count("coefficients"));
  EXPECT_FALSE(variables.count("use_globals"));
  EXPECT_EQ(jit::image_variables(first.cubin), variables);
  EXPECT_EQ(cache.files(), 1u);
  // The second compile reads the file: the same CUBIN and the same lowered names.
  const jit::CompiledProgram second = jit::compile_user_program(program, "sm_90");
  EXPECT_EQ(second.cubin, first.cubin);
  EXPECT_EQ(second.lowered_names, first.lowered_names);
  EXPECT_EQ(cache.files(), 1u);
  // Other name expressions are another program.
  program.name_expressions.pop_back();
  EXPECT_EQ(jit::compile_user_program(program, "sm_80").lowered_names.size(), 2u);
  EXPECT_EQ(cache.files(), 2u);
}

TEST(RawProgram, ToolkitHeadersResolve) {
  if (jit::toolkit_include_dir().empty()) GTEST_SKIP() << "no CUDA toolkit headers here";
  ScratchCache cache;
  const char* source = R"(
#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;
extern "C" __global__ void grid_sum(const __half* x, float* partial, float* total, int n) {
  cg::grid_group grid = cg::this_grid();
  float s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += __half2float(x[i]);
  atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0;
    for (int b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}
)";
  const auto program = jit::compile_user_program({source, "grid_sum", {}, {}, false}, "sm_90");
  EXPECT_EQ(jit::cubin_params(program.cubin).at("grid_sum").count, 4);
}

TEST(RawProgram, CompileErrorsCarryTheLogAndSource) {
  ScratchCache cache;
  const std::string source = "extern \"C\" __global__ void broken(float* x) { x[0] = undefined_name; }\n";
  try {
    jit::compile_user_program({source, "broken", {}, {}, false}, "sm_90");
    FAIL() << "a broken program compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Compile);
    EXPECT_NE(std::string(e.what()).find("undefined_name"), std::string::npos) << e.what();
    EXPECT_EQ(e.source(), source);
  }
  EXPECT_EQ(cache.files(), 0u);  // nothing cached for a failure
}

TEST(RawProgram, NvccBackendWhenInstalled) {
  if (jit::find_nvcc().empty()) GTEST_SKIP() << "nvcc is not installed here";
  ScratchCache cache;
  const auto program = jit::compile_user_program({kScale, "scale", {}, {}, true}, "sm_90");
  const auto params = jit::cubin_params(program.cubin).at("scale");
  ASSERT_EQ(params.count, 4);
  EXPECT_EQ(params.params[2].size, 4u);
  try {
    jit::compile_user_program({"this is not CUDA", "bad", {}, {}, true}, "sm_90");
    FAIL() << "nvcc accepted garbage";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("error"), std::string::npos) << e.what();
  }
}

TEST(RawArguments, PackedAgainstTheCubinLayout) {
  const std::string cubin = jit::compile_user_program({kScale, "scale", {}, {}, false}, "sm_90").cubin;
  const runtime::KernelInfo info = layout_of(cubin, "scale");
  ASSERT_EQ(info.param_count, 4);
  float device_data = 0;
  const KernelArgument args[] = {KernelArgument::pointer(&device_data), KernelArgument::pointer(nullptr),
                                 KernelArgument::python_int(1000), scalar(2.5f)};
  const ops::RawArguments packed(&info, "scale", args);
  const runtime::KernelParams p = packed.params();
  ASSERT_EQ(p.count, 4);
  EXPECT_EQ(read_param<const float*>(p, 0), &device_data);
  EXPECT_EQ(read_param<const float*>(p, 1), nullptr);
  EXPECT_EQ(read_param<int32_t>(p, 2), 1000);  // CuPy's int64, read as the int parameter it is
  EXPECT_EQ(read_param<float>(p, 3), 2.5f);
  // A NumPy int32 fits the int exactly; -1 as a Python int too.
  const KernelArgument negative[] = {args[0], args[1], KernelArgument::python_int(-1), scalar(2.5f)};
  EXPECT_EQ(read_param<int32_t>(ops::RawArguments(&info, "scale", negative).params(), 2), -1);
}

TEST(RawArguments, RefusedWhereTheKernelWouldReadGarbage) {
  const std::string cubin = jit::compile_user_program({kScale, "scale", {}, {}, false}, "sm_90").cubin;
  const runtime::KernelInfo info = layout_of(cubin, "scale");
  const KernelArgument x = KernelArgument::pointer(nullptr);
  const KernelArgument three[] = {x, x, KernelArgument::python_int(3)};
  expect_error(ErrorKind::Type, "kernel scale takes 4 arguments (3 given)",
               [&] { ops::RawArguments(&info, "scale", three); });
  const KernelArgument float64[] = {x, x, KernelArgument::python_int(3), scalar(2.5)};
  expect_error(ErrorKind::Type,
               "argument 3 of kernel scale is 8 bytes (a value) but the kernel's parameter 3 is 4 bytes; pass a "
               "NumPy scalar of the parameter's type",
               [&] { ops::RawArguments(&info, "scale", float64); });
  const KernelArgument wide[] = {x, x, KernelArgument::python_int(int64_t{1} << 40), scalar(2.5f)};
  expect_error(ErrorKind::Overflow,
               "argument 2 of kernel scale: Python int 1099511627776 does not fit its 4-byte parameter",
               [&] { ops::RawArguments(&info, "scale", wide); });
  const KernelArgument short_int[] = {x, x, scalar<int16_t>(3), scalar(2.5f)};
  expect_error(ErrorKind::Type,
               "argument 2 of kernel scale is 2 bytes (a value) but the kernel's parameter 2 is 4 bytes; pass a "
               "NumPy scalar of the parameter's type",
               [&] { ops::RawArguments(&info, "scale", short_int); });
  const KernelArgument pointer_as_int[] = {x, x, x, scalar(2.5f)};
  expect_error(ErrorKind::Type,
               "argument 2 of kernel scale is 8 bytes (a device pointer) but the kernel's parameter 2 is 4 bytes; "
               "pass a NumPy scalar of the parameter's type",
               [&] { ops::RawArguments(&info, "scale", pointer_as_int); });
}

TEST(RawArguments, UnknownLayoutsPassTheBytesAsGiven) {
  runtime::KernelInfo unknown;  // a PTX or fatbin image: the CUBIN is not ours to read
  const KernelArgument args[] = {KernelArgument::python_int(7), scalar<int16_t>(3), scalar(1.5)};
  const ops::RawArguments packed(&unknown, "k", args);
  const runtime::KernelParams p = packed.params();
  ASSERT_EQ(p.count, 3);
  EXPECT_EQ(read_param<int64_t>(p, 0), 7);
  EXPECT_EQ(read_param<int16_t>(p, 1), 3);
  EXPECT_EQ(read_param<double>(p, 2), 1.5);
}

TEST(RawModuleHost, UnreadableFile) {
  expect_error(ErrorKind::Value, "cannot read the module file /nonexistent/kernels.cubin",
               [] { RawModule::from_file("/nonexistent/kernels.cubin"); });
  expect_error(ErrorKind::Value, "only nvrtc supports retrieving the mangled names for the given name expressions",
               [] { RawModule::from_source(kTemplates, {{}, CompilerBackend::Nvcc, false, {"fill<int>"}}); });
}

// ---- on a GPU ----------------------------------------------------------------------------------

namespace {

std::vector<float> floats_of(const NDArray& a) {
  std::vector<float> v(static_cast<size_t>(a.size()));
  a.copy_to_host(v.data());
  return v;
}

}  // namespace

TEST(RawKernelGpu, LaunchesWithCupyStyleArguments) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const RawModule module = RawModule::from_source(kScale);
  const RawKernel scale = module.get_function("scale");
  EXPECT_EQ(scale.param_count(), 4);
  const int n = 1000;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 0.25f * static_cast<float>(i) - 3.0f;
  NDArray x = empty(Shape{n}, DType::Float32);
  x.copy_from_host(host.data());
  NDArray y = zeros(Shape{n}, DType::Float32);
  const KernelArgument args[] = {KernelArgument::pointer(x.raw_data()), KernelArgument::pointer(y.raw_data()),
                                 KernelArgument::python_int(n), scalar(3.0f)};
  scale.launch({4}, {256}, args);
  const std::vector<float> got = floats_of(y);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], 3.0f * host[i]) << i;
  expect_error(ErrorKind::Type, "kernel scale takes 4 arguments (2 given)",
               [&] { scale.launch({4}, {256}, std::span(args, 2)); });
}

TEST(RawKernelGpu, TemplatesGlobalsAndAttributes) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const RawModuleOptions options{{"-std=c++17"}, CompilerBackend::Nvrtc, false, {"fill<float>", "fill<double>"}};
  const RawModule module = RawModule::from_source(kTemplates, options);
  const RawKernel fill = module.get_function("fill<double>");
  EXPECT_EQ(fill.name(), "_Z4fillIdEvPT_iS0_");
  NDArray out = empty(Shape{100}, DType::Float64);
  const KernelArgument args[] = {KernelArgument::pointer(out.raw_data()), KernelArgument::python_int(100),
                                 scalar(0.5)};
  fill.launch({1}, {128}, args);
  std::vector<double> got(100);
  out.copy_to_host(got.data());
  for (int i = 0; i < 100; ++i) ASSERT_EQ(got[i], 0.5 + i) << i;

  // Globals: write through the arrays, read back by a kernel of the module.
  NDArray coefficients = module.get_global("coefficients");
  EXPECT_EQ(coefficients.size(), 12);
  EXPECT_EQ(coefficients.dtype(), DType::UInt8);
  const float c[3] = {1.5f, -2.0f, 4.0f};
  coefficients.copy_from_host(c);
  NDArray counter = module.get_global("counter");
  const int k[4] = {10, 20, 30, 40};
  counter.copy_from_host(k);
  NDArray used = empty(Shape{12}, DType::Float32);
  const KernelArgument one[] = {KernelArgument::pointer(used.raw_data())};
  module.get_function("use_globals").launch({1}, {12}, one);
  const std::vector<float> u = floats_of(used);
  for (int i = 0; i < 12; ++i) ASSERT_EQ(u[i], c[i % 3] + static_cast<float>(k[i % 4])) << i;
  EXPECT_THROW(module.get_global("no_such_symbol"), Error);
  EXPECT_THROW(module.get_function("no_such_kernel"), Error);

  const KernelAttributes a = fill.attributes();
  EXPECT_GT(a.max_threads_per_block, 0);
  EXPECT_GT(a.num_regs, 0);
  EXPECT_GE(a.binary_version, 80);
  fill.set_max_dynamic_shared_size_bytes(64 * 1024);
  EXPECT_EQ(fill.attributes().max_dynamic_shared_size_bytes, 64 * 1024);
  fill.set_preferred_shared_memory_carveout(50);
  EXPECT_EQ(fill.attributes().preferred_shared_memory_carveout, 50);
}

TEST(RawKernelGpu, DroppedModuleSubmitsItsHeldLaunch) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const bool batching = launch_batching();
  set_launch_batching(true);
  NDArray out = zeros(Shape{64}, DType::Float32);
  {
    const RawModule module = RawModule::from_source(kScale);
    NDArray x = full(Shape{64}, Scalar::from_double(2.0), DType::Float32);
    flush_launches();
    const KernelArgument args[] = {KernelArgument::pointer(x.raw_data()), KernelArgument::pointer(out.raw_data()),
                                   KernelArgument::python_int(64), scalar(1.5f)};
    module.get_function("scale").launch({1}, {64}, args);
    EXPECT_GE(held_launches(current_device()), 1);  // held, like cuarray's own small launches
  }  // the module unloads here, after its held launch went out
  EXPECT_EQ(held_launches(current_device()), 0);
  for (float v : floats_of(out)) ASSERT_EQ(v, 3.0f);
  set_launch_batching(batching);
}

TEST(RawKernelGpu, LoadsACubinFile) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const std::string cubin =
      jit::compile_user_program({kScale, "scale", {}, {}, false}, jit::device_arch(current_device())).cubin;
  char pattern[] = "/tmp/cuarray-raw-XXXXXX";
  const std::string dir = ::mkdtemp(pattern);
  const std::string path = dir + "/scale.cubin";
  std::ofstream(path, std::ios::binary) << cubin;
  const RawKernel scale = RawModule::from_file(path).get_function("scale");
  EXPECT_EQ(scale.param_count(), 4);  // the layout is read from a CUBIN file too
  NDArray x = full(Shape{10}, Scalar::from_double(4.0), DType::Float32);
  NDArray y = empty(Shape{10}, DType::Float32);
  const KernelArgument args[] = {KernelArgument::pointer(x.raw_data()), KernelArgument::pointer(y.raw_data()),
                                 KernelArgument::python_int(10), scalar(0.5f)};
  scale.launch({1}, {32}, args);
  for (float v : floats_of(y)) ASSERT_EQ(v, 2.0f);
  std::filesystem::remove_all(dir);
}

TEST(RawKernelGpu, CooperativeLaunch) {
  CUARRAY_SKIP_WITHOUT_GPU();
  if (jit::toolkit_include_dir().empty()) GTEST_SKIP() << "no CUDA toolkit headers for <cooperative_groups.h>";
  const char* source = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void grid_total(const float* x, float* partial, float* total, int n) {
  cg::grid_group grid = cg::this_grid();
  float s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += x[i];
  atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0;
    for (int b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}
)";
  const RawModule module = RawModule::from_source(source, {{}, CompilerBackend::Nvrtc, true, {}});
  NDArray x = full(Shape{4096}, Scalar::from_double(0.5), DType::Float32);
  NDArray partial = zeros(Shape{8}, DType::Float32);
  NDArray total = zeros(Shape{1}, DType::Float32);
  const KernelArgument args[] = {KernelArgument::pointer(x.raw_data()), KernelArgument::pointer(partial.raw_data()),
                                 KernelArgument::pointer(total.raw_data()), KernelArgument::python_int(4096)};
  module.get_function("grid_total").launch({8}, {128}, args);
  EXPECT_EQ(floats_of(total)[0], 2048.0f);
}

// ---- layouts of PTX and fatbin images (RawModule(path=...)) ----------------------------------------

namespace {

constexpr const char* kLayouts = R"(
struct P { double a; char b; };
template <int N> struct A { int v[N]; };
extern "C" __global__ void k(const float* __restrict__ x, int n, P p, short s, double d) {}
extern "C" __global__ void k2(A<5> a, char c, long long q) {}
extern "C" __global__ void none() {}
extern "C" __global__ void k3(int a, const double* __restrict__ p, char c, const char* __restrict__ q, float* r) {}
__constant__ int table[8];
)";

std::unordered_map<std::string, jit::CubinParams> layouts_from_nvrtc() {
  return jit::cubin_params(jit::compile_user_program({kLayouts, "layouts", {}, {}, false}, "sm_90").cubin);
}

void expect_same_layouts(const std::unordered_map<std::string, jit::CubinParams>& got,
                         const std::unordered_map<std::string, jit::CubinParams>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [name, layout] : want) {
    ASSERT_TRUE(got.count(name)) << name;
    const jit::CubinParams& g = got.at(name);
    ASSERT_EQ(g.count, layout.count) << name;
    for (int i = 0; i < layout.count; ++i) {
      EXPECT_EQ(g.params[i].offset, layout.params[i].offset) << name << " " << i;
      EXPECT_EQ(g.params[i].size, layout.params[i].size) << name << " " << i;
    }
  }
}

}  // namespace

TEST(ImageParams, PtxEntriesLaidOutAsTheCubin) {
  // What nvcc -ptx writes for kLayouts (CUDA 13), pointer annotations included.
  const char* ptx = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 .ptr .align 1 k_param_0,
	.param .u32 k_param_1,
	.param .align 8 .b8 k_param_2[16],
	.param .u16 k_param_3,
	.param .f64 k_param_4
)
{
	ret;
}
.visible .entry k2(
	.param .align 4 .b8 k2_param_0[20],
	.param .u8 k2_param_1,
	.param .u64 k2_param_2
)
{
	ret;
}
.visible .entry none()
{
	ret;
}
.visible .entry k3(
	.param .u32 k3_param_0,
	.param .u64 .ptr .global .align 8 k3_param_1,
	.param .u8 k3_param_2,
	.param .u64 .ptr .align 1 k3_param_3,
	.param .u64 k3_param_4
)
{
	ret;
}
)";
  const auto from_cubin = layouts_from_nvrtc();
  expect_same_layouts(jit::image_params(ptx), from_cubin);
  EXPECT_EQ(jit::ptx_params(ptx).at("k").params[2].offset, 16u);
  EXPECT_EQ(jit::ptx_params(ptx).at("k3").params[3].offset, 24u);  // not 17: .align after .ptr is the pointee's
  // A parameter we cannot read leaves that kernel's layout unknown, not wrong.
  EXPECT_EQ(jit::ptx_params(".version 9.0\n.entry odd(\n.param .weird x\n)\n{\n}\n").at("odd").count, -1);
}

TEST(ImageParams, FatbinAndPtxFromNvcc) {
  const std::string nvcc = jit::find_nvcc();
  if (nvcc.empty()) GTEST_SKIP() << "nvcc is not installed here";
  char pattern[] = "/tmp/cuarray-image-XXXXXX";
  const std::string dir = ::mkdtemp(pattern);
  std::ofstream(dir + "/k.cu") << kLayouts;
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const auto from_cubin = layouts_from_nvrtc();
  for (const std::string kind : {"--fatbin", "--ptx", "--cubin"}) {
    const std::string out = dir + "/k.out";
    const std::string command = nvcc + " " + kind + " -arch=sm_90 -o " + out + " " + dir + "/k.cu";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const std::string image = read(out);
    expect_same_layouts(jit::image_params(image), from_cubin);
    const auto variables = jit::image_variables(image);
    if (kind == "--ptx") {
      EXPECT_FALSE(variables.has_value());  // PTX does not say: get_global asks the driver
    } else {
      ASSERT_TRUE(variables.has_value()) << kind;
      EXPECT_TRUE(variables->count("table")) << kind;
      EXPECT_FALSE(variables->count("k")) << kind;
    }
  }
  std::filesystem::remove_all(dir);
}
