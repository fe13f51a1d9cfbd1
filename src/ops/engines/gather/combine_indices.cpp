#include "ops/engines/gather/combine_indices.hpp"

#include <vector>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"

namespace cuarray::ops {
namespace {

constexpr int64_t kInt32Max = 0x7fffffff;

runtime::Kernel combine_kernel(std::span<const DType> dtypes, int rank, bool index64, bool out64) {
  jit::KernelKey key(jit::KernelFamily::CombineIndices);
  key.push(static_cast<uint8_t>(rank));
  key.push(index64).push(out64).push(static_cast<uint8_t>(dtypes.size()));
  for (DType t : dtypes) key.push(static_cast<uint8_t>(t));
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{combine_indices_source(dtypes, rank, index64, out64), "cuarray_combine_indices"};
  });
}

}  // namespace

std::string combine_indices_source(std::span<const DType> index_dtypes, int rank, bool index64, bool out64) {
  std::string s;
  s.reserve(12288);
  jit::append_common_fragments(s, index_dtypes);
  s += kernels::elementwise_cuh;
  s += jit::index_typedefs(index64);
  s += out64 ? "typedef long long out_t;\n" : "typedef int out_t;\n";
  const int k = static_cast<int>(index_dtypes.size());
  s += "constexpr int R = " + std::to_string(rank) + ";\nconstexpr int K = " + std::to_string(k) + ";\n";
  std::string params, each;
  for (int i = 0; i < k; ++i) {
    const std::string name = "idx" + std::to_string(i);
    params += (i ? ", const char* " : "const char* ") + name;
    each += " X(" + std::to_string(i) + ", " + std::string(jit::kernel_type_name(index_dtypes[i])) + ", " + name + ")";
  }
  s += "#define CUARRAY_INDEX_PARAMS " + params + "\n#define CUARRAY_FOR_EACH_INDEX(X)" + each + "\n";
  s += kernels::combine_indices_cuh;
  return s;
}

NDArray combine_indices(std::span<const NDArray> indices, std::span<const int64_t> lens, unsigned* error) {
  const int k = static_cast<int>(indices.size());
  if (k < 1 || k > kMaxCombinedIndices)
    throw_error(ErrorKind::NotImplemented, "indexing with more than " + std::to_string(kMaxCombinedIndices) +
                                               " index arrays in one key is not supported");
  const Shape& shape = indices[0].shape();
  int64_t group = 1;
  for (int64_t len : lens) group *= len;
  const bool out64 = group > kInt32Max;
  NDArray out = empty(shape, out64 ? DType::Int64 : DType::Int32);
  const int64_t n = out.size();
  if (n == 0) return out;
  runtime::activate(out.device());
  StridedView v;
  v.count = k + 1;
  v.shape = shape;
  v.strides[0] = out.strides();  // C-contiguous: coalescing keeps C order, so out[o] is linear
  for (int i = 0; i < k; ++i) v.strides[i + 1] = indices[i].strides();
  coalesce(v);
  const int rank = std::max<int>(1, static_cast<int>(v.shape.size()));
  const bool index64 = needs_index64(v, n) || group > kInt32Max;

  std::vector<int64_t> mults(static_cast<size_t>(k));
  int64_t acc = 1;
  for (int i = k - 1; i >= 0; --i) {
    mults[i] = acc;
    acc *= lens[i];
  }
  std::vector<DType> dtypes;
  runtime::KernelArgs args(index64);
  args.value(out.raw_data());
  for (const NDArray& a : indices) {
    dtypes.push_back(a.dtype());
    args.value(static_cast<const char*>(a.raw_data()));
  }
  args.index(n).array(v.shape, rank, 1);
  std::vector<int64_t> strides;
  for (int i = 0; i < k; ++i)
    for (int d = 0; d < rank; ++d) strides.push_back(d < static_cast<int>(v.shape.size()) ? v.strides[i + 1][d] : 0);
  args.array(strides, strides.size(), 0).array(lens, k, 1).array(mults, k, 0);
  args.value(error);
  const runtime::Kernel f = combine_kernel(dtypes, rank, index64, out64);
  runtime::launch(f, {grid_for(n), kBlockThreads}, args.params());
  return out;
}

}  // namespace cuarray::ops
