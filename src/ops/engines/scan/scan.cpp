#include "ops/engines/scan/scan.hpp"

#include <algorithm>
#include <cstdlib>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"

namespace cuarray::ops {
namespace {

constexpr const char* kKernelName = "cuarray_scan";
constexpr int kWarpsPerTile = kScanThreads / 32;
constexpr int64_t kInt32Max = 0x7fffffff;

// Elements per lane in a tile: 16 keeps 64 bytes of float32 loads in flight per lane; 16-byte
// accumulators (complex128) take 8 to stay within registers.
int items_per_lane(DType acc) { return itemsize(acc) > 8 ? 8 : 16; }

int64_t slot_bytes(DType acc) { return (static_cast<int64_t>(itemsize(acc)) + 3) / 4 * 4; }

int64_t round16(int64_t n) { return (n + 15) / 16 * 16; }

// The widest vector (elements) that every row of `in` and `out` can be loaded and stored with:
// both contiguous along the scan, every row start aligned to the vector's bytes.
int vector_width(const ScanGeometry& g, const StridedView& rows, int64_t sin, int64_t sout) {
  const int64_t in_size = g.in_itemsize, out_size = g.out_itemsize;
  if (sin != in_size || sout != out_size) return 1;
  int vec = static_cast<int>(16 / std::max(in_size, out_size));
  auto aligned = [&](int v) {
    const int64_t in_bytes = v * in_size, out_bytes = v * out_size;
    if (g.in_addr % in_bytes || g.out_addr % out_bytes) return false;
    for (size_t d = 0; d < rows.shape.size(); ++d)
      if (rows.strides[0][d] % out_bytes || rows.strides[1][d] % in_bytes) return false;
    return true;
  };
  while (vec > 1 && !aligned(vec)) vec /= 2;
  return std::max(vec, 1);
}

}  // namespace

std::string scan_source(const ScanSpec& spec, DType in, DType loop, DType acc, DType out, int kept_rank,
                        const ScanPlan& plan) {
  std::string s;
  s.reserve(24576);
  const DType used[] = {in, loop, acc, out};
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;
  s += jit::index_typedefs(plan.index64);
  s += kernels::scan_cuh;
  s += "\nstruct ScanOps {\n";
  s += "  typedef " + std::string(jit::kernel_type_name(in)) + " in_t;\n";
  s += "  typedef " + std::string(jit::kernel_type_name(loop)) + " loop_t;\n";
  s += "  typedef " + std::string(jit::kernel_type_name(acc)) + " acc_t;\n";
  s += "  typedef " + std::string(jit::kernel_type_name(out)) + " out_t;\n";
  s += "  typedef acc_t in0_t;\n  typedef acc_t in1_t;\n  typedef acc_t out0_t;\n";
  s += "  static __device__ __forceinline__ acc_t map(const in_t v) { return " + std::string(spec.map) + "; }\n";
  s += "  static __device__ __forceinline__ acc_t combine(const acc_t in0, const acc_t in1) {\n    acc_t out0;\n    " +
       std::string(spec.step) + "\n    return out0;\n  }\n";
  s += "  static __device__ __forceinline__ out_t post(const acc_t a) { return cuarray_cast<out_t>(a); }\n};\n";
  const std::string RK = std::to_string(kept_rank), VEC = std::to_string(plan.vec), K = std::to_string(plan.chunks);
  const std::string vector = plan.vec > 1 ? "true" : "false";
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kScanThreads) + ") " + kKernelName +
       "(const char* in, char* out, index_t rows, index_t n, index_t tiles_per_row, cuarray::ScanRows<" + RK +
       "> rs, offset_t sin, offset_t sout, cuarray::TileStatus st) {\n";
  switch (plan.kind) {
    case ScanPlanKind::Sequential:
      s += "  cuarray::scan_sequential<ScanOps, " + RK + ">(in, out, rows, n, rs, sin, sout);\n";
      break;
    case ScanPlanKind::WarpRows:
      s += "  cuarray::scan_warp_rows<ScanOps, " + VEC + ", " + vector + ", " + RK +
           ">(in, out, rows, n, rs, sin, sout);\n";
      break;
    case ScanPlanKind::Tiles:
      s += "  cuarray::scan_tiles<ScanOps, " + VEC + ", " + K + ", " + vector + ", " + RK +
           ">(in, out, n, tiles_per_row, rs, sin, sout, st);\n";
      break;
  }
  s += "}\n";
  return s;
}

