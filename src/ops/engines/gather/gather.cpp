#include "ops/engines/gather/gather.hpp"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/memory/host_flag.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/engines/sort/sort.hpp"

namespace cuarray::ops {
namespace {

constexpr const char* kKernelNames[] = {"cuarray_gather",        "cuarray_scatter_mark",    "cuarray_scatter",
                                        "cuarray_scatter_claim", "cuarray_scatter_resolve", "cuarray_scatter_keys",
                                        "cuarray_scatter_sorted"};

runtime::Kernel gather_kernel(GatherKernel kernel, DType index, int word_bytes, IndexMode mode, int rank, int group_rank,
                         bool index64) {
  jit::KernelKey key(jit::KernelFamily::Gather);
  key.push(static_cast<uint8_t>(kernel)).push(static_cast<uint8_t>(index));
  key.push(static_cast<uint8_t>(word_bytes)).push(static_cast<uint8_t>(mode)).push(static_cast<uint8_t>(rank));
  key.push(static_cast<uint8_t>(group_rank)).push(index64);
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{gather_source(kernel, index, word_bytes, mode, rank, group_rank, index64),
                             kKernelNames[static_cast<int>(kernel)]};
  });
}

// Elements move as raw words. Where the innermost dim is a contiguous run in both moved operands
// (and the index is constant along it), several elements move as one wider word.
int widen_innermost(StridedView& v, int64_t itemsize, std::span<char* const> data, const Strides& group_strides) {
  int word = static_cast<int>(itemsize);
  if (v.shape.empty()) return word;
  const size_t d = v.shape.size() - 1;
  if (v.strides[0][d] != itemsize || v.strides[1][d] != itemsize) return word;
  for (int k = 2; k < v.count; ++k)
    if (v.strides[k][d] != 0) return word;
  const int64_t run = v.shape[d] * itemsize;
  auto fits = [&](int64_t w) {
    if (run % w != 0) return false;
    for (char* p : data)
      if (reinterpret_cast<uintptr_t>(p) % w != 0) return false;
    for (int k = 0; k < 2; ++k)
      for (size_t e = 0; e < d; ++e)
        if (v.strides[k][e] % w != 0) return false;
    for (int64_t s : group_strides)
      if (s % w != 0) return false;
    return true;
  };
  for (int64_t w = 16; w > itemsize; w /= 2) {
    if (!fits(w)) continue;
    v.shape[d] = run / w;
    v.strides[0][d] = v.strides[1][d] = w;
    return static_cast<int>(w);
  }
  return word;
}

int64_t group_size(const IndexedArray& a) { return shape_size(a.group_shape); }

// Raise mode: the kernel sets the flag on a bad index; the host then names the first one.
void check_flag(const std::optional<runtime::HostFlag>& flag, const IndexOperand& index, const IndexedArray& a) {
  if (!flag || !flag->raised()) return;
  check_in_range(index.array, group_size(a), a.axis, false);
  throw_error(ErrorKind::Index, "index out of bounds for axis " + std::to_string(a.axis));
}

std::optional<runtime::HostFlag> raise_flag(IndexMode mode, int device) {
  std::optional<runtime::HostFlag> flag;
  if (mode == IndexMode::Raise) flag.emplace(device);
  return flag;
}

// An empty axis has nothing to take (numpy.take says so in every mode); wrapping or clipping
// into it has no answer, and a scatter in raise mode reports the index instead.
void check_nonempty_axis(const IndexedArray& a, int64_t n, IndexMode mode, bool take, const char* message) {
  if (n > 0 && group_size(a) == 0 && (take || mode != IndexMode::Raise)) throw_error(ErrorKind::Index, message);
}

// Every position writes one element of the indexed group (nothing else moves the target) and
// has its own place in the index array, in C order over the iteration shape: then sorting the
// positions by target (stably) orders the writes and puts NumPy's winner last among equals.
// Below a few thousand positions the sort's extra launches cost more than the bitmaps save,
// unless the group is so large that the bitmaps and claims (O(targets): 2 bits and 4-8 bytes per
// target) would dwarf the positions: then the sort's O(positions) memory wins.
bool sorted_scatter_applies(const StridedView& v, int64_t targets) {
  if (shape_size(v.shape) < 4096 && targets < (int64_t{1} << 24)) return false;
  int64_t expected = 1;
  for (size_t d = v.shape.size(); d-- > 0;) {
    if (v.strides[0][d] != 0) return false;
    if (v.shape[d] != 1 && v.strides[3][d] != expected) return false;
    expected *= v.shape[d];
  }
  return expected < (int64_t{1} << 32);  // the sort's limit
}

