// bincount, digitize and the histograms' binning: a binning kernel (src/kernels/bins.cuh) and the
// scatter-combine engine's add, privatized in shared memory when the bins are few.
#include <string>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/histograms.hpp"
#include "cuarray/reduction.hpp"
#include "ops/histograms/histogram_bins.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/engines/scatter_combine/scatter_combine.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray {
namespace ops {
namespace {


std::string type(DType t) { return std::string(jit::kernel_type_name(t)); }

// The add loop whose three types are `t`.
const ParsedLoop& add_loop(DType t) {
  static const int add = Ufunc::find("add")->index();
  for (const ParsedLoop& loop : parsed_loops(add))
    if (loop.types[0] == t && loop.types[1] == t && loop.types[2] == t) return loop;
  throw_error(ErrorKind::Type, "no add loop for " + std::string(dtype_name(t)));
}

NDArray contiguous(const NDArray& a) { return a.c_contiguous() ? a : a.copy(Order::C); }


// One value of an integer array, read back to the host.
Scalar read_scalar(const NDArray& zero_d) {
  alignas(16) unsigned char bytes[16];
  zero_d.copy_to_host(bytes);
  return Scalar::load(zero_d.dtype(), bytes);
}

}  // namespace

std::string bins_source(BinRule rule, DType x, DType edges, const std::optional<UniformBins>& uniform, bool reversed) {
  std::string s;
  s.reserve(16384);
  SmallVector<DType, 8> used{x, edges, DType::Int64};
  if (uniform) {
    used.push_back(uniform->keep);
    used.push_back(uniform->sub);
    used.push_back(uniform->div);
  }
  jit::append_common_fragments(s, std::span<const DType>(used.data(), used.size()));
  s += kernels::bins_cuh;
  s += "typedef " + type(x) + " x_t;\ntypedef " + type(edges) + " e_t;\n";
  s += "typedef " + type(promote_types(x, edges)) + " cmp_t;\n";
  s += "typedef " + type(uniform ? uniform->keep : DType::Float64) + " keep_t;\n";
  s += "typedef " + type(uniform ? uniform->sub : DType::Float64) + " sub_t;\n";
  s += "typedef " + type(uniform ? uniform->div : DType::Float64) + " div_t;\n";
  s += "extern \"C\" __global__ void " + std::string(kBinsKernelName) +
       "(const x_t* x, const e_t* edges, long long nedges, long long* out, unsigned long long n, const keep_t first_keep, "
       "const keep_t last_keep, const sub_t first_sub, const div_t denom) {\n";
  s += "for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;"
       " i += (unsigned long long)gridDim.x * blockDim.x) {\n";
  s += "  const x_t v = x[i];\n";
  const std::string E = reversed ? "cuarray::ReversedEdges<e_t>{edges, nedges}" : "edges";
  switch (rule) {
    case BinRule::Uniform:
      s += "  out[i] = cuarray::uniform_bin<keep_t, sub_t, div_t>(edges, nedges - 1, v, first_keep, last_keep, "
           "first_sub, denom);\n";
      break;
    case BinRule::HistogramSearch:
      s += "  out[i] = cuarray::histogram_search_bin<cmp_t>(edges, nedges, v);\n";
      break;
    case BinRule::DigitizeLeft:
    case BinRule::DigitizeRight: {
      const std::string right = rule == BinRule::DigitizeRight ? "true" : "false";
      const std::string search = "cuarray::search_sorted<cmp_t, " + right + ">(" + E + ", nedges, v)";
      s += "  out[i] = " + (reversed ? "nedges - " + search : search) + ";\n";
      break;
    }
  }
  s += "}\n}\n";
  return s;
}

namespace {

// Runs the binning kernel over contiguous `x` into a new int64 array of x's shape.
NDArray run_bins(BinRule rule, const NDArray& x_any, const NDArray& edges_any, const std::optional<UniformBins>& uniform,
                 bool reversed) {
  const NDArray x = contiguous(x_any), edges = contiguous(edges_any);
  NDArray out = empty(x.shape(), DType::Int64);
  const int64_t n = x.size();
  if (n == 0) return out;
  activate_current_device({&x, &edges});
  jit::KernelKey key(jit::KernelFamily::HistogramBins);
  key.push(static_cast<uint8_t>(rule)).push(reversed);
  key.push(static_cast<uint8_t>(x.dtype())).push(static_cast<uint8_t>(edges.dtype()));
  if (uniform) key.push(static_cast<uint8_t>(uniform->keep)).push(static_cast<uint8_t>(uniform->sub)).push(static_cast<uint8_t>(uniform->div));
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{bins_source(rule, x.dtype(), edges.dtype(), uniform, reversed), kBinsKernelName};
  });
  runtime::KernelArgs args(/*index64=*/true);
  args.value(x.raw_data()).value(edges.raw_data()).value<long long>(edges.size()).value(out.raw_data());
  args.value<unsigned long long>(static_cast<unsigned long long>(n));
  // The uniform rule's four scalars in its dtypes (the kernel's keep_t, sub_t, div_t: float64 for
  // the other rules, which ignore them).
  const Scalar zero = Scalar::from_double(0);
  const std::pair<const Scalar&, DType> scalars[] = {
      {uniform ? uniform->first_keep : zero, uniform ? uniform->keep : DType::Float64},
      {uniform ? uniform->last_keep : zero, uniform ? uniform->keep : DType::Float64},
      {uniform ? uniform->first_sub : zero, uniform ? uniform->sub : DType::Float64},
      {uniform ? uniform->denom : zero, uniform ? uniform->div : DType::Float64}};
  for (const auto& [value, dtype] : scalars) {
    alignas(16) unsigned char bytes[16];
    value.store_as(dtype, bytes);
    args.bytes(bytes, itemsize(dtype));
  }
  runtime::launch(kernel, {grid_for(n), kBlockThreads}, args.params());
  return out;
}

}  // namespace
}  // namespace ops