ScanLayout plan_scan(const ScanGeometry& g, DType acc, bool associative, int sms) {
  const int ndim = static_cast<int>(g.shape.size());
  if (g.axis < 0 || g.axis >= ndim) throw_error(ErrorKind::Value, "scan axis out of range");
  ScanLayout L{};
  StridedView& rows = L.rows;
  rows.count = 2;
  for (int d = 0; d < ndim; ++d) {
    if (d == g.axis) continue;
    rows.shape.push_back(g.shape[d]);
    rows.strides[0].push_back(g.out_strides[d]);
    rows.strides[1].push_back(g.in_strides[d]);
  }
  coalesce(rows);
  const int64_t n = g.shape[g.axis], nrows = shape_size(rows.shape);
  const int64_t sin = g.in_strides[g.axis], sout = g.out_strides[g.axis];

  int64_t min_row_stride = INT64_MAX;
  for (size_t d = 0; d < rows.shape.size(); ++d) min_row_stride = std::min<int64_t>(min_row_stride, std::llabs(rows.strides[1][d]));
  const bool scan_innermost = std::llabs(sin) <= min_row_stride;
  const int items = items_per_lane(acc);

  ScanPlan& plan = L.plan;
  plan.vec = 1;
  plan.chunks = 1;
  if (!associative || n <= 16) {
    plan.kind = ScanPlanKind::Sequential;
  } else if (scan_innermost) {
    plan.vec = vector_width(g, rows, sin, sout);
    // Enough rows to give every multiprocessor 32 warps, or rows of a few chunks: a warp per row.
    const bool warp_rows = nrows >= static_cast<int64_t>(sms) * 32 || n <= 32 * plan.vec * 4;
    plan.kind = warp_rows ? ScanPlanKind::WarpRows : ScanPlanKind::Tiles;
    plan.chunks = std::max(1, items / plan.vec);
  } else {
    // Scanning an outer axis: a thread per row keeps every access coalesced while the rows alone
    // fill the GPU; fewer, longer rows are split into tiles of strided elements.
    plan.kind = nrows >= 8192 ? ScanPlanKind::Sequential : ScanPlanKind::Tiles;
    plan.chunks = items;
  }
  const int64_t tile = static_cast<int64_t>(kWarpsPerTile) * 32 * plan.vec * plan.chunks;
  const int64_t tiles_per_row = plan.kind == ScanPlanKind::Tiles ? (n + tile - 1) / tile : 1;
  plan.index64 = n + 2 * tile > kInt32Max || nrows * tiles_per_row > kInt32Max || g.in_span > kInt32Max ||
                 g.out_span > kInt32Max;
  if (nrows * tiles_per_row > kInt32Max)
    throw_error(ErrorKind::Value, "scan too large: more than 2**31 tiles (n " + std::to_string(n) + ", rows " +
                                      std::to_string(nrows) + ", tile " + std::to_string(tile) + ", vec " +
                                      std::to_string(plan.vec) + ", chunks " + std::to_string(plan.chunks) +
                                      ", kind " + std::to_string(static_cast<int>(plan.kind)) + ", sms " +
                                      std::to_string(sms) + ")");
  L.n = n;
  L.nrows = nrows;
  L.tiles_per_row = tiles_per_row;
  L.sin = sin;
  L.sout = sout;
  return L;
}