// The scatter through a sort (gather.cuh): keys (and values, unless contiguous) out of the
// operands, sorted by key, then written where the next key differs. In raise mode a bad index leaves a key that stops the write.
void scatter_sorted(const IndexedArray& dst, const NDArray& values, const IndexOperand& index, IndexMode mode,
                    const StridedView& v, const StridedView& group, bool index64,
                    const std::optional<runtime::HostFlag>& flag) {
  const int64_t n = shape_size(v.shape), alen = group_size(dst);
  const int rank = std::max<int>(1, static_cast<int>(v.shape.size()));
  const int grank = std::max<int>(1, static_cast<int>(group.shape.size()));
  const DType key = index64 ? DType::UInt64 : DType::UInt32;
  // Values already in position order (C-contiguous) are the payload as they are.
  bool contiguous = true;
  int64_t expected = values.itemsize();
  for (size_t d = v.shape.size(); d-- > 0; expected *= v.shape[d])
    contiguous = contiguous && (v.shape[d] == 1 || v.strides[1][d] == expected);
  const NDArray keys = empty(Shape{n}, key);
  const NDArray payload = contiguous ? values : empty(Shape{n}, values.dtype());
  const NDArray sorted_keys = empty(Shape{n}, key), sorted_payload = empty(Shape{n}, values.dtype());
  const int word = static_cast<int>(values.itemsize());
  const DType idtype = index.array.dtype();
  {
    std::vector<int64_t> strides;
    for (int k = 0; k < 4; ++k)
      for (int d = 0; d < rank; ++d) strides.push_back(d < static_cast<int>(v.shape.size()) ? v.strides[k][d] : 0);
    runtime::KernelArgs args(index64);
    args.value(static_cast<const char*>(values.raw_data()))
        .value(static_cast<const char*>(index.array.raw_data()))
        .index(n);
    args.array(v.shape, rank, 1).array(strides, strides.size(), 0).value<long long>(alen);
    args.value(keys.raw_data()).value(contiguous ? nullptr : payload.raw_data());
    args.value(flag ? flag->device_word() : nullptr);
    const runtime::Kernel f = gather_kernel(GatherKernel::ScatterKeys, idtype, word, mode, rank, grank, index64);
    runtime::launch(f, {grid_for(n), kBlockThreads}, args.params());
  }
  sort_pairs(keys, payload, sorted_keys, sorted_payload);
  {
    runtime::KernelArgs args(index64);
    args.value(dst.array.raw_data()).value(static_cast<const char*>(sorted_keys.raw_data()));
    args.value(static_cast<const char*>(sorted_payload.raw_data())).index(n);
    args.array(group.shape, grank, 1).array(group.strides[0], grank, 0);
    // The write reads only keys, payloads and the group's layout: one kernel serves every index
    // dtype, mode and iteration rank.
    const runtime::Kernel f = gather_kernel(GatherKernel::ScatterSorted, DType::Int64, word, IndexMode::Raise, 1, grank, index64);
    runtime::launch(f, {grid_for(n), kBlockThreads}, args.params());
  }
  check_flag(flag, index, dst);
}

void check_index_dtype(const NDArray& index) {
  if (!is_integer(index.dtype()) && index.dtype() != DType::Bool)
    throw_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type");
}

}  // namespace

std::string gather_source(GatherKernel kernel, DType index, int word_bytes, IndexMode mode, int rank, int group_rank,
                          bool index64) {
  std::string s;
  s.reserve(16384);
  const DType used[] = {index};
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;
  s += jit::index_typedefs(index64);
  s += "typedef " + std::string(jit::kernel_type_name(index)) + " idx_t;\n";
  s += jit::word_typedef(word_bytes);
  s += "constexpr int R = " + std::to_string(rank) + ";\nconstexpr int RA = " + std::to_string(group_rank) + ";\n";
  s += "constexpr int kMode = " + std::to_string(static_cast<int>(mode)) + ";\n";
  s += kernels::gather_cuh;
  return s;
}

