#include "ops/ufunc/ufunc_reduceat.hpp"

#include <string>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc_methods.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray {
namespace ops {
namespace {


// NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src), in the accumulator type:
// below 8 elements in order from -0.0, up to 128 eight accumulators, beyond that halves split at
// a multiple of 8. NumPy recurses; here the recursion is an explicit stack (a recursive device
// function overflows the per-thread stack on long segments), evaluated in the same order.
constexpr const char* kPairwiseSum = R"(
template <class Acc, class Load>
__device__ Acc cuarray_pairwise_leaf(const char* p, long long n, long long stride, Load load) {
  if (n < 8) {
    Acc res = -Acc(0);
    for (long long i = 0; i < n; ++i) res += load(p + i * stride);
    return res;
  }
  Acc r[8];
  for (int j = 0; j < 8; ++j) r[j] = load(p + j * stride);
  long long i = 8;
  for (; i < n - (n % 8); i += 8)
    for (int j = 0; j < 8; ++j) r[j] += load(p + (i + j) * stride);
  Acc res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; ++i) res += load(p + i * stride);
  return res;
}

template <class Acc, class Load>
__device__ Acc cuarray_pairwise_sum(const char* p, long long n, long long stride, Load load) {
  struct Frame {
    const char* p;
    long long n, half;
    Acc left;
    bool left_done;  // the left half's sum is in `left`; the right half is being summed
  };
  Frame st[64];  // halving from 2**63 elements takes fewer levels
  int top = 0;
  st[0] = Frame{p, n, 0, Acc(0), false};
  for (;;) {
    Frame& f = st[top];
    if (f.n > 128) {  // descend into the left half
      f.half = f.n / 2;
      f.half -= f.half % 8;
      st[++top] = Frame{f.p, f.half, 0, Acc(0), false};
      continue;
    }
    Acc value = cuarray_pairwise_leaf<Acc>(f.p, f.n, stride, load);
    // Hand the value up: a parent still on its left half keeps it and descends right; one on its
    // right half adds it to its left and passes the sum further up.
    for (;;) {
      if (top == 0) return value;
      Frame& parent = st[--top];
      if (!parent.left_done) {
        parent.left = value;
        parent.left_done = true;
        st[++top] = Frame{parent.p + parent.half * stride, parent.n - parent.half, 0, Acc(0), false};
        break;
      }
      value = parent.left + value;
    }
  }
}
)";
}  // namespace

std::string reduceat_source(const ParsedLoop& loop, DType in, DType out, int rank, bool pairwise) {
  std::string s;
  s.reserve(16384);
  const DType used[] = {in, out, loop.types[0], loop.types[1], loop.types[2]};
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;
  const std::string R = std::to_string(rank);
  s += "typedef " + std::string(jit::kernel_type_name(in)) + " s_in_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(out)) + " s_out_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(loop.types[0])) + " in0_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(loop.types[1])) + " in1_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(loop.types[2])) + " out0_t;\n";
  s += "__device__ __forceinline__ void cuarray_op(const in0_t in0, const in1_t in1, out0_t& out0) {\n" +
       std::string(loop.expr) + "\n}\n";
  if (pairwise) s += kPairwiseSum;
  s += "extern \"C\" __global__ void " + std::string(kReduceatKernelName) +
       "(const char* in, char* out, const long long* starts, long long nseg, long long axis_len, "
       "long long axis_stride, unsigned long long n, cuarray::Array<unsigned long long, " + R +
       "> shape, cuarray::Array<long long, " + R + "> in_strides, cuarray::Array<long long, " + R +
       "> out_strides, int axis) {\n";
  s += "for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;"
       " i += (unsigned long long)gridDim.x * blockDim.x) {\n";
  s += "  long long in_off = 0, out_off = 0, seg = 0;\n";
  s += "  cuarray::for_each_dim_index<unsigned long long, " + R + ">(i, shape, [&](int d, unsigned long long c) {\n"
       "    if (d == axis) seg = (long long)c;\n    else in_off += (long long)c * in_strides.v[d];\n"
       "    out_off += (long long)c * out_strides.v[d];\n  });\n";
  // NumPy's rule: a[start:next] when start < next, else the single element a[start]; the last
  // segment runs to the end.
  s += "  const long long start = starts[seg];\n"
       "  long long stop = seg + 1 < nseg ? starts[seg + 1] : axis_len;\n"
       "  if (stop <= start) stop = start + 1;\n";
  s += "  const char* p = in + in_off;\n"
       "  in0_t acc = cuarray_cast<in0_t>(*reinterpret_cast<const s_in_t*>(p + start * axis_stride));\n";
  if (pairwise) {
    s += "  typedef cuarray::compute_t<in0_t> sum_t;\n"
         "  const sum_t rest = cuarray_pairwise_sum<sum_t>(p + (start + 1) * axis_stride, stop - start - 1, axis_stride,"
         " [](const char* q) { return sum_t(cuarray_cast<in1_t>(*reinterpret_cast<const s_in_t*>(q))); });\n"
         "  acc = in0_t(sum_t(acc) + rest);\n";
  } else {
    s += "  for (long long j = start + 1; j < stop; ++j) {\n"
         "    out0_t r;\n"
         "    cuarray_op(acc, cuarray_cast<in1_t>(*reinterpret_cast<const s_in_t*>(p + j * axis_stride)), r);\n"
         "    acc = cuarray_cast<in0_t>(r);\n  }\n";
  }
  s += "  *reinterpret_cast<s_out_t*>(out + out_off) = cuarray_cast<s_out_t>(acc);\n}\n}\n";
  return s;
}

}  // namespace ops

