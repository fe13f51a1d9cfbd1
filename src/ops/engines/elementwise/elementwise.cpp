#include "ops/engines/elementwise/elementwise.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "ops/engines/elementwise/elementwise_source.hpp"
#include "ops/engines/launch_config.hpp"

namespace cuarray::ops {
namespace {

constexpr uint8_t kScalarMarker = 0xff;
constexpr int64_t kInt32Max = 0x7fffffff;

// Largest vector width (elements) such that every operand's vector is at most 16 bytes and aligned.
int pick_vec(char* const* data, const DType* dtypes, int nptr) {
  int64_t max_item = 1;
  for (int k = 0; k < nptr; ++k) max_item = std::max<int64_t>(max_item, static_cast<int64_t>(itemsize(dtypes[k])));
  int vec = static_cast<int>(16 / max_item);
  auto aligned = [&](int w) {
    for (int k = 0; k < nptr; ++k)
      if (reinterpret_cast<uintptr_t>(data[k]) % (static_cast<uintptr_t>(w) * itemsize(dtypes[k])) != 0) return false;
    return true;
  };
  while (vec > 1 && !aligned(vec)) vec /= 2;
  return vec;
}

}  // namespace

void run_elementwise(const ElementwiseSpec& spec, std::span<const Operand> inputs, std::span<const NDArray> outputs,
                     const NDArray* where, const RawOperands* raw) {
  const Shape& shape = raw ? raw->shape : outputs[0].shape();
  const int64_t n = shape_size(shape);
  if (n == 0) return;
  const int device = raw ? raw->device : outputs[0].device();
  const std::span<const NDArray> raw_arrays = raw ? raw->arrays : std::span<const NDArray>();
  for (const NDArray& a : raw_arrays) check_device(a, device);

  // Pointer operands in the kernel's order: array inputs, the where mask, outputs.
  const NDArray* operands[kMaxOperands];
  int nptr = 0;
  auto add = [&](const NDArray& a) {
    if (nptr == kMaxOperands) throw_error(ErrorKind::Value, "too many operands for one elementwise kernel");
    check_device(a, device);
    operands[nptr++] = &a;
  };
  for (const Operand& in : inputs)
    if (!in.is_scalar()) add(*in.array);
  if (where) add(*where);
  const int nout = static_cast<int>(outputs.size());
  for (const NDArray& o : outputs) add(o);

  char* kdata[kMaxOperands];
  DType kstorage[kMaxOperands];
  bool all_contiguous = true;  // the common case: no broadcasting, C order everywhere
  for (int k = 0; k < nptr; ++k) {
    kdata[k] = operands[k]->raw_data();
    kstorage[k] = operands[k]->dtype();
    all_contiguous = all_contiguous && operands[k]->c_contiguous() && operands[k]->shape() == shape;
  }

  ElementwiseLayout layout{};
  layout.has_where = where != nullptr;
  StridedView view;  // built only for the strided path
  if (all_contiguous) {
    layout.contiguous = true;
    layout.rank = 1;
    layout.index64 = n > kInt32Max;
  } else {
    // Outputs go first in the view so that they decide the iteration order.
    view.shape = shape;
    for (int k = 0; k < nptr; ++k) {
      const NDArray& a = *operands[(k + nptr - nout) % nptr];
      view.strides[k] = broadcast_strides(a.shape(), a.strides(), shape);
    }
    view.count = nptr;
    coalesce(view, /*sort=*/!spec.user);  // a user kernel's `i` is the C-order index
    layout.contiguous = view.shape.size() <= 1;
    for (int k = 0; k < nptr && layout.contiguous; ++k)
      layout.contiguous = view.shape.empty() ||
                          view.strides[k][0] == operands[(k + nptr - nout) % nptr]->itemsize();
    layout.rank = static_cast<int>(view.shape.size());
    layout.index64 = needs_index64(view, n);
  }
  layout.vec = layout.contiguous ? pick_vec(kdata, kstorage, nptr) : 1;

  jit::KernelKey key(jit::KernelFamily::Elementwise);
  key.push_u64(spec.op_id).push(static_cast<uint8_t>(spec.nin)).push(static_cast<uint8_t>(nout));
  for (int k = 0; k < spec.nin + nout; ++k) key.push(static_cast<uint8_t>(spec.loop[k]));
  for (const Operand& in : inputs) key.push(in.is_scalar() ? kScalarMarker : static_cast<uint8_t>(in.array->dtype()));
  for (const NDArray& o : outputs) key.push(static_cast<uint8_t>(o.dtype()));
  key.push(layout.has_where).push(layout.contiguous).push(static_cast<uint8_t>(layout.contiguous ? layout.vec : layout.rank));
  key.push(layout.index64);
  for (const NDArray& a : raw_arrays) key.push(static_cast<uint8_t>(a.dtype())).push(static_cast<uint8_t>(a.ndim()));

  runtime::activate(device);
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    std::optional<DType> in_storage[kMaxOperands];
    for (size_t k = 0; k < inputs.size(); ++k)
      if (!inputs[k].is_scalar()) in_storage[k] = inputs[k].array->dtype();
    DType out_storage[kMaxOperands];
    for (int k = 0; k < nout; ++k) out_storage[k] = outputs[k].dtype();
    std::vector<RawArrayType> raw_types;
    for (const NDArray& a : raw_arrays) raw_types.push_back({a.dtype(), static_cast<int>(a.ndim())});
    return jit::KernelSource{elementwise_source(spec, std::span(in_storage, inputs.size()), std::span(out_storage, nout),
                                                layout, raw_types),
                             kElementwiseKernelName,
                             {spec.options.begin(), spec.options.end()}};
  });

  // Kernel parameters, in the generated signature's order: the operands' pointers (inputs,
  // mask, outputs), the count, for the strided layout the shape and each operand's strides (in
  // that pointer order; the view holds outputs first), then the scalar inputs in their loop dtypes.
  runtime::KernelArgs args(layout.index64);
  // cuarray::Ptrs holds one (unused) pointer when there are no pointer operands.
  if (nptr == 0) kdata[0] = nullptr;
  args.bytes(kdata, sizeof(char*) * static_cast<size_t>(std::max(nptr, 1))).index(n);
  if (!layout.contiguous) {
    const int r = layout.rank;
    int64_t strides[kMaxOperands * kMaxDims];
    for (int k = 0; k < nptr; ++k)
      for (int d = 0; d < r; ++d) strides[k * r + d] = view.strides[(k + nout) % nptr][d];
    args.array(view.shape, static_cast<size_t>(r), 1).array(std::span(strides, static_cast<size_t>(nptr * r)),
                                                            static_cast<size_t>(nptr * r), 0);
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].is_scalar()) continue;
    alignas(16) unsigned char scalar[16];
    inputs[k].scalar.store_as(spec.loop[k], scalar);
    args.bytes(scalar, itemsize(spec.loop[k]));
  }
  // cuarray::CArray<T, R> (user_kernel.cuh): data, size, then R extents and R byte strides (one
  // of each for R == 0), all 64-bit.
  for (const NDArray& a : raw_arrays) {
    args.struct_begin().value(a.raw_data()).value<int64_t>(a.size());
    const int r = std::max(a.ndim(), 1);
    for (int d = 0; d < r; ++d) args.value<int64_t>(d < a.ndim() ? a.shape()[d] : 1);
    for (int d = 0; d < r; ++d) args.value<int64_t>(d < a.ndim() ? a.strides()[d] : 0);
    args.struct_end();
  }

  const int64_t threads = layout.contiguous ? (n + layout.vec - 1) / layout.vec : n;
  runtime::launch(kernel, {grid_for(threads), kBlockThreads}, args.params());
}

}  // namespace cuarray::ops
