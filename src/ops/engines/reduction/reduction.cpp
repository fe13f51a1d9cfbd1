#include "ops/engines/reduction/reduction.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"

namespace cuarray::ops {
namespace {

constexpr int kThreads = 256;
constexpr const char* kKernelName = "cuarray_reduce";

// Partials of struct accumulators (argmax's value and index, Welford's triple) sit in 32-byte
// slots, which hold every one of them for every dtype; plain accumulators in their own dtype.
int64_t partial_slot_bytes(const ReductionSpec& spec, DType compute) {
  return spec.acc_type.empty() ? static_cast<int64_t>(itemsize(compute)) : 32;
}

int pow2_at_most(int64_t n, int cap) {
  int p = 1;
  while (p * 2 <= cap && p * 2 <= n) p *= 2;
  return p;
}

// `reduce_inner`: the input's smallest stride is along a reduced dim, so lanes should walk the
// reduction (y); otherwise they walk outputs (x).
ReducePlan plan(int64_t m, int64_t k, bool reduce_inner, int sms) {
  ReducePlan p{};
  if (reduce_inner) {
    p.ty = std::max(32, pow2_at_most(k, kThreads));
    p.tx = kThreads / p.ty;
  } else {
    p.tx = std::max(1, pow2_at_most(m, 64));
    p.ty = kThreads / p.tx;
  }
  const int64_t blocks_x = (m + p.tx - 1) / p.tx;
  // Split tall reductions over enough blocks to keep every multiprocessor's loads in flight
  // (16 blocks each), keeping >= 16 elements per lane so the second pass stays small.
  const int64_t want = static_cast<int64_t>(sms) * 16;
  p.splits = 1;
  if (blocks_x < want) p.splits = std::max<int64_t>(1, std::min((want + blocks_x - 1) / blocks_x, k / (p.ty * 16)));
  p.chunk = (k + p.splits - 1) / p.splits;
  p.chunk = (p.chunk + p.ty - 1) / p.ty * p.ty;
  p.splits = (k + p.chunk - 1) / std::max<int64_t>(p.chunk, 1);
  if (p.splits < 1) p.splits = 1;
  return p;
}

// One pass over `red` for every output in `kept`. The pass-wide values: `count` is the number of
// elements each output reduces (for means), `param` the operation's parameter (ddof).
struct PassArgs {
  double count;
  double param;
};

// `kept` holds the strides of (out, in[, mask]), `red` those of (in[, mask]).
// `extra` inputs follow the mask in `kept` and `red` (first passes only).
void launch_pass(const ReductionSpec& spec, const char* in_data, DType in_dtype, const StridedView& kept,
                 const StridedView& red, DType compute, char* out_data, DType out_dtype, bool partial_input,
                 bool partial_output, const ReducePlan& p, PassArgs pass, const char* mask_data = nullptr,
                 std::span<const NDArray> extra = {}) {
  const int rk = std::max<int>(1, static_cast<int>(kept.shape.size()));
  const int rr = std::max<int>(1, static_cast<int>(red.shape.size()));
  jit::KernelKey key(jit::KernelFamily::Reduction);
  key.push_u64(spec.op_id).push(static_cast<uint8_t>(in_dtype)).push(static_cast<uint8_t>(compute));
  key.push(static_cast<uint8_t>(out_dtype)).push(partial_input).push(partial_output).push(static_cast<uint8_t>(rk));
  key.push(static_cast<uint8_t>(rr)).push(static_cast<uint8_t>(p.tx)).push(static_cast<uint8_t>(p.ty >> 1)).push(p.index64);
  key.push(p.masked);
  SmallVector<DType, 8> extra_dtypes;
  for (const NDArray& e : extra) extra_dtypes.push_back(e.dtype());
  if (!extra.empty()) {
    key.push(static_cast<uint8_t>(extra.size()));
    for (DType t : extra_dtypes) key.push(static_cast<uint8_t>(t));
  }
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{reduction_source(spec, in_dtype, compute, out_dtype, partial_input, partial_output, rk,
                                              rr, p, std::span<const DType>(extra_dtypes.data(), extra_dtypes.size())),
                             kKernelName,
                             {spec.options.begin(), spec.options.end()}};
  });
  const int64_t m = shape_size(kept.shape), k = shape_size(red.shape);
  // Rank-0 kept or reduced dims are one dim of length 1 in the kernel (rk, rr >= 1).
  const size_t nk = static_cast<size_t>(rk), nr = static_cast<size_t>(rr);
  runtime::KernelArgs args(p.index64);
  args.value(in_data).value(out_data).index(m).index(k).index(p.chunk);
  args.array(kept.shape, nk, 1).array(kept.strides[1], nk, 0).array(kept.strides[0], nk, 0);
  args.array(red.shape, nr, 1).array(red.strides[0], nr, 0);
  args.value(pass.count).value(pass.param);
  if (p.masked) args.value(mask_data).array(kept.strides[2], nk, 0).array(red.strides[1], nr, 0);
  const int kept_first_extra = p.masked ? 3 : 2, red_first_extra = p.masked ? 2 : 1;
  for (size_t j = 0; j < extra.size(); ++j)
    args.value(static_cast<const char*>(extra[j].raw_data()))
        .array(kept.strides[kept_first_extra + j], nk, 0)
        .array(red.strides[red_first_extra + j], nr, 0);
  runtime::launch(kernel,
                  {{static_cast<unsigned>((m + p.tx - 1) / p.tx), static_cast<unsigned>(p.splits)},
                   {static_cast<unsigned>(p.tx), static_cast<unsigned>(p.ty)}},
                  args.params());
}

}  // namespace

