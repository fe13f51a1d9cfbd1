#include "ops/engines/sort/sort.hpp"

#include <algorithm>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"

namespace cuarray::ops {
namespace {

constexpr int kPassThreads = 256;
constexpr int kMaxPasses = 25;  // sort.cuh's kMaxRadixPasses

// The kernels of one device-wide sort, by the names in radix_passes_source.
enum class RadixKernel : uint8_t { Histogram, Plan, Onesweep, Finish };
constexpr const char* kRadixKernelNames[] = {"cuarray_radix_histogram", "cuarray_radix_plan", "cuarray_radix_onesweep",
                                             "cuarray_radix_finish"};

// The pointers of sort.cuh's RadixBuffers, in its order.
struct RadixBuffers {
  const void* input;
  const void* payload_in;
  void* values[2];
  void* payload[2];
  void* values_out;
  void* payload_out;
};

// sort.cuh's payload type P.
std::string payload_type(RadixPayload payload) {
  switch (payload.kind) {
    case RadixPayload::None: return "cuarray::NoPayload";
    case RadixPayload::FlatIndex: return "cuarray::FlatIndex";
    case RadixPayload::Words: break;
  }
  return std::string(jit::raw_word_type(payload.bytes));
}

std::string typedef_value(DType dtype) {
  return "typedef " + std::string(jit::kernel_type_name(dtype)) + " value_t;\n";
}

std::string sort_prelude(DType dtype) {
  std::string s;
  s.reserve(32768);
  const DType used[] = {dtype};
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;  // Vec: the 16-byte payload word
  s += kernels::sort_cuh;
  s += typedef_value(dtype);
  return s;
}

unsigned grid_stride_blocks(int64_t n, int device) {
  const int64_t cap = static_cast<int64_t>(device_properties(device).multiprocessor_count) * 8;
  return static_cast<unsigned>(std::clamp<int64_t>((n + kPassThreads - 1) / kPassThreads, 1, cap));
}

void block_sort(const NDArray& in, int64_t row_len, const NDArray* values, const NDArray* index, RowSortPlan plan) {
  const bool with_index = index != nullptr;
  jit::KernelKey key(jit::KernelFamily::BlockSort);
  key.push(static_cast<uint8_t>(in.dtype())).push(static_cast<uint8_t>(plan.threads / 32));
  key.push(static_cast<uint8_t>(plan.items)).push(with_index);
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{block_sort_source(in.dtype(), plan.threads, plan.items, with_index), "cuarray_sort_rows"};
  });
  char* out = values ? values->raw_data() : nullptr;
  char* out_index = index ? index->raw_data() : nullptr;
  const auto rows = static_cast<unsigned long long>(in.size() / row_len);
  runtime::launch(kernel, {static_cast<unsigned>(std::min<unsigned long long>(rows, 0x7fffffffull)), plan.threads},
                  in.raw_data(), out, out_index, static_cast<unsigned>(row_len), rows);
}