void run_scan(const ScanSpec& spec, const NDArray& in_arg, int axis, DType loop, DType acc, const NDArray& out) {
  if (out.size() == 0) return;
  const int device = activate_current_device({&in_arg, &out});
  // An input that partly overlaps the output would be overwritten before it is read.
  // (A default NDArray is 0-d with size 1, so the copy is chosen by the flag, not by its size.)
  const bool stage = overlaps(in_arg, out) && !same_view(in_arg, out);
  const NDArray staged = stage ? in_arg.copy() : NDArray();
  const NDArray& in = stage ? staged : in_arg;

  ScanGeometry g;
  g.shape = in.shape();
  g.in_strides = in.strides();
  g.out_strides = out.strides();
  g.axis = axis;
  g.in_itemsize = in.itemsize();
  g.out_itemsize = out.itemsize();
  g.in_addr = reinterpret_cast<uintptr_t>(in.raw_data());
  g.out_addr = reinterpret_cast<uintptr_t>(out.raw_data());
  auto span = [](const NDArray& a) {
    const ByteExtent e = byte_extent(a.shape(), a.strides(), a.itemsize());
    return e.hi - e.lo;
  };
  g.in_span = span(in);
  g.out_span = span(out);
  const ScanLayout layout = plan_scan(g, acc, spec.associative, device_properties(device).multiprocessor_count);
  const ScanPlan& plan = layout.plan;
  const StridedView& rows = layout.rows;
  const int64_t n = layout.n, nrows = layout.nrows, tiles_per_row = layout.tiles_per_row;
  const int64_t sin = layout.sin, sout = layout.sout;

  const int rk = std::max<int>(1, static_cast<int>(rows.shape.size()));
  jit::KernelKey key(jit::KernelFamily::Scan);
  key.push_u64(spec.op_id).push(static_cast<uint8_t>(in.dtype())).push(static_cast<uint8_t>(loop));
  key.push(static_cast<uint8_t>(acc)).push(static_cast<uint8_t>(out.dtype())).push(static_cast<uint8_t>(plan.kind));
  key.push(static_cast<uint8_t>(plan.vec)).push(static_cast<uint8_t>(plan.chunks)).push(static_cast<uint8_t>(rk));
  key.push(plan.index64);
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{scan_source(spec, in.dtype(), loop, acc, out.dtype(), rk, plan), kKernelName};
  });

  // Tile status (scan.cuh): [counter | packed words] for 4- and 8-byte accumulators (flag and value
  // in one 8- or 16-byte word, all zeroed), else [counter | flags | aggregates | prefixes] with the
  // counter and flags zeroed.
  NDArray scratch;
  std::array<void*, 4> status = {};  // cuarray::TileStatus
  if (plan.kind == ScanPlanKind::Tiles) {
    const int64_t tiles = nrows * tiles_per_row;
    const bool packed = itemsize(acc) == 4 || itemsize(acc) == 8;
    const int64_t flags_bytes = packed ? 0 : round16(tiles * 4);
    const int64_t slots = packed ? round16(tiles * 2 * itemsize(acc)) : round16(tiles * slot_bytes(acc));
    scratch = empty(Shape{16 + flags_bytes + (packed ? 1 : 2) * slots}, DType::UInt8);
    char* base = scratch.raw_data();
    status[0] = base;
    status[1] = base + 16;
    status[2] = base + 16 + flags_bytes;
    status[3] = base + 16 + flags_bytes + slots;
    const int64_t zeroed = 16 + (packed ? slots : flags_bytes);
    scratch.slice(0, 0, zeroed, 1).fill(Scalar::from_int(0));
  }

  const size_t nk = static_cast<size_t>(rk);  // rank-0 rows are one dim of length 1
  runtime::KernelArgs args(plan.index64);
  args.value(in.raw_data()).value(out.raw_data()).index(nrows).index(n).index(tiles_per_row);
  args.struct_begin().array(rows.shape, nk, 1).array(rows.strides[1], nk, 0).array(rows.strides[0], nk, 0).struct_end();
  args.index(sin).index(sout).value(status);

  int64_t blocks = 0;
  switch (plan.kind) {
    case ScanPlanKind::Sequential: blocks = grid_for(nrows); break;
    case ScanPlanKind::WarpRows: blocks = grid_for(nrows * 32); break;
    case ScanPlanKind::Tiles: blocks = nrows * tiles_per_row; break;
  }
  runtime::launch(kernel, {static_cast<unsigned>(blocks), static_cast<unsigned>(kScanThreads)}, args.params());
}

}  // namespace cuarray::ops