std::string reduction_source(const ReductionSpec& spec, DType in, DType compute, DType out, bool partial_input,
                             bool partial_output, int rk, int rr, const ReducePlan& p, std::span<const DType> extra) {
  if (!extra.empty() && (partial_input || !spec.step.empty() || !spec.step4.empty()))
    throw_error(ErrorKind::NotImplemented, "reduction_source: extra inputs need a first pass and a spec with no step");
  std::string s;
  s.reserve(16384);
  std::vector<DType> used{in, compute, out};
  used.insert(used.end(), extra.begin(), extra.end());
  used.insert(used.end(), spec.fragment_dtypes.begin(), spec.fragment_dtypes.end());
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;
  s += kernels::reduce_cuh;
  s += spec.preamble;
  s += jit::index_typedefs(p.index64);
  s += "typedef " + std::string(jit::kernel_type_name(compute)) + " compute_t;\n";
  s += "typedef " + (spec.acc_type.empty() ? std::string("compute_t") : std::string(spec.acc_type)) + " acc_t;\n";
  // A second pass reads accumulators: its input is acc_t and needs no map.
  s += "typedef " + (partial_input ? std::string("acc_t") : std::string(jit::kernel_type_name(in))) + " in_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(out)) + " out_t;\n";
  // The extra inputs: in1_t v1, in2_t v2, .. beside the element v.
  std::string extra_params, extra_args;
  for (size_t j = 1; j <= extra.size(); ++j) {
    const std::string n = std::to_string(j);
    s += "typedef " + std::string(jit::kernel_type_name(extra[j - 1])) + " in" + n + "_t;\n";
    extra_params += ", const in" + n + "_t v" + n;
    extra_args += ", v" + n;
  }
  s += "constexpr int kSlot = " + std::to_string(partial_slot_bytes(spec, compute)) + ";  // bytes per partial\n";
  s += "static_assert(sizeof(acc_t) <= kSlot, \"accumulator larger than its partial slot\");\n";
  s += "__device__ __forceinline__ acc_t cuarray_map(const in_t v, const long long r" + extra_params + ") { return " +
       (partial_input ? std::string("v") : std::string(spec.map)) + "; }\n";
  s += "struct Combine { __device__ __forceinline__ acc_t operator()(const acc_t a, const acc_t b) const { return " +
       std::string(spec.combine) + "; } };\n";
  const std::string step =
      partial_input || spec.step.empty() ? "Combine()(a, cuarray_map(v, r" + extra_args + "))" : std::string(spec.step);
  s += "__device__ __forceinline__ acc_t cuarray_step(const acc_t a, const in_t v, const long long r" + extra_params +
       ") { return " + step + "; }\n";
  const bool batched = !partial_input && !p.masked && !spec.step4.empty();
  if (batched)
    s += "__device__ __forceinline__ acc_t cuarray_step4(const acc_t a, const in_t v0, const in_t v1, const in_t v2, "
         "const in_t v3) { return " + std::string(spec.step4) + "; }\n";
  s += "__device__ __forceinline__ out_t cuarray_post(const acc_t a, const double count, const double param) { return " +
       std::string(spec.post) + "; }\n";
  const std::string TX = std::to_string(p.tx), TY = std::to_string(p.ty), RK = std::to_string(rk),
                    RR = std::to_string(rr);
  // Folds element `idx` into accumulator `acc`; with a mask, only where the mask is true.
  auto fold = [&](const std::string& acc, const std::string& idx) {
    const std::string element = "*reinterpret_cast<const in_t*>(base + cuarray::offset_of<index_t, offset_t, " + RR +
                                ">(" + idx + ", rshape, rin))";
    std::string extra_elements;
    for (size_t j = 1; j <= extra.size(); ++j) {
      const std::string n = std::to_string(j);
      extra_elements += ", *reinterpret_cast<const in" + n + "_t*>(base" + n + " + cuarray::offset_of<index_t, offset_t, " +
                        RR + ">(" + idx + ", rshape, rin" + n + "))";
    }
    const std::string step =
        acc + " = cuarray_step(" + acc + ", " + element + ", (long long)" + idx + extra_elements + ");";
    if (!p.masked) return step;
    return "if (*reinterpret_cast<const bool*>(mbase + cuarray::offset_of<index_t, offset_t, " + RR + ">(" + idx +
           ", rshape, rmask))) " + step;
  };
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kThreads) + ") " + kKernelName +
       "(const char* in, char* out, index_t M, index_t K, index_t chunk, cuarray::Array<index_t, " + RK +
       "> kshape, cuarray::Array<offset_t, " + RK + "> kin, cuarray::Array<offset_t, " + RK +
       "> kout, cuarray::Array<index_t, " + RR + "> rshape, cuarray::Array<offset_t, " + RR +
       "> rin, double count, double param" +
       (p.masked ? ", const char* mask, cuarray::Array<offset_t, " + RK + "> kmask, cuarray::Array<offset_t, " + RR +
                       "> rmask"
                 : std::string());
  for (size_t j = 1; j <= extra.size(); ++j) {
    const std::string n = std::to_string(j);
    s += ", const char* in" + n + ", cuarray::Array<offset_t, " + RK + "> kin" + n + ", cuarray::Array<offset_t, " + RR +
         "> rin" + n;
  }
  s += ") {\n";
  s += "__shared__ __align__(16) unsigned char smem_raw[" + TX + " * " + TY + " * sizeof(acc_t)];\n";
  s += "const index_t m = blockIdx.x * " + TX + " + threadIdx.x;\n";
  s += "acc_t acc = " + std::string(spec.identity) + ";\noffset_t out_off = 0;\n";
  s += "if (m < M) {\n";
  s += "  const offset_t in_off = cuarray::offset_of<index_t, offset_t, " + RK + ">(m, kshape, kin);\n";
  s += "  out_off = cuarray::offset_of<index_t, offset_t, " + RK + ">(m, kshape, kout);\n";
  s += "  const index_t r0 = blockIdx.y * chunk;\n  const index_t r1 = K - r0 < chunk ? K : r0 + chunk;\n";
  // Independent chains per thread keep that many loads (and, for var, merges) in flight: at least
  // 32 bytes of input a thread, up to 16 chains (four float64 reads reached the copy bandwidth on
  // an H200 where four float32 reads gave 91% of it). Every combine is associative and
  // order-independent (arg ties compare indices).
  const int chains = partial_input ? 4 : std::clamp(32 / static_cast<int>(itemsize(in)), 4, 16);
  s += "  const char* base = in + in_off;\n";
  if (p.masked) s += "  const char* mbase = mask + cuarray::offset_of<index_t, offset_t, " + RK + ">(m, kshape, kmask);\n";
  for (size_t j = 1; j <= extra.size(); ++j) {
    const std::string n = std::to_string(j);
    s += "  const char* base" + n + " = in" + n + " + cuarray::offset_of<index_t, offset_t, " + RK + ">(m, kshape, kin" +
         n + ");\n";
  }
  const std::string C = std::to_string(chains);
  std::string copies = "acc";
  for (int u = 1; u < chains; ++u) copies += ", acc";
  s += "  acc_t part[" + C + "] = {" + copies + "};\n";
  s += "  index_t r = r0 + threadIdx.y;\n";
  if (batched) {
    // Two chains of four-element batches: eight loads in flight, one step4 per four elements.
    auto element = [&](int u) {
      return "*reinterpret_cast<const in_t*>(base + cuarray::offset_of<index_t, offset_t, " + RR + ">(r + " +
             std::to_string(u) + " * " + TY + ", rshape, rin))";
    };
    s += "  for (; r + 7 * " + TY + " < r1; r += 8 * " + TY + ") {\n";
    for (int u = 0; u < 8; ++u) s += "    const in_t v" + std::to_string(u) + " = " + element(u) + ";\n";
    s += "    part[0] = cuarray_step4(part[0], v0, v1, v2, v3);\n";
    s += "    part[1] = cuarray_step4(part[1], v4, v5, v6, v7);\n  }\n";
  }
  s += "  for (; r + (" + C + " - 1) * " + TY + " < r1; r += " + C + " * " + TY + ") {\n";
  s += "#pragma unroll\n    for (int u = 0; u < " + C + "; ++u) {\n";
  s += "      const index_t q = r + u * " + TY + ";\n";
  s += "      " + fold("part[u]", "q") + "\n    }\n  }\n";
  s += "  for (; r < r1; r += " + TY + ")\n";
  s += "    " + fold("part[0]", "r") + "\n";
  s += "  Combine combine;\n#pragma unroll\n  for (int w = " + C + " / 2; w > 0; w /= 2)\n";
  s += "#pragma unroll\n    for (int u = 0; u < w; ++u) part[u] = combine(part[u], part[u + w]);\n";
  s += "  acc = part[0];\n}\n";
  s += "acc = cuarray::block_reduce_y<acc_t, " + TX + ", " + TY + ">(acc, reinterpret_cast<acc_t*>(smem_raw), Combine());\n";
  s += "if (threadIdx.y == 0 && m < M) {\n";
  if (partial_output) s += "  *reinterpret_cast<acc_t*>(out + ((uint64_t)blockIdx.y * M + m) * kSlot) = acc;\n";
  else s += "  *reinterpret_cast<out_t*>(out + out_off) = cuarray_post(acc, count, param);\n";
  s += "}\n}\n";
  return s;
}