// The device-wide Onesweep passes; see RadixBuffers and radix_plan in sort.cuh for the plan the
// device writes. Nothing here waits for the device. `payload_in` holds the caller's payload words
// (null for the flat index); `payload_out` receives the payload in sorted order (flat index: int64).
void radix_sort(const NDArray& in, int64_t row_len, const NDArray* values, RadixPayload payload,
                const NDArray* payload_in, const NDArray* payload_out) {
  const int64_t n = in.size(), rows = n / row_len;
  if (n >= (int64_t{1} << 32)) throw_error(ErrorKind::Value, "sort: arrays of 2**32 or more elements are not supported");
  const DType dtype = in.dtype();
  const int device = in.device();
  if (rows > 1) payload = {RadixPayload::FlatIndex, 4};  // the row number lives in the index
  int row_bytes = 0;
  for (uint64_t r = static_cast<uint64_t>(rows - 1); r; r >>= 8) ++row_bytes;
  const int passes = radix_key_bytes(dtype) + row_bytes;
  const int items = radix_tile_items(dtype, payload);
  const int64_t tile = int64_t{kPassThreads} * items;
  const unsigned tiles = static_cast<unsigned>((n + tile - 1) / tile);
  const bool flat_index = payload.kind == RadixPayload::FlatIndex;

  // Ping-pong slots: values in scratch and the output (or a temporary), payloads in
  // scratch_payload and the payload output (flat uint32 indices: the first half of the int64 index
  // output), or a temporary.
  NDArray out = values ? *values : empty(Shape{n}, dtype);
  NDArray scratch = empty(Shape{n}, dtype);
  NDArray scratch_payload, payload_slot;
  if (payload.kind != RadixPayload::None) {
    const DType word = flat_index ? DType::UInt32 : payload_in->dtype();
    scratch_payload = empty(Shape{n}, word);
    payload_slot = payload_out ? *payload_out : empty(Shape{n}, word);
  }
  // status[tiles][256] (64-bit words), hist[passes][256], counters[passes], plan[passes + 1]: one
  // allocation; everything but the plan starts at zero.
  const int64_t status_words = int64_t{2} * 256 * tiles;
  const int64_t words = status_words + int64_t{kMaxPasses} * 256 + kMaxPasses + kMaxPasses + 1;
  NDArray work = empty(Shape{words}, DType::UInt32);
  unsigned long long* status = reinterpret_cast<unsigned long long*>(work.raw_data());
  unsigned* hist = reinterpret_cast<unsigned*>(work.raw_data()) + status_words;
  unsigned* counters = hist + kMaxPasses * 256;
  int* plan = reinterpret_cast<int*>(counters + kMaxPasses);
  work.slice(0, 0, status_words + kMaxPasses * 256 + kMaxPasses, 1).fill(Scalar::from_int(0));

  auto kernel = [&](RadixKernel k) {
    jit::KernelKey key(jit::KernelFamily::RadixPass);
    key.push(static_cast<uint8_t>(dtype)).push(static_cast<uint8_t>(payload.kind));
    key.push(static_cast<uint8_t>(payload.bytes)).push(static_cast<uint8_t>(k));
    return jit::get_kernel(key, [&] {
      return jit::KernelSource{radix_passes_source(dtype, payload, items), kRadixKernelNames[static_cast<int>(k)]};
    });
  };
  const bool carried = payload.kind != RadixPayload::None;
  RadixBuffers buffers{in.raw_data(),
                       payload_in ? payload_in->raw_data() : nullptr,
                       {scratch.raw_data(), out.raw_data()},
                       {carried ? scratch_payload.raw_data() : nullptr, carried ? payload_slot.raw_data() : nullptr},
                       values ? values->raw_data() : nullptr,
                       payload_out ? payload_out->raw_data() : nullptr};
  const unsigned n32 = static_cast<unsigned>(n), len32 = static_cast<unsigned>(row_len);
  runtime::launch(kernel(RadixKernel::Histogram), {grid_stride_blocks(n, device), kPassThreads}, in.raw_data(), n32,
                  len32, passes, hist);
  runtime::launch(kernel(RadixKernel::Plan), {1, 256}, hist, passes, n32, plan);
  const runtime::Kernel onesweep = kernel(RadixKernel::Onesweep);
  for (int pass = 0; pass < passes; ++pass)
    runtime::launch(onesweep, {tiles, kPassThreads}, pass, plan, hist, buffers, n32, len32, counters, status);
  runtime::launch(kernel(RadixKernel::Finish), {grid_stride_blocks(n, device), kPassThreads}, plan, passes, buffers,
                  n32, len32);
}

}  // namespace

int radix_key_bytes(DType dtype) {
  // Complex keys carry a NaN-class byte above the real and imaginary keys (sort.cuh).
  return static_cast<int>(itemsize(dtype)) + (is_complex(dtype) ? 1 : 0);
}

int radix_tile_items(DType dtype, RadixPayload payload) {
  // The largest tiles that keep three blocks per SM (80 registers) without spills and fit 48 KB of
  // shared memory, measured on sm_90 (docs/sorting.md): a pass costs mostly per-tile latency, so
  // the bigger the tile the faster. A payload takes registers and exchange space: the tile's keys
  // and payloads share what the digit counts (10 KB) leave of 48 KB.
  const bool carried = payload.kind != RadixPayload::None;
  int items = 16;
  if (is_complex(dtype)) items = itemsize(dtype) == 8 ? (carried ? 8 : 10) : 4;
  else if (itemsize(dtype) == 4) items = carried ? 16 : 24;
  else if (itemsize(dtype) == 8) items = carried ? 10 : 12;
  const int64_t element_bytes = itemsize(dtype) + (carried ? payload.bytes : 0);
  return static_cast<int>(std::min<int64_t>(items, 38 * 1024 / (kPassThreads * element_bytes)));
}

RowSortPlan plan_row_sort(DType dtype, int64_t row_len) {
  // Shared memory holds the row's values and 16-bit indices plus the per-warp digit counts;
  // 2048 elements of every dtype fit the 48 KB a block gets without opting in.
  (void)dtype;
  if (row_len <= 32) return {32, 1};
  if (row_len <= 64) return {64, 1};
  if (row_len <= 128) return {128, 1};
  if (row_len <= 256) return {256, 1};
  if (row_len <= 512) return {256, 2};
  if (row_len <= 1024) return {256, 4};
  if (row_len <= 2048) return {256, 8};
  return {0, 0};
}

