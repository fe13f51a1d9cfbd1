#include "ops/random/random_fill.hpp"

#include <algorithm>
#include <string>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "jit/kernel_source.hpp"
#include "kernels/fragments.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/random/ziggurat.hpp"
#include "runtime/launch.hpp"

namespace cuarray::random {
namespace {

// Float64 normals: NumPy's ziggurat, with its layer table in shared memory and its slow paths
// queued per warp.
bool ziggurat_fill(FillKind kind, DType out) { return kind == FillKind::Normal && out == DType::Float64; }

}  // namespace

std::string random_fill_source(FillKind kind, DType out, bool wide) {
  const bool ziggurat = ziggurat_fill(kind, out);
  std::string s;
  s += kernels::prelude_cuh;
  s += "typedef " + std::string(jit::kernel_type_name(out)) + " out_t;\n";
  s += "constexpr int kFillKind = " + std::to_string(static_cast<int>(kind)) + ";\n";
  s += std::string("constexpr bool kWideWords = ") + (wide ? "true" : "false") + ";\n";
  s += "constexpr int kInversionEntries = " + std::to_string(kInversionEntries) + ";\n";
  s += "constexpr unsigned kFillBlockThreads = " + std::to_string(ops::kBlockThreads) + ";\n";
  s += std::string("constexpr bool kZigguratFill = ") + (ziggurat ? "true" : "false") + ";\n";
  // The ziggurat's retry pass inlined in the loop would take 70 registers (3 blocks a
  // multiprocessor); held to 64 it keeps 4 blocks (32 warps) without spilling. Other fills keep
  // ptxas's own allocation, which any bound changes.
  s += std::string("#define CUARRAY_FILL_BOUNDS ") +
       (ziggurat ? "__launch_bounds__(" + std::to_string(ops::kBlockThreads) + ", 4)" : "") + "\n";
  s += kernels::random_stream_cuh;
  s += kernels::random_ziggurat_cuh;
  // Every fill kernel names the tables (a discarded branch of a non-template kernel is still
  // compiled); only the float64 normal reads them.
  s += normal_ziggurat_source();
  s += kernels::random_fill_cuh;
  return s;
}

void fill(FillKind kind, const NDArray& out, uint64_t key, uint64_t offset, const FillParams& p) {
  if (out.size() == 0) return;
  // 64-bit words for 64-bit floats and for integer spans that 32 bits cannot draw.
  const bool wide = kind == FillKind::Integer ? p.span >= 0xFFFFFFFFull : out.itemsize() == 8;
  // The table travels in pool memory (a stream-ordered upload); the kernel stages it in shared memory.
  NDArray cdf;
  if (kind == FillKind::Inversion) cdf = from_host(p.table->cdf.data(), {kInversionEntries}, DType::Float64);
  jit::KernelKey key_bytes(jit::KernelFamily::RandomFill);
  key_bytes.push(static_cast<uint8_t>(kind)).push(static_cast<uint8_t>(out.dtype())).push(wide);
  activate_current_device({&out});
  const runtime::Kernel f = jit::get_kernel(key_bytes, [&] {
    return jit::KernelSource{random_fill_source(kind, out.dtype(), wide), "cuarray_random_fill"};
  });
  const uint64_t n = static_cast<uint64_t>(out.size());
  const int64_t groups = static_cast<int64_t>((n + (wide ? 1 : 3)) / (wide ? 2 : 4));
  unsigned blocks = ops::grid_for(groups);
  // The ziggurat's and the inversion's blocks stage a table first (4 KiB, 1 KiB), so their blocks
  // loop. 64 per multiprocessor: several waves whatever the occupancy (a last partial wave of
  // long blocks would idle a good part of the device), the staging still well under 5% of the
  // bytes written.
  if (ziggurat_fill(kind, out.dtype()) || kind == FillKind::Inversion) {
    const auto sms = static_cast<unsigned>(device_properties(out.device()).multiprocessor_count);
    blocks = std::min(blocks, 64u * sms);
  }
  runtime::launch(f, {blocks, ops::kBlockThreads}, out.raw_data(), n, key, offset, p.a, p.b,
                  kind == FillKind::Inversion ? static_cast<uint64_t>(p.table->base) : p.low, p.span, cdf.raw_data(),
                  kind == FillKind::Inversion ? p.table->step : int64_t{0});
}

void fill_next(Generator& g, FillKind kind, const NDArray& out, const FillParams& p) {
  const auto [key, offset] = g.reserve(static_cast<uint64_t>(out.size()));
  fill(kind, out, key, offset, p);
}

NDArray filled(Generator& g, FillKind kind, const Shape& shape, DType dtype, const FillParams& p) {
  NDArray out = empty(shape, dtype);
  fill_next(g, kind, out, p);
  return out;
}

}  // namespace cuarray::random