void run_gather(const NDArray& out, const IndexedArray& src, const IndexOperand& index, IndexMode mode) {
  check_index_dtype(index.array);
  const int64_t n = out.size();
  check_nonempty_axis(src, n, mode, true, "cannot do a non-empty take from an empty axes.");
  if (n == 0) return;
  activate_current_device({&out, &src.array, &index.array});
  StridedView v;
  v.count = 3;
  v.shape = out.shape();
  v.strides[0] = out.strides();
  v.strides[1] = src.strides;
  v.strides[2] = index.strides;
  coalesce(v);
  char* const moved[] = {out.raw_data(), src.array.raw_data()};
  const int word = widen_innermost(v, src.array.itemsize(), moved, src.group_strides);
  const int64_t iterations = shape_size(v.shape);
  StridedView group;
  group.count = 1;
  group.shape = src.group_shape;
  group.strides[0] = src.group_strides;
  coalesce(group, false);
  const int rank = std::max<int>(1, static_cast<int>(v.shape.size()));
  const int grank = std::max<int>(1, static_cast<int>(group.shape.size()));
  const int64_t span = static_cast<int64_t>(src.array.buffer() ? src.array.buffer()->size() : 0);
  const bool index64 = needs_index64(v, iterations) || needs_index64(group, group_size(src)) || span > 0x7fffffff;
  const std::optional<runtime::HostFlag> flag = raise_flag(mode, out.device());

  runtime::KernelArgs args(index64);
  args.value(out.raw_data()).value(static_cast<const char*>(src.array.raw_data()));
  args.value(static_cast<const char*>(index.array.raw_data()));
  args.index(iterations).array(v.shape, rank, 1);
  std::vector<int64_t> strides;
  for (int k = 0; k < 3; ++k)
    for (int d = 0; d < rank; ++d) strides.push_back(d < static_cast<int>(v.shape.size()) ? v.strides[k][d] : 0);
  args.array(strides, strides.size(), 0);
  args.array(group.shape, grank, 1).array(group.strides[0], grank, 0).value<long long>(group_size(src));
  args.value(flag ? flag->device_word() : nullptr);
  const runtime::Kernel f = gather_kernel(GatherKernel::Gather, index.array.dtype(), word, mode, rank, grank, index64);
  runtime::launch(f, {grid_for(iterations), kBlockThreads}, args.params());
  check_flag(flag, index, src);
}

