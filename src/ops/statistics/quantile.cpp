// The quantile family (quantile, percentile, median and their nan-forms) over sorted rows: one
// kernel per (input, result) dtype pair reads each sorted row at the positions NumPy's method
// gives (src/kernels/order_stats.cuh).
#include "ops/statistics/quantile.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/sorting.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/engines/reduction/reduction.hpp"
#include "ops/engines/sort/rows_along.hpp"
#include "ops/engines/sort/sort.hpp"
#include "runtime/launch.hpp"

namespace cuarray {
namespace ops {
namespace {

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

}  // namespace

std::string quantile_source(DType in, DType out) {
  const DType used[] = {in, out};
  std::string s = sorted_rows_prelude(used);
  s += "typedef " + std::string(jit::kernel_type_name(in)) + " value_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(out)) + " out_t;\n";
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
  activate_current_device({&a});
  jit::KernelKey key(jit::KernelFamily::Quantile);
  key.push(static_cast<uint8_t>(a.dtype())).push(static_cast<uint8_t>(out_dtype));
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{ops::quantile_source(a.dtype(), out_dtype), "cuarray_quantile"};
  });
  runtime::launch(kernel, {ops::blocks_covering(out.size()), ops::kBlockThreads}, sorted.raw_data(),
                  static_cast<unsigned long long>(sorted.size() / r.row_len), static_cast<long long>(r.row_len),
                  qd.raw_data(), static_cast<unsigned long long>(std::max<int64_t>(qd.size(), 1)),
                  static_cast<int>(m - ops::kMethods.data()), static_cast<int>(skip_nan), out.raw_data());
  return out;
}

}  // namespace cuarray
