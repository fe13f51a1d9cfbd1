// numpy.searchsorted, and isin's membership test: one kernel reads the sorted 1-D array
// (src/kernels/order_stats.cuh) at each value's binary-search position.
#include "ops/sorting/search.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/sorting.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/engines/sort/sort.hpp"
#include "runtime/launch.hpp"

namespace cuarray {
namespace ops {

std::string searchsorted_source(DType dtype, SearchOutput output, bool index64) {
  const DType used[] = {dtype};
  std::string s = sorted_rows_prelude(used);
  s += "typedef " + std::string(jit::kernel_type_name(dtype)) + " value_t;\n";
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

}  // namespace ops

namespace {

// One search kernel launch: `out` (v's shape) gets what `output` says for each element of v;
// `flag` is side='right' for positions, invert for membership.
void search(const NDArray& a, const NDArray& v, ops::SearchOutput output, int flag, const NDArray* sorter,
            NDArray& out) {
  activate_current_device({&a, &v, sorter, &out});
  const NDArray sa = a.c_contiguous() ? a : a.copy(Order::C);
  const NDArray sv = v.c_contiguous() ? v : v.copy(Order::C);
  const bool index64 = a.size() > INT32_MAX;
  jit::KernelKey key(jit::KernelFamily::SearchSorted);
  key.push(static_cast<uint8_t>(a.dtype())).push(static_cast<uint8_t>(output));
  key.push(index64);
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{ops::searchsorted_source(a.dtype(), output, index64), "cuarray_searchsorted"};
  });
  const char* sorter_data = sorter ? sorter->raw_data() : nullptr;
  const auto count = static_cast<unsigned long long>(out.size());
  const runtime::LaunchConfig config{ops::blocks_covering(out.size()), ops::kBlockThreads};
  // The kernel's pos_t: the length in 32 bits when it fits.
  if (index64)
    runtime::launch(kernel, config, sa.raw_data(), sorter_data, static_cast<long long>(a.size()), sv.raw_data(),
                    out.raw_data(), count, flag);
  else
    runtime::launch(kernel, config, sa.raw_data(), sorter_data, static_cast<int>(a.size()), sv.raw_data(),
                    out.raw_data(), count, flag);
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
      static const Reduction& min_reduction = *Reduction::find("min");
      static const Reduction& max_reduction = *Reduction::find("max");
      int64_t lo = 0, hi = 0;
      reduce(min_reduction, ss).copy_to_host(&lo);
      reduce(max_reduction, ss).copy_to_host(&hi);
      if (lo < 0 || hi >= a.size()) throw_error(ErrorKind::Value, "Sorter index out of range.");
    }
  }
  search(a, v, sorter ? ops::SearchOutput::SorterPosition : ops::SearchOutput::Position, right, sorter ? &ss : nullptr,
         out);
  return out;
}

}  // namespace cuarray