void sort_rows(const NDArray& in, int64_t row_len, const NDArray* values, const NDArray* index) {
  if (in.size() == 0) return;
  activate_current_device({&in, values, index});
  const RowSortPlan plan = plan_row_sort(in.dtype(), row_len);
  if (plan.threads) block_sort(in, row_len, values, index, plan);
  else radix_sort(in, row_len, values, index ? RadixPayload{RadixPayload::FlatIndex, 4} : RadixPayload{}, nullptr, index);
}

void sort_pairs(const NDArray& keys, const NDArray& payload, const NDArray& keys_out, const NDArray& payload_out) {
  if (keys.size() == 0) return;
  activate_current_device({&keys, &payload, &keys_out, &payload_out});
  radix_sort(keys, keys.size(), &keys_out, {RadixPayload::Words, static_cast<uint8_t>(payload.itemsize())}, &payload,
             &payload_out);
}

void gather_rows(const NDArray& in, const NDArray& index, int64_t row_len, const NDArray& out) {
  if (out.size() == 0) return;
  activate_current_device({&in, &index, &out});
  jit::KernelKey key(jit::KernelFamily::GatherRows);
  key.push(static_cast<uint8_t>(in.dtype()));
  const runtime::Kernel kernel = jit::get_kernel(
      key, [&] { return jit::KernelSource{gather_rows_source(in.dtype()), "cuarray_gather_rows"}; });
  runtime::launch(kernel, {grid_stride_blocks(out.size(), in.device()), kPassThreads}, in.raw_data(), index.raw_data(),
                  out.raw_data(), static_cast<unsigned long long>(out.size()), static_cast<unsigned long long>(row_len));
}

std::string sorted_rows_prelude(std::span<const DType> dtypes) {
  std::string s;
  s.reserve(32768);
  jit::append_common_fragments(s, dtypes);
  s += kernels::sort_cuh;
  s += kernels::order_stats_cuh;
  return s;
}

std::string block_sort_source(DType dtype, int threads, int items, bool with_index) {
  std::string s = sort_prelude(dtype);
  const std::string params = "value_t, " + std::to_string(threads) + ", " + std::to_string(items) + ", " +
                             (with_index ? "true" : "false");
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(threads) +
       ") cuarray_sort_rows(const value_t* in, value_t* out, long long* out_index, unsigned len, "
       "unsigned long long rows) {\n"
       "  __shared__ cuarray::BlockSortStorage<" + params + "> storage;\n"
       "  for (unsigned long long r = blockIdx.x; r < rows; r += gridDim.x) {\n"
       "    cuarray::block_sort_row<" + params + ">(in + r * len, out ? out + r * len : out, "
       "out_index ? out_index + r * len : out_index, len, storage);\n"
       "    __syncthreads();\n  }\n}\n";
  return s;
}

std::string radix_passes_source(DType dtype, RadixPayload payload, int items) {
  std::string s = sort_prelude(dtype);
  const std::string T = std::to_string(kPassThreads), I = std::to_string(items), P = payload_type(payload);
  const std::string bounds = "extern \"C\" __global__ void __launch_bounds__(" + T + ") ";
  s += bounds + "cuarray_radix_histogram(const value_t* in, unsigned n, unsigned len, int passes, unsigned* hist) {\n"
                "  cuarray::radix_histogram<value_t, " + T + ">(in, n, len, passes, hist);\n}\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) cuarray_radix_plan(unsigned* hist, int passes, unsigned n, "
       "int* plan) {\n  cuarray::radix_plan(hist, passes, n, plan);\n}\n";
  // Three blocks per SM (at most 85 registers) keep the look-back's latency hidden; none spill.
  s += "extern \"C\" __global__ void __launch_bounds__(" + T + ", 3) cuarray_radix_onesweep(int pass, const int* plan, "
       "const unsigned* bins, cuarray::RadixBuffers b, unsigned n, unsigned len, unsigned* counters, "
       "unsigned long long* status) {\n  __shared__ cuarray::OnesweepStorage<value_t, " + T + ", " + I + ", " + P + "> storage;\n"
       "  cuarray::radix_onesweep<value_t, " + T + ", " + I + ", " + P +
       ">(pass, plan, bins, b, n, len, counters, status, storage);\n}\n";
  s += bounds + "cuarray_radix_finish(const int* plan, int passes, cuarray::RadixBuffers b, unsigned n, unsigned len) {\n"
                "  cuarray::radix_finish<value_t, " + P + ">(plan, passes, b, n, len);\n}\n";
  return s;
}

std::string gather_rows_source(DType dtype) {
  std::string s = sort_prelude(dtype);
  s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kPassThreads) +
       ") cuarray_gather_rows(const value_t* in, const long long* index, value_t* out, unsigned long long n, "
       "unsigned long long len) {\n  cuarray::gather_rows(in, index, out, n, len);\n}\n";
  return s;
}

}  // namespace cuarray::ops
