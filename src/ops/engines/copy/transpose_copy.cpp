#include "ops/engines/copy/transpose_copy.hpp"

#include <cstdlib>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "jit/kernel_source.hpp"

namespace cuarray::ops {
namespace {

constexpr int64_t kTile = 32;  // transpose.cuh's kTile
constexpr int kRows = 8;       // transpose.cuh's kRows
// Below this extent along either tile dim most of a tile's threads idle, and the elementwise copy
// (whose warps then touch few, short runs) is as good.
constexpr int64_t kMinTileExtent = 16;
constexpr int64_t kMaxGrid = 0x7fffffff;

runtime::Kernel transpose_kernel(DType in, DType out, int batch_rank, bool index64) {
  jit::KernelKey key(jit::KernelFamily::TransposeCopy);
  // A plain copy depends only on the element size.
  if (in == out) key.push(uint8_t{0}).push(static_cast<uint8_t>(itemsize(in)));
  else key.push(uint8_t{1}).push(static_cast<uint8_t>(in)).push(static_cast<uint8_t>(out));
  key.push(static_cast<uint8_t>(batch_rank)).push(index64);
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{transpose_source(in, out, batch_rank, index64), "cuarray_transpose_copy"};
  });
}

}  // namespace

std::string transpose_source(DType in, DType out, int batch_rank, bool index64) {
  std::string s;
  s.reserve(in == out ? 4096 : 32768);
  if (in == out) {
    s += kernels::prelude_cuh;
    s += kernels::elementwise_cuh;
    s += jit::word_typedef(static_cast<int>(itemsize(out)));
    s += "typedef word_t in_t;\ntypedef word_t out_t;\n";
    s += "__device__ __forceinline__ out_t transpose_convert(const in_t& v) { return v; }\n";
  } else {
    const DType used[] = {in, out};
    jit::append_common_fragments(s, used);
    s += kernels::elementwise_cuh;
    s += jit::word_typedef(static_cast<int>(itemsize(out)));
    s += "typedef " + std::string(jit::kernel_type_name(in)) + " in_t;\n";
    s += "typedef " + std::string(jit::kernel_type_name(out)) + " out_t;\n";
    s += "__device__ __forceinline__ out_t transpose_convert(const in_t& v) { return cuarray_cast<out_t>(v); }\n";
  }
  s += jit::index_typedefs(index64);
  s += "constexpr int RB = " + std::to_string(batch_rank) + ";\n";
  s += kernels::transpose_cuh;
  return s;
}

bool try_transpose_copy(const NDArray& src, const NDArray& dst) {
  const int64_t n = dst.size();
  if (n == 0 || dst.ndim() < 2 || src.device() != dst.device()) return false;
  StridedView v;
  v.count = 2;
  v.shape = dst.shape();
  v.strides[0] = dst.strides();
  v.strides[1] = broadcast_strides(src.shape(), src.strides(), dst.shape());
  coalesce(v);  // dst decides the order: its fastest dim is last
  const int rank = static_cast<int>(v.shape.size());
  if (rank < 2) return false;

  // The tile: dim b, where dst runs fastest, and dim a, where src runs fastest (a broadcast dim,
  // stride 0, reads one element over and over and needs no tile).
  const int b = rank - 1;
  int a = -1;
  for (int d = 0; d < rank; ++d) {
    const int64_t s = std::llabs(v.strides[1][d]);
    if (s != 0 && (a < 0 || s < std::llabs(v.strides[1][a]))) a = d;
  }
  if (a < 0 || a == b || std::llabs(v.strides[1][b]) <= std::llabs(v.strides[1][a])) return false;
  if (v.shape[a] < kMinTileExtent || v.shape[b] < kMinTileExtent) return false;

  Shape batch_shape;
  Strides src_batch, dst_batch;
  for (int d = 0; d < rank; ++d) {
    if (d == a || d == b) continue;
    batch_shape.push_back(v.shape[d]);
    src_batch.push_back(v.strides[1][d]);
    dst_batch.push_back(v.strides[0][d]);
  }
  const int batch_rank = std::max<int>(1, static_cast<int>(batch_shape.size()));
  const int64_t tiles_a = (v.shape[a] + kTile - 1) / kTile;
  const int64_t tiles_b = (v.shape[b] + kTile - 1) / kTile;
  const int64_t ntiles = tiles_a * tiles_b * shape_size(batch_shape);
  const bool index64 = needs_index64(v, n);  // (every tile holds an element: ntiles <= n)

  runtime::activate(dst.device());
  const runtime::Kernel f = transpose_kernel(src.dtype(), dst.dtype(), batch_rank, index64);
  runtime::KernelArgs args(index64);
  args.value(static_cast<const char*>(src.raw_data())).value(dst.raw_data());
  args.index(v.shape[a]).index(v.shape[b]).index(tiles_a).index(tiles_b).index(ntiles);
  args.array(batch_shape, batch_rank, 1).array(src_batch, batch_rank, 0).array(dst_batch, batch_rank, 0);
  args.index(v.strides[1][a]).index(v.strides[1][b]).index(v.strides[0][a]).index(v.strides[0][b]);
  const unsigned grid = static_cast<unsigned>(std::min(ntiles, kMaxGrid));
  runtime::launch(f, {grid, {static_cast<unsigned>(kTile), kRows}}, args.params());
  return true;
}

}  // namespace cuarray::ops
