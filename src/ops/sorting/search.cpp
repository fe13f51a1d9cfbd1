// numpy.searchsorted and the quantile family (quantile, percentile, median and their nan-forms)
// over sorted rows: one kernel per (input, result) dtype pair reads the sorted rows at the indices
// NumPy's method gives (src/kernels/order_stats.cuh).
#include <algorithm>
#include <cstdint>
#include <array>
#include <limits>
#include <string>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/context.hpp"
#include "runtime/launch_batch.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/sorting.hpp"
#include "jit/kernel_source.hpp"
#include "ops/sorting/search.hpp"
#include "ops/engines/reduction/reduction.hpp"
#include "ops/engines/sort/sort.hpp"
#include "ops/engines/sort/rows_along.hpp"

namespace cuarray {
namespace ops {
namespace {

constexpr uint8_t kSearchSortedKeyKind = static_cast<uint8_t>(jit::KernelFamily::SearchSorted);
constexpr uint8_t kQuantileKeyKind = static_cast<uint8_t>(jit::KernelFamily::Quantile);
constexpr unsigned kThreads = 256;

// In QuantileMethod's order (order_stats.cuh); the discrete ones return an element.
struct MethodDef {
  std::string_view name;
  bool discrete;
};
constexpr std::array<MethodDef, 14> kMethods = {{
    {"linear", false}, {"lower", true}, {"higher", true}, {"nearest", true}, {"midpoint", false},
    {"inverted_cdf", true}, {"averaged_inverted_cdf", false}, {"closest_observation", true},
    {"interpolated_inverted_cdf", false}, {"hazen", false}, {"weibull", false}, {"median_unbiased", false},
    {"normal_unbiased", false}, {"median", false},
}};

const MethodDef* find_method(std::string_view name) {
  for (const MethodDef& m : kMethods)
    if (m.name == name) return &m;
  return nullptr;
}

std::string prelude(std::span<const DType> dtypes) {
  std::string s;
  s.reserve(32768);
  append_common_fragments(s, dtypes);
  s += kernels::sort_cuh;
  s += kernels::order_stats_cuh;
  return s;
}

unsigned blocks_for(int64_t n) {
  return static_cast<unsigned>(std::clamp<int64_t>((n + kThreads - 1) / kThreads, 1, 0x7fffffff));
}

}  // namespace

std::string searchsorted_source(DType dtype, SearchOutput output, bool index64) {
  const DType used[] = {dtype};
  std::string s = prelude(used);
  s += "typedef " + std::string(kernel_type_name(dtype)) + " value_t;\n";
  s += index64 ? "typedef long long pos_t;\n" : "typedef int pos_t;\n";
  s += output == SearchOutput::Membership ? "typedef bool out_t;\n" : "typedef long long out_t;\n";
  s += "extern \"C\" __global__ void cuarray_searchsorted(const value_t* __restrict__ a, "
       "const long long* __restrict__ sorter, pos_t n, const value_t* __restrict__ v, out_t* __restrict__ out, "
       "unsigned long long count, int flag) {\n"
       "  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
       "  if (i >= count) return;\n";
  switch (output) {
    case SearchOutput::Membership:  // flag: invert
      s += "  out[i] = cuarray::sorted_contains<value_t, pos_t>(a, n, v[i]) != (flag != 0);\n}\n";
      break;
    case SearchOutput::Position:
    case SearchOutput::SorterPosition: {  // flag: side='right'
      const char* sorted = output == SearchOutput::SorterPosition ? "true" : "false";
      s += std::string("  out[i] = flag ? cuarray::search_sorted<value_t, true, pos_t, ") + sorted +
           ">(a, sorter, n, v[i])\n"
           "               : cuarray::search_sorted<value_t, false, pos_t, " + sorted + ">(a, sorter, n, v[i]);\n}\n";
      break;
    }
  }
  return s;
}

std::string quantile_source(DType in, DType out) {
  const DType used[] = {in, out};
  std::string s = prelude(used);
  s += "typedef " + std::string(kernel_type_name(in)) + " value_t;\n";
  s += "typedef " + std::string(kernel_type_name(out)) + " out_t;\n";
  // out[k][r]: quantile q[k] of sorted row r.
  s += "extern \"C\" __global__ void cuarray_quantile(const value_t* sorted, unsigned long long rows, long long len, "
       "const double* q, unsigned long long nq, int method, int skip_nan, out_t* out) {\n"
       "  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
       "  if (i >= rows * nq) return;\n"
       "  const unsigned long long r = i % rows, k = i / rows;\n"
       "  out[i] = cuarray::row_quantile<value_t, out_t>(sorted + r * len, len, q[k], "
       "(cuarray::QuantileMethod)method, skip_nan != 0);\n}\n";
  return s;
}

}  // namespace ops

bool is_quantile_method(std::string_view method) { return ops::find_method(method) != nullptr; }

bool is_discrete_quantile_method(std::string_view method) {
  const ops::MethodDef* m = ops::find_method(method);
  return m && m->discrete;
}

namespace {

// One search kernel launch: `out` (v's shape) gets what `output` says for each element of v;
// `flag` is side='right' for positions, invert for membership.
void search(const NDArray& a, const NDArray& v, ops::SearchOutput output, int flag, const NDArray* sorter,
            NDArray& out) {
  const NDArray sa = a.c_contiguous() ? a : a.copy(Order::C);
  const NDArray sv = v.c_contiguous() ? v : v.copy(Order::C);
  runtime::activate(a.device());
  const bool index64 = a.size() > INT32_MAX;
  jit::KernelKey key;
  key.push(ops::kSearchSortedKeyKind).push(static_cast<uint8_t>(a.dtype())).push(static_cast<uint8_t>(output));
  key.push(index64);
  CUfunction f = jit::get_kernel(key, [&] {
    return jit::KernelSource{ops::searchsorted_source(a.dtype(), output, index64), "cuarray_searchsorted"};
  });
  const char* pa = sa.raw_data();
  const char* ps = sorter ? sorter->raw_data() : nullptr;
  long long n64 = a.size();
  int n32 = static_cast<int>(std::min<int64_t>(a.size(), INT32_MAX));
  void* n = index64 ? static_cast<void*>(&n64) : &n32;
  const char* pv = sv.raw_data();
  char* po = out.raw_data();
  unsigned long long count = static_cast<unsigned long long>(out.size());
  void* args[] = {&pa, &ps, n, &pv, &po, &count, &flag};
  runtime::launch(f, ops::blocks_for(out.size()), ops::kThreads, args);
}

void check_search_operands(const NDArray& a, const NDArray& v, const char* what) {
  if (a.ndim() != 1) throw_error(ErrorKind::Value, "object too deep for desired array");
  if (a.dtype() != v.dtype()) throw_error(ErrorKind::Type, std::string(what) + ": a and v must share a dtype");
}

}  // namespace

NDArray in_sorted(const NDArray& a, const NDArray& v, bool invert) {
  check_search_operands(a, v, "in_sorted");
  NDArray out = empty(v.shape(), DType::Bool);
  if (out.size() == 0) return out;
  if (a.size() == 0) {
    out.fill(Scalar::from_bool(invert));
    return out;
  }
  search(a, v, ops::SearchOutput::Membership, invert, nullptr, out);
  return out;
}

NDArray searchsorted(const NDArray& a, const NDArray& v, bool right, const NDArray* sorter) {
  check_search_operands(a, v, "searchsorted");
  NDArray out = empty(v.shape(), DType::Int64);
  if (out.size() == 0) return out;
  NDArray ss;
  if (sorter) {
    if (sorter->ndim() != 1 || sorter->size() != a.size())
      throw_error(ErrorKind::Value, "sorter.size must equal a.size");
    ss = sorter->astype(DType::Int64, false).copy(Order::C);
    if (a.size() > 0) {
      // NumPy checks every sorter index: one min and one max, read back.
      int64_t lo = 0, hi = 0;
      reduce("min", ss).copy_to_host(&lo);
      reduce("max", ss).copy_to_host(&hi);
      if (lo < 0 || hi >= a.size()) throw_error(ErrorKind::Value, "Sorter index out of range.");
    }
  }
  search(a, v, sorter ? ops::SearchOutput::SorterPosition : ops::SearchOutput::Position, right, sorter ? &ss : nullptr,
         out);
  return out;
}

NDArray quantile(const NDArray& a, const NDArray& q, std::optional<std::span<const int64_t>> axes,
                 std::string_view method, bool skip_nan, DType out_dtype) {
  const ops::MethodDef* m = ops::find_method(method);
  if (!m) throw_error(ErrorKind::Value, "'" + std::string(method) + "' is not a valid method");
  const auto reduced = ops::reduction_axes(axes, a.ndim());
  const ops::RowsAlong r = ops::rows_along(a, std::span<const int>(reduced.data(), reduced.size()));
  Shape out_shape = q.shape();
  for (int d = 0; d < r.kept; ++d) out_shape.push_back(r.rows.shape()[d]);
  NDArray out = empty(out_shape, out_dtype);
  if (out.size() == 0) return out;
  if (r.row_len == 0) {
    if (m->name != "median") throw_error(ErrorKind::Index, "index -1 is out of bounds for axis 0 with size 0");
    out.fill(Scalar::from_double(std::numeric_limits<double>::quiet_NaN()));  // NumPy's mean of nothing
    return out;
  }
  NDArray sorted = empty(r.rows.shape(), a.dtype());
  ops::sort_rows(r.rows, r.row_len, &sorted, nullptr);
  const NDArray qd = q.astype(DType::Float64, false).copy(Order::C);
  runtime::activate(a.device());
  jit::KernelKey key;
  key.push(ops::kQuantileKeyKind).push(static_cast<uint8_t>(a.dtype())).push(static_cast<uint8_t>(out_dtype));
  CUfunction f = jit::get_kernel(key, [&] {
    return jit::KernelSource{ops::quantile_source(a.dtype(), out_dtype), "cuarray_quantile"};
  });
  const char* ps = sorted.raw_data();
  unsigned long long rows = static_cast<unsigned long long>(sorted.size() / r.row_len);
  long long len = r.row_len;
  const char* pq = qd.raw_data();
  unsigned long long nq = static_cast<unsigned long long>(std::max<int64_t>(qd.size(), 1));
  int method_id = static_cast<int>(m - ops::kMethods.data());
  int skip = skip_nan;
  char* po = out.raw_data();
  void* args[] = {&ps, &rows, &len, &pq, &nq, &method_id, &skip, &po};
  runtime::launch(f, ops::blocks_for(out.size()), ops::kThreads, args);
  return out;
}

}  // namespace cuarray
