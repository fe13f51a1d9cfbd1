#include "ops/engines/select/select.hpp"

#include <cstdlib>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"

namespace cuarray::ops {
namespace {

constexpr int kItems = 8;  // elements per thread (select.cuh's kItems)
constexpr int kThreads = 256;
constexpr int64_t kTile = kThreads * kItems;
constexpr const char* kKernelNames[] = {"cuarray_select_count", "cuarray_select_scan", "cuarray_select_write"};

runtime::Kernel select_kernel(SelectPass pass, DType pred, int word_bytes, SelectMode mode, int rank, int index_rank,
                         bool index64) {
  jit::KernelKey key(jit::KernelFamily::Select);
  key.push(static_cast<uint8_t>(pass));
  if (pass != SelectPass::Scan) key.push(static_cast<uint8_t>(pred)).push(static_cast<uint8_t>(rank)).push(index64);
  if (pass == SelectPass::Write)
    key.push(static_cast<uint8_t>(word_bytes)).push(static_cast<uint8_t>(mode)).push(static_cast<uint8_t>(index_rank));
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{select_source(pass, pred, word_bytes, mode, rank, index_rank, index64),
                             kKernelNames[static_cast<int>(pass)]};
  });
}

// The coalesced iteration of the predicate (operand 0) and optionally a second operand, in C
// order: the order in which elements are ranked.
StridedView iteration(const NDArray& pred, const NDArray* other) {
  StridedView v;
  v.count = other ? 2 : 1;
  v.shape = pred.shape();
  v.strides[0] = pred.strides();
  if (other) v.strides[1] = other->strides();
  coalesce(v, false);
  return v;
}

}  // namespace

std::string select_source(SelectPass pass, DType pred, int word_bytes, SelectMode mode, int rank, int index_rank,
                          bool index64) {
  std::string s;
  s.reserve(16384);
  const DType used[] = {pred};
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;
  s += jit::index_typedefs(index64);
  s += "typedef " + std::string(jit::kernel_type_name(pred)) + " pred_t;\n";
  s += jit::word_typedef(word_bytes);
  s += "constexpr int R = " + std::to_string(rank) + ";\nconstexpr int RI = " + std::to_string(index_rank) + ";\n";
  s += "constexpr int kItems = " + std::to_string(kItems) + ";\nconstexpr int kMode = " +
       std::to_string(static_cast<int>(mode)) + ";\n";
  s += kernels::select_cuh;
  return s;
}

Selection::Selection(const NDArray& pred) : pred_(pred) {
  const int64_t n = pred.size();
  if (n == 0) return;
  activate_current_device({&pred});
  const StridedView v = iteration(pred, nullptr);
  const int rank = std::max<int>(1, static_cast<int>(v.shape.size()));
  const bool index64 = needs_index64(v, n);
  tiles_ = (n + kTile - 1) / kTile;
  NDArray tile_counts = empty(Shape{tiles_}, DType::UInt32);
  offsets_ = empty(Shape{tiles_ + 1}, DType::UInt64);

  runtime::KernelArgs count(index64);
  count.value(static_cast<const char*>(pred.raw_data())).index(n).array(v.shape, rank, 1).array(v.strides[0], rank, 0);
  count.value(tile_counts.raw_data());
  runtime::Kernel f = select_kernel(SelectPass::Count, pred.dtype(), 1, SelectMode::Values, rank, 1, index64);
  runtime::launch(f, {static_cast<unsigned>(tiles_), kThreads}, count.params());

  runtime::KernelArgs scan(false);
  scan.value(static_cast<const unsigned*>(static_cast<void*>(tile_counts.raw_data())))
      .value(static_cast<unsigned long long>(tiles_))
      .value(offsets_.raw_data());
  f = select_kernel(SelectPass::Scan, DType::Bool, 1, SelectMode::Values, 1, 1, false);
  runtime::launch(f, {1, 1024}, scan.params());

  uint64_t total = 0;
  offsets_.index(0, tiles_).copy_to_host(&total);  // the one synchronization: the result's size
  count_ = static_cast<int64_t>(total);
}

void Selection::write(SelectMode mode, const NDArray* strided, const char* in, char* out, int word_bytes,
                      const Shape& ishape, int64_t idim_stride, int64_t irank_stride) const {
  const int64_t n = pred_.size();
  const StridedView v = iteration(pred_, strided);
  const int rank = std::max<int>(1, static_cast<int>(v.shape.size()));
  const int irank = std::max<int>(1, static_cast<int>(ishape.size()));
  const bool index64 = needs_index64(v, n);
  runtime::KernelArgs args(index64);
  args.value(static_cast<const char*>(pred_.raw_data())).value(in).value(out).index(n);
  args.array(v.shape, rank, 1).array(v.strides[0], rank, 0);
  if (strided) args.array(v.strides[1], rank, 0);
  else args.array({}, rank, 0);
  args.value(static_cast<const unsigned long long*>(static_cast<void*>(offsets_.raw_data())));
  args.array(ishape, irank, 1).value<long long>(idim_stride).value<long long>(irank_stride);
  const runtime::Kernel f = select_kernel(SelectPass::Write, pred_.dtype(), word_bytes, mode, rank, irank, index64);
  runtime::launch(f, {static_cast<unsigned>(tiles_), kThreads}, args.params());
}

NDArray Selection::gather(const NDArray& values) const {
  if (values.shape() != pred_.shape()) throw_error(ErrorKind::Value, "selection and values differ in shape");
  NDArray out = empty(Shape{count_}, values.dtype());
  if (count_ == 0) return out;
  write(SelectMode::Values, &values, values.raw_data(), out.raw_data(), static_cast<int>(values.itemsize()), Shape{1}, 0,
        0);
  return out;
}

NDArray Selection::indices(IndexLayout layout) const {
  const int64_t ndim = pred_.ndim();
  NDArray out = layout == IndexLayout::Flat         ? empty(Shape{count_}, DType::Int64)
                : layout == IndexLayout::PerElement ? empty(Shape{count_, ndim}, DType::Int64)
                                                    : empty(Shape{ndim, count_}, DType::Int64);
  if (count_ == 0 || (layout != IndexLayout::Flat && ndim == 0)) return out;
  char* const dst = out.raw_data();
  if (layout == IndexLayout::Flat) write(SelectMode::Indices, nullptr, nullptr, dst, 8, Shape{pred_.size()}, 0, 1);
  else if (layout == IndexLayout::PerElement) write(SelectMode::Indices, nullptr, nullptr, dst, 8, pred_.shape(), 1, ndim);
  else write(SelectMode::Indices, nullptr, nullptr, dst, 8, pred_.shape(), count_, 1);
  return out;
}

void Selection::scatter(const NDArray& target, const NDArray& values) const {
  if (target.shape() != pred_.shape() || values.size() != count_ || values.dtype() != target.dtype() ||
      !values.c_contiguous())
    throw_error(ErrorKind::Value, "scatter needs the selection's shape and count() contiguous values");
  if (count_ == 0) return;
  write(SelectMode::Scatter, &target, values.raw_data(), target.raw_data(), static_cast<int>(target.itemsize()), Shape{1},
        0, 0);
}

}  // namespace cuarray::ops