SmallVector<int, 8> reduction_axes(std::optional<std::span<const int64_t>> axes, int ndim) {
  SmallVector<int, 8> out;
  if (!axes) {
    for (int i = 0; i < ndim; ++i) out.push_back(i);
    return out;
  }
  for (int64_t a : *axes) {
    if (ndim == 0 && (a == 0 || a == -1)) continue;  // NumPy reduces a 0-d array over "axis 0"
    int ax = normalize_axis(a, ndim);
    if (std::find(out.begin(), out.end(), ax) != out.end()) throw_error(ErrorKind::Value, "duplicate value in 'axis'");
    out.push_back(ax);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void run_reduction(const ReductionSpec& spec, const NDArray& in, std::span<const int> axes, DType compute,
                   const NDArray& out, double param, bool ordered, const NDArray* where,
                   std::span<const NDArray> extra) {
  if (extra.size() + 3 > static_cast<size_t>(kMaxOperands))
    throw_error(ErrorKind::Value, "a reduction reads at most " + std::to_string(kMaxOperands - 2) + " inputs");
  for (const NDArray& e : extra)
    if (e.shape() != in.shape()) throw_error(ErrorKind::Value, "run_reduction: an extra input's shape differs from the input's");
  if (out.size() == 0) return;
  const int device = activate_current_device({&in, &out, where});
  for (const NDArray& e : extra) check_device(e, device);
  // Kept dims: operands (out, in[, where], extra..); reduced dims: operands (in[, where], extra..).
  StridedView kept, red;
  const int kept_first_extra = where ? 3 : 2, red_first_extra = where ? 2 : 1;
  kept.count = kept_first_extra + static_cast<int>(extra.size());
  red.count = red_first_extra + static_cast<int>(extra.size());
  size_t out_dim = 0;
  for (int d = 0; d < in.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) != axes.end()) {
      red.shape.push_back(in.shape()[d]);
      red.strides[0].push_back(in.strides()[d]);
      if (where) red.strides[1].push_back(where->strides()[d]);
      for (size_t j = 0; j < extra.size(); ++j) red.strides[red_first_extra + j].push_back(extra[j].strides()[d]);
    } else {
      kept.shape.push_back(in.shape()[d]);
      kept.strides[0].push_back(out.strides()[out_dim++]);
      kept.strides[1].push_back(in.strides()[d]);
      if (where) kept.strides[2].push_back(where->strides()[d]);
      for (size_t j = 0; j < extra.size(); ++j) kept.strides[kept_first_extra + j].push_back(extra[j].strides()[d]);
    }
  }
  coalesce(kept);
  coalesce(red, !ordered);
  const int64_t m = shape_size(kept.shape), k = shape_size(red.shape);
  const PassArgs pass{static_cast<double>(k), param};

  int64_t min_red = INT64_MAX, min_kept = INT64_MAX;
  for (size_t d = 0; d < red.shape.size(); ++d) min_red = std::min<int64_t>(min_red, std::llabs(red.strides[0][d]));
  for (size_t d = 0; d < kept.shape.size(); ++d) min_kept = std::min<int64_t>(min_kept, std::llabs(kept.strides[1][d]));
  const bool reduce_inner = kept.shape.empty() || min_red <= min_kept;
  const int sms = device_properties(device).multiprocessor_count;
  ReducePlan p = plan(m, std::max<int64_t>(k, 1), reduce_inner, sms);
  const int64_t in_span = static_cast<int64_t>(in.nbytes()) + std::llabs(in.strides().empty() ? 0 : in.strides()[0]);
  p.index64 = m * std::max<int64_t>(k, 1) > 0x7fffffff || in_span > 0x7fffffff || out.nbytes() > 0x7fffffff;
  for (const NDArray& e : extra)
    p.index64 = p.index64 || static_cast<int64_t>(e.nbytes()) +
                                     std::llabs(e.strides().empty() ? 0 : e.strides()[0]) > 0x7fffffff;
  p.masked = where != nullptr;
  const char* mask = where ? where->raw_data() : nullptr;

  if (p.splits == 1) {
    launch_pass(spec, in.raw_data(), in.dtype(), kept, red, compute, out.raw_data(), out.dtype(), false, false, p, pass,
                mask, extra);
    return;
  }
  // Pass 1: partials[s][m] in slots of `slot` bytes; pass 2 reduces the splits (a column
  // reduction over contiguous m).
  const int64_t slot = partial_slot_bytes(spec, compute);
  NDArray partials = empty(Shape{p.splits, m * slot}, DType::UInt8);
  launch_pass(spec, in.raw_data(), in.dtype(), kept, red, compute, partials.raw_data(), compute, false, true, p, pass,
              mask, extra);
  StridedView kept2, red2;
  kept2.count = 2;
  red2.count = 1;
  kept2.shape = kept.shape;
  kept2.strides[0] = kept.strides[0];
  kept2.strides[1] = c_strides(kept.shape, slot);
  red2.shape = Shape{p.splits};
  red2.strides[0] = Strides{m * slot};
  ReducePlan p2 = plan(m, p.splits, m == 1, sms);
  p2.splits = 1;
  p2.chunk = p.splits;
  p2.index64 = p.index64;
  launch_pass(spec, partials.raw_data(), compute, kept2, red2, compute, out.raw_data(), out.dtype(), true, false, p2,
              pass);
}

}  // namespace cuarray::ops