NDArray ufunc_reduceat(const Ufunc& u, const NDArray& a, std::span<const int64_t> indices, int64_t axis,
                       std::optional<DType> dtype) {
  const std::string name(u.name());
  if (u.nin() != 2) throw_error(ErrorKind::Value, "reduceat only supported for binary functions");
  if (u.nout() != 1) throw_error(ErrorKind::Value, "reduceat only supported for functions returning a single value");
  if (a.ndim() == 0) throw_error(ErrorKind::Type, "cannot reduceat on a scalar");
  const int ax = normalize_axis(axis, a.ndim());
  const int64_t len = a.shape()[ax];
  for (int64_t i : indices)
    if (i < 0 || i >= len)
      throw_error(ErrorKind::Index, "index " + std::to_string(i) + " out-of-bounds in " + name + ".reduceat [0, " +
                                        std::to_string(len) + ")");

  const ops::ParsedLoop& loop = ops::resolve_reduce_like(u.index(), a.dtype(), dtype, std::nullopt);

  Shape shape = a.shape();
  shape[ax] = static_cast<int64_t>(indices.size());
  NDArray out = empty(shape, loop.types[2]);
  const int64_t n = out.size();
  if (n == 0) return out;
  NDArray starts = from_host(indices.data(), Shape{static_cast<int64_t>(indices.size())}, DType::Int64);

  const int device = a.device();
  runtime::activate(device);
  const int rank = a.ndim();
  jit::KernelKey key(jit::KernelFamily::Reduceat);
  key.push(static_cast<uint8_t>(u.index())).push(static_cast<uint8_t>(u.index() >> 8));
  for (int k = 0; k < 3; ++k) key.push(static_cast<uint8_t>(loop.types[k]));
  key.push(static_cast<uint8_t>(a.dtype())).push(static_cast<uint8_t>(out.dtype())).push(static_cast<uint8_t>(rank));
  const bool pairwise =
      ops::ufunc_defs()[u.index()].has(ops::kPairwiseFloatSum) && kind(loop.types[2]) == DTypeKind::Float;
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{ops::reduceat_source(loop, a.dtype(), out.dtype(), rank, pairwise),
                             ops::kReduceatKernelName};
  });

  // The kernel's index math is 64-bit throughout (its Arrays are of long long).
  SmallVector<int64_t, 8> in_strides(a.strides().begin(), a.strides().end());
  in_strides[ax] = 0;
  const size_t r = static_cast<size_t>(rank);
  runtime::KernelArgs args(/*index64=*/true);
  args.value(a.raw_data()).value(out.raw_data()).value(starts.raw_data());
  args.value<long long>(static_cast<long long>(indices.size())).value<long long>(len).value<long long>(a.strides()[ax]);
  args.value<unsigned long long>(static_cast<unsigned long long>(n));
  args.array(shape, r, 1).array(in_strides, r, 0).array(out.strides(), r, 0).value<int>(ax);
  runtime::launch(kernel, {ops::grid_for(n), ops::kBlockThreads}, args.params());
  return out;
}

}  // namespace cuarray