NDArray count_bins(const NDArray& bins, int64_t nbins, const NDArray* weights) {
  const DType t = !weights ? DType::Int64 : is_complex(weights->dtype()) ? DType::Complex128 : DType::Float64;
  NDArray out = zeros(Shape{nbins}, t);
  const NDArray flat = bins.ndim() == 1 ? bins : bins.reshape(Shape{bins.size()});
  ops::ScatterSelection sel;
  sel.base = out.raw_data();
  sel.shape = flat.shape();
  sel.strides = Strides{0};
  sel.indices.push_back(ops::ScatterIndex{flat, flat.strides(), 0, nbins, out.itemsize()});
  static const int add = Ufunc::find("add")->index();
  Operand value;
  NDArray flat_weights;
  if (weights) {
    flat_weights = weights->ndim() == 1 ? *weights : weights->reshape(Shape{weights->size()});
    value = Operand::of(flat_weights);
  } else {
    Scalar one = Scalar::from_int(1);
    one.dtype = DType::Int64;
    value = Operand::of(one);
  }
  ops::scatter_combine(add, ops::add_loop(t), out, sel, &value, ops::OutOfRange::Drop);
  return out;
}

NDArray bincount(const NDArray& x, const NDArray* weights, int64_t minlength) {
  if (x.ndim() == 0) throw_error(ErrorKind::Value, "object of too small depth for desired array");
  if (x.ndim() > 1) throw_error(ErrorKind::Value, "object too deep for desired array");
  if (x.dtype() != DType::Bool && !is_integer(x.dtype()))
    throw_error(ErrorKind::Type, "Cannot cast array data from " + dtype_repr(x.dtype()) +
                                     " to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw_error(ErrorKind::Value, "'minlength' must not be negative");
  // NumPy returns zeros of intp for an empty list before it looks at the weights at all (their
  // dtype, length and shape): int64, even with float weights.
  if (x.size() == 0) return zeros(Shape{minlength}, DType::Int64);
  if (weights) {
    if (is_complex(weights->dtype()))
      throw_error(ErrorKind::Type, "Cannot cast array data from " + dtype_repr(weights->dtype()) +
                                       " to dtype('float64') according to the rule 'safe'");
    if (weights->ndim() != 1 || weights->size() != x.size())
      throw_error(ErrorKind::Value, "The weights and list don't have the same length.");
  }
  int64_t nbins = minlength;
  if (x.size() > 0) {
    // One small read: the smallest value (negatives are an error) and the largest (the length).
    static const Reduction& min_reduction = *Reduction::find("min");
    static const Reduction& max_reduction = *Reduction::find("max");
    const Scalar lo = ops::read_scalar(reduce(min_reduction, x));
    const Scalar hi = ops::read_scalar(reduce(max_reduction, x));
    const bool negative = lo.kind == Scalar::Kind::Int && !lo.int_is_unsigned && lo.i < 0;
    if (negative) throw_error(ErrorKind::Value, "'list' argument must have no negative elements");
    const int64_t top = hi.kind == Scalar::Kind::Bool ? (hi.b ? 1 : 0) : hi.int_is_unsigned ? INT64_MAX : hi.i;
    if (top == INT64_MAX) throw_error(ErrorKind::Value, "maximum allowed size exceeded");
    nbins = std::max(nbins, top + 1);
  }
  return count_bins(x, nbins, weights);
}

NDArray digitize(const NDArray& x, const NDArray& bins, bool right, bool decreasing) {
  if (bins.ndim() != 1) throw_error(ErrorKind::Value, "object too deep for desired array");
  if (is_complex(x.dtype())) throw_error(ErrorKind::Type, "x may not be complex");
  return ops::run_bins(right ? ops::BinRule::DigitizeLeft : ops::BinRule::DigitizeRight, x, bins, std::nullopt,
                       decreasing);
}

NDArray histogram_bins(const NDArray& a, const NDArray& edges, const std::optional<UniformBins>& uniform) {
  const NDArray flat = a.ndim() == 1 ? a : a.reshape(Shape{a.size()});
  return ops::run_bins(uniform ? ops::BinRule::Uniform : ops::BinRule::HistogramSearch, flat, edges, uniform, false);
}

}  // namespace cuarray