void run_scatter(const IndexedArray& dst, const NDArray& values, const IndexOperand& index, IndexMode mode) {
  check_index_dtype(index.array);
  const int64_t n = shape_size(values.shape());
  check_nonempty_axis(dst, n, mode, false, "cannot replace elements of an empty array");
  if (n == 0) return;
  activate_current_device({&dst.array, &values, &index.array});
  const DType idtype = index.array.dtype();
  StridedView v;
  v.count = 4;
  v.shape = values.shape();
  v.strides[0] = dst.strides;
  v.strides[1] = values.strides();
  v.strides[2] = index.strides;
  v.strides[3] = index.positions;
  coalesce(v);
  StridedView group;
  group.count = 1;
  group.shape = dst.group_shape;
  group.strides[0] = dst.group_strides;
  coalesce(group, false);
  const int64_t alen = group_size(dst);
  const int grank = std::max<int>(1, static_cast<int>(group.shape.size()));
  const int64_t span = static_cast<int64_t>(dst.array.buffer() ? dst.array.buffer()->size() : 0);
  const bool index64 = needs_index64(v, n) || needs_index64(group, alen) || span > 0x7fffffff;

  // Duplicate targets need resolving only when the value changes from one position to the next
  // (a scalar or a value broadcast along the index writes the same whatever the order).
  bool values_vary = false;
  for (size_t d = 0; d < v.shape.size(); ++d) values_vary = values_vary || (v.strides[3][d] != 0 && v.strides[1][d] != 0);
  const std::optional<runtime::HostFlag> flag = raise_flag(mode, values.device());
  if (values_vary && sorted_scatter_applies(v, alen)) {
    scatter_sorted(dst, values, index, mode, v, group, index64, flag);
    return;
  }
  // With varying values: the seen and dup bitmaps (one bit per target), then the list counter.
  const int64_t words = (alen + 63) / 64 * 2;  // even: the counter after both bitmaps stays 8-byte aligned
  NDArray marks;
  unsigned* seen = nullptr;
  if (values_vary) {
    marks = empty(Shape{2 * words + 2}, DType::UInt32);
    seen = static_cast<unsigned*>(static_cast<void*>(marks.raw_data()));
    marks.fill(Scalar::from_int(0));
  }
  unsigned* const dup = seen ? seen + words : nullptr;
  if (values_vary || mode == IndexMode::Raise) {
    // The mark pass walks each index once: the dims along which neither it nor its position moves drop out.
    StridedView c;
    c.count = 2;
    for (size_t d = 0; d < v.shape.size(); ++d) {
      if (v.strides[2][d] == 0 && v.strides[3][d] == 0) continue;
      c.shape.push_back(v.shape[d]);
      c.strides[0].push_back(v.strides[2][d]);
      c.strides[1].push_back(v.strides[3][d]);
    }
    coalesce(c);
    const int crank = std::max<int>(1, static_cast<int>(c.shape.size()));
    const int64_t cn = shape_size(c.shape);
    runtime::KernelArgs args(index64);
    args.value(static_cast<const char*>(index.array.raw_data())).index(cn).array(c.shape, crank, 1);
    std::vector<int64_t> strides;
    for (int k = 0; k < 2; ++k)
      for (int d = 0; d < crank; ++d) strides.push_back(d < static_cast<int>(c.shape.size()) ? c.strides[k][d] : 0);
    args.array(strides, strides.size(), 0).value<long long>(alen).value(seen).value(dup);
    args.value(flag ? flag->device_word() : nullptr);
    const runtime::Kernel f = gather_kernel(GatherKernel::ScatterMark, idtype, 1, mode, crank, 1, index64);
    runtime::launch(f, {grid_for(cn), kBlockThreads}, args.params());
    check_flag(flag, index, dst);
  }

  char* const moved[] = {dst.array.raw_data(), values.raw_data()};
  const int word = values_vary ? static_cast<int>(values.itemsize())
                               : widen_innermost(v, values.itemsize(), moved, dst.group_strides);
  const int rank = std::max<int>(1, static_cast<int>(v.shape.size()));
  const int64_t iterations = shape_size(v.shape);
  const DType slot = index64 ? DType::UInt64 : DType::UInt32;
  // The claims (one per target, written only for duplicated ones) and the list of their positions.
  NDArray claim = values_vary ? empty(Shape{alen}, slot) : NDArray();
  NDArray list = values_vary ? empty(Shape{iterations}, slot) : NDArray();
  void* const count = values_vary ? static_cast<void*>(seen + 2 * words) : nullptr;
  std::vector<int64_t> strides;
  for (int k = 0; k < 4; ++k)
    for (int d = 0; d < rank; ++d) strides.push_back(d < static_cast<int>(v.shape.size()) ? v.strides[k][d] : 0);
  auto launch = [&](GatherKernel kernel, bool with_dst, bool with_n) {
    runtime::KernelArgs args(index64);
    if (with_dst) args.value(dst.array.raw_data()).value(static_cast<const char*>(values.raw_data()));
    args.value(static_cast<const char*>(index.array.raw_data()));
    if (with_n) args.index(iterations);
    args.array(v.shape, rank, 1).array(strides, strides.size(), 0);
    if (with_dst) args.array(group.shape, grank, 1).array(group.strides[0], grank, 0);
    args.value<long long>(alen);
    if (kernel == GatherKernel::Scatter) args.value(static_cast<const unsigned*>(dup));
    args.value(values_vary ? claim.raw_data() : nullptr).value(values_vary ? list.raw_data() : nullptr).value(count);
    const runtime::Kernel f = gather_kernel(kernel, idtype, word, mode, rank, grank, index64);
    // The list passes read their length on the device; it is usually a small share of the positions.
    const int64_t threads = kernel == GatherKernel::Scatter ? iterations : std::min<int64_t>(iterations, 1 << 20);
    runtime::launch(f, {grid_for(threads), kBlockThreads}, args.params());
  };
  launch(GatherKernel::Scatter, true, true);
  if (!values_vary) return;
  launch(GatherKernel::ScatterClaim, false, false);
  launch(GatherKernel::ScatterResolve, true, false);
}

void check_in_range(const NDArray& index, int64_t len, int axis, bool uint64_as_int64) {
  std::vector<unsigned char> host(static_cast<size_t>(index.nbytes()));
  index.copy_to_host(host.data());
  const size_t item = static_cast<size_t>(index.itemsize());
  const bool is_unsigned = kind(index.dtype()) == DTypeKind::UnsignedInt || index.dtype() == DType::Bool;
  for (int64_t i = 0; i < index.size(); ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, host.data() + i * item, item);
    if (is_unsigned && !(uint64_as_int64 && item == 8)) {
      if (raw >= static_cast<uint64_t>(len)) raise_out_of_range(std::to_string(raw), axis, len);
      continue;
    }
    const int shift = static_cast<int>(64 - 8 * item);
    const int64_t v = static_cast<int64_t>(raw << shift) >> shift;  // sign-extend
    if (v < -len || v >= len) raise_out_of_range(std::to_string(v), axis, len);
  }
}

void raise_out_of_range(const std::string& index, int axis, int64_t len) {
  throw_error(ErrorKind::Index, "index " + index + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                                    std::to_string(len));
}

}  // namespace cuarray::ops
