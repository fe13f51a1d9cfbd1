#include "ops/engines/scatter_combine/scatter_combine.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "core/array_checks.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/launch.hpp"
#include "ops/engines/coalesce.hpp"
#include "cuarray/errors.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray::ops {
namespace {

constexpr unsigned kScatterLocks = 1u << 16;           // kScatterLocks in atomics.cuh
constexpr int64_t kPrivateBinBytes = 32 * 1024;         // shared memory for block-local bins
constexpr int kMaxIndexArrays = kMaxOperands - 2;      // the view also holds the target and the value

constexpr uint16_t bit(DType t) { return static_cast<uint16_t>(1u << static_cast<int>(t)); }
constexpr uint16_t kWideInts = bit(DType::Int32) | bit(DType::UInt32) | bit(DType::Int64) | bit(DType::UInt64);

// The dtypes each hardware atomic of the ufunc table (UfuncDef::atomic) serves.
struct NativeCombine {
  AtomicOp atomic;
  CombineMethod method;
  uint16_t dtypes;
};
constexpr NativeCombine kNativeCombines[] = {
    {AtomicOp::Add, CombineMethod::Add,
     kWideInts | bit(DType::Float32) | bit(DType::Float64) | bit(DType::Complex64) | bit(DType::Complex128)},
    {AtomicOp::Max, CombineMethod::Max, kWideInts}, {AtomicOp::Min, CombineMethod::Min, kWideInts},
    {AtomicOp::And, CombineMethod::And, kWideInts}, {AtomicOp::Or, CombineMethod::Or, kWideInts},
    {AtomicOp::Xor, CombineMethod::Xor, kWideInts},
};

std::string str(int64_t v) { return std::to_string(v); }

// The statement that applies `v` (or, for unary ufuncs, nothing) to the element at `where`.
std::string combine_statement(CombineMethod m, bool has_value, const std::string& where) {
  const std::string p = "reinterpret_cast<t_t*>(" + where + ")";
  const std::string update =
      has_value ? "[&](const t_t old) { return cuarray_update(old, v); }" : "[&](const t_t old) { return cuarray_update(old); }";
  switch (m) {
    case CombineMethod::Add: return "cuarray::atomic_add_native(" + p + ", v);\n";
    case CombineMethod::Max: return "cuarray::atomic_max_native(" + p + ", v);\n";
    case CombineMethod::Min: return "cuarray::atomic_min_native(" + p + ", v);\n";
    case CombineMethod::And: return "cuarray::atomic_and_native(" + p + ", v);\n";
    case CombineMethod::Or: return "cuarray::atomic_or_native(" + p + ", v);\n";
    case CombineMethod::Xor: return "cuarray::atomic_xor_native(" + p + ", v);\n";
    case CombineMethod::CompareAndSwap: return "cuarray::atomic_update_cas(" + p + ", " + update + ");\n";
    case CombineMethod::Lock: return "cuarray::atomic_update_locked(" + p + ", " + update + ", locks);\n";
  }
  return {};
}

// The lock stripes of one device: zeroed once, every lock is released before its kernel ends.
// Kept for the process lifetime (a static destructor would run after the driver is gone).
unsigned int* scatter_locks(int device) {
  static std::mutex mutex;
  static std::unordered_map<int, NDArray*> locks;
  std::lock_guard<std::mutex> lock(mutex);
  NDArray*& stripes = locks[device];
  if (!stripes) stripes = new NDArray(zeros(Shape{kScatterLocks}, DType::UInt32));
  return reinterpret_cast<unsigned int*>(stripes->raw_data());
}

}  // namespace

CombineMethod combine_method(int ufunc_index, const ParsedLoop& loop, DType target) {
  const UfuncDef& def = ufunc_defs()[ufunc_index];
  if (def.nin == 2 && loop.types[0] == target && loop.types[1] == target && loop.types[2] == target)
    for (const NativeCombine& n : kNativeCombines)
      if (n.atomic == def.atomic && (n.dtypes & bit(target))) return n.method;
  return itemsize(target) == 16 ? CombineMethod::Lock : CombineMethod::CompareAndSwap;
}

std::string scatter_source(const ParsedLoop& loop, int nin, DType target, bool has_value, std::optional<DType> value,
                           std::span<const DType> index_dtypes, CombineMethod method, const ScatterLayout& layout) {
  const int ni = static_cast<int>(index_dtypes.size());
  const std::string NP = str(std::max(ni, 1)), R = str(layout.rank), NOPS = str(2 + ni);
  std::string s;
  s.reserve(24576);
  SmallVector<DType, 16> used{target, loop.types[0], loop.types[nin]};
  if (nin > 1) used.push_back(loop.types[1]);
  if (value) used.push_back(*value);
  for (DType t : index_dtypes) used.push_back(t);
  jit::append_common_fragments(s, std::span<const DType>(used.data(), used.size()));
  s += kernels::elementwise_cuh;
  s += kernels::atomics_cuh;
  s += jit::index_typedefs(layout.index64);
  s += "typedef " + std::string(jit::kernel_type_name(target)) + " t_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(loop.types[0])) + " in0_t;\n";
  if (nin > 1) s += "typedef " + std::string(jit::kernel_type_name(loop.types[1])) + " in1_t;\n";
  s += "typedef " + std::string(jit::kernel_type_name(loop.types[nin])) + " out0_t;\n";
  if (value) s += "typedef " + std::string(jit::kernel_type_name(*value)) + " v_t;\n";
  for (int k = 0; k < ni; ++k) s += "typedef " + std::string(jit::kernel_type_name(index_dtypes[k])) + " i" + str(k) + "_t;\n";
  // The ufunc's own loop, then the update it makes to one element: the element converts to the
  // loop's input type and the result back to the element's dtype (unsafely, as NumPy's ufunc.at).
  s += "__device__ __forceinline__ void cuarray_op(const in0_t in0, ";
  if (nin > 1) s += "const in1_t in1, ";
  s += "out0_t& out0) {\n" + std::string(loop.expr) + "\n}\n";
  if (nin > 1) {
    s += "__device__ __forceinline__ t_t cuarray_update(const t_t old, const in1_t v) {\n"
         "  out0_t r;\n  cuarray_op(cuarray_cast<in0_t>(old), v, r);\n  return cuarray_cast<t_t>(r);\n}\n";
  } else {
    s += "__device__ __forceinline__ t_t cuarray_update(const t_t old) {\n"
         "  out0_t r;\n  cuarray_op(cuarray_cast<in0_t>(old), r);\n  return cuarray_cast<t_t>(r);\n}\n";
  }

  s += "extern \"C\" __global__ void " + std::string(kScatterKernelName) +
       "(char* target, const char* values, cuarray::Ptrs<" + NP + "> idx, index_t n, cuarray::Array<index_t, " + R +
       "> shape, cuarray::Array<offset_t, " + R + " * " + NOPS + "> strides, cuarray::Array<long long, " + NP +
       "> lengths, cuarray::Array<long long, " + NP + "> dim_strides, cuarray::Array<int, " + NP + "> axes, ";
  if (nin > 1) s += "const in1_t scalar, ";
  s += "cuarray::ScatterError* err, unsigned int* locks, int apply) {\n";
  if (layout.privatized) {
    s += "extern __shared__ __align__(16) unsigned char smem_raw[];\n"
         "t_t* bins = reinterpret_cast<t_t*>(smem_raw);\nconst long long nbins = lengths.v[0];\n"
         "for (long long b = threadIdx.x; b < nbins; b += blockDim.x) bins[b] = t_t(0);\n__syncthreads();\n";
  }
  s += "for (index_t i = cuarray::global_thread(); i < n; i += cuarray::grid_threads()) {\n";
  s += "  offset_t off[" + NOPS + "];\n#pragma unroll\n  for (int k = 0; k < " + NOPS + "; ++k) off[k] = 0;\n";
  s += "  cuarray::for_each_dim_index<index_t, " + R + ">(i, shape, [&](int d, index_t c) {\n#pragma unroll\n"
       "    for (int k = 0; k < " + NOPS + "; ++k) off[k] += static_cast<offset_t>(c) * strides.v[k * " + R + " + d];\n  });\n";
  s += "  long long t = off[0];\n  bool ok = true;\n";
  const bool raise = layout.rule == OutOfRange::Raise;
  for (int k = 0; k < ni; ++k) {
    const std::string K = str(k);
    s += "  {\n    const i" + K + "_t raw = *reinterpret_cast<const i" + K + "_t*>(idx.p[" + K + "] + off[" + str(2 + k) + "]);\n";
    s += "    long long j;\n    const bool valid = cuarray::index_value(raw, j);\n";
    if (raise) s += "    const long long given = j;\n    if (valid && j < 0) j += lengths.v[" + K + "];\n";
    s += "    if (!valid || j < 0 || j >= lengths.v[" + K + "]) {\n";
    if (raise) s += "      cuarray::report_bad_index(err, axes.v[" + K + "], given, lengths.v[" + K + "]);\n";
    s += "      ok = false;\n    }\n";
    s += "    t += j * dim_strides.v[" + K + "];\n  }\n";
  }
  s += "  if (!ok || !apply) continue;\n";
  if (nin > 1) {
    if (value) s += "  const in1_t v = cuarray_cast<in1_t>(*reinterpret_cast<const v_t*>(values + off[1]));\n";
    else s += "  const in1_t v = scalar;\n";
  }
  if (layout.privatized) s += "  " + combine_statement(method, nin > 1, "bins + (t - off[0]) / dim_strides.v[0]");
  else s += "  " + combine_statement(method, nin > 1, "target + t");
  s += "}\n";
  if (layout.privatized) {
    // One global atomic per bin and block.
    s += "__syncthreads();\nfor (long long b = threadIdx.x; b < nbins; b += blockDim.x) {\n"
         "  const t_t v = bins[b];\n  if (v != t_t(0)) " +
         combine_statement(method, true, "target + b * dim_strides.v[0]") + "}\n";
  }
  s += "}\n";
  return s;
}

void scatter_combine(int ufunc_index, const ParsedLoop& loop, const NDArray& target, const ScatterSelection& sel,
                     const Operand* value, OutOfRange rule) {
  const UfuncDef& def = ufunc_defs()[ufunc_index];
  const int nin = def.nin;
  const int ni = static_cast<int>(sel.indices.size());
  if (ni > kMaxIndexArrays) throw_error(ErrorKind::Index, "too many index arrays for ufunc.at");
  const int64_t n = shape_size(sel.shape);
  if (n == 0) return;
  const int device = activate_current_device({&target, value ? value->array : nullptr});

  // View operands: target, value, index arrays, over the selection's shape.
  StridedView view;
  view.shape = sel.shape;
  view.count = 2 + ni;
  view.strides[0] = sel.strides;
  const bool value_array = value && !value->is_scalar();
  if (value_array) {
    const NDArray& v = *value->array;
    const Shape* shapes[] = {&v.shape(), &sel.shape};
    Shape b;
    try {
      b = broadcast_shapes(shapes);
    } catch (const Error&) {
      b = Shape{-1};
    }
    if (b != sel.shape) throw_error(ErrorKind::Value, "array is not broadcastable to correct shape");
    view.strides[1] = broadcast_strides(v.shape(), v.strides(), sel.shape);
  } else {
    view.strides[1] = Strides(sel.shape.size(), 0);
  }
  for (int k = 0; k < ni; ++k) view.strides[2 + k] = sel.indices[k].strides;
  coalesce(view);
  if (view.shape.empty()) {  // rank 0 (all dims of length 1): one dim of length 1
    view.shape.push_back(1);
    for (int k = 0; k < view.count; ++k) view.strides[k].push_back(0);
  }
  const int rank = static_cast<int>(view.shape.size());

  const CombineMethod method = combine_method(ufunc_index, loop, target.dtype());
  ScatterLayout layout{};
  layout.rank = rank;
  layout.index64 = needs_index64(view, n);
  layout.rule = rule;
  // Block-local bins when the target is a short contiguous run addressed by one index array
  // (bincount, histograms, and add.at into a short 1-D target, whose indices the raise rule
  // checks in a first pass).
  const bool real_add = method == CombineMethod::Add && !is_complex(target.dtype());
  layout.privatized = real_add && ni == 1 && sel.strides == Strides(sel.shape.size(), 0) &&
                      sel.indices[0].stride == target.itemsize() &&
                      sel.indices[0].length * target.itemsize() <= kPrivateBinBytes &&
                      n >= 8 * sel.indices[0].length;

  std::optional<DType> value_dtype;
  if (value_array) value_dtype = value->array->dtype();
  SmallVector<DType, 16> index_dtypes;
  for (const ScatterIndex& ix : sel.indices) index_dtypes.push_back(ix.array.dtype());

  jit::KernelKey key(jit::KernelFamily::ScatterCombine);
  key.push(static_cast<uint8_t>(ufunc_index)).push(static_cast<uint8_t>(ufunc_index >> 8));
  for (int k = 0; k <= nin; ++k) key.push(static_cast<uint8_t>(loop.types[k]));
  key.push(static_cast<uint8_t>(target.dtype())).push(nin > 1 ? (value_array ? static_cast<uint8_t>(*value_dtype) : 0xfe) : 0xff);
  key.push(static_cast<uint8_t>(method)).push(static_cast<uint8_t>(rank)).push(layout.index64).push(layout.privatized);
  key.push(static_cast<uint8_t>(rule)).push(static_cast<uint8_t>(ni));
  for (DType t : index_dtypes) key.push(static_cast<uint8_t>(t));
  const runtime::Kernel kernel = jit::get_kernel(key, [&] {
    return jit::KernelSource{scatter_source(loop, nin, target.dtype(), nin > 1, value_dtype,
                                            std::span<const DType>(index_dtypes.data(), index_dtypes.size()), method,
                                            layout),
                             kScatterKernelName};
  });

  // Parameters in the generated signature's order; the index tables have max(ni, 1) entries.
  const size_t np = static_cast<size_t>(std::max(ni, 1));
  const char* idx_ptrs[kMaxIndexArrays] = {};
  long long lengths[kMaxIndexArrays] = {}, dim_strides[kMaxIndexArrays] = {};
  int axes[kMaxIndexArrays] = {};
  for (int k = 0; k < ni; ++k) {
    idx_ptrs[k] = sel.indices[k].array.raw_data();
    lengths[k] = sel.indices[k].length;
    dim_strides[k] = sel.indices[k].stride;
    axes[k] = sel.indices[k].axis;
  }
  int64_t strides[kMaxOperands * kMaxDims];
  for (int k = 0; k < view.count; ++k)
    for (int d = 0; d < rank; ++d) strides[k * rank + d] = view.strides[k][d];
  const size_t nstrides = static_cast<size_t>(view.count * rank);
  alignas(16) unsigned char scalar[16] = {};
  if (nin > 1 && !value_array) value->scalar.store_as(loop.types[1], scalar);
  unsigned int* locks = method == CombineMethod::Lock ? scatter_locks(device) : nullptr;
  NDArray error_record;
  void* err_ptr = nullptr;
  if (rule == OutOfRange::Raise && ni > 0) {
    error_record = zeros(Shape{3}, DType::Int64);  // ScatterError: flag and axis, index, length
    err_ptr = error_record.raw_data();
  }

  // `apply` 0 only checks the indices. Privatized kernels keep the bins in dynamic shared memory,
  // in both passes.
  const auto launch = [&](int apply) {
    runtime::KernelArgs args(layout.index64);
    args.value(sel.base).value(value_array ? value->array->raw_data() : nullptr).bytes(idx_ptrs, np * sizeof(char*));
    args.index(n).array(view.shape, static_cast<size_t>(rank), 1).array(std::span(strides, nstrides), nstrides, 0);
    args.bytes(lengths, np * sizeof(long long)).bytes(dim_strides, np * sizeof(long long)).bytes(axes, np * sizeof(int));
    if (nin > 1) args.bytes(scalar, itemsize(loop.types[1]));
    args.value(err_ptr).value(locks).value(apply);
    if (!layout.privatized) return runtime::launch(kernel, {grid_for(n), kBlockThreads}, args.params());
    const int64_t sms = device_properties(device).multiprocessor_count;
    const unsigned grid = std::min<unsigned>(grid_for(n), static_cast<unsigned>(sms * 8));
    runtime::launch(kernel, {grid, kBlockThreads, static_cast<unsigned>(sel.indices[0].length * target.itemsize())},
                    args.params());
  };
  if (err_ptr) {
    // Validation pass: NumPy raises IndexError before it writes anything.
    launch(0);
    int64_t record[3];
    error_record.copy_to_host(record);
    if (record[0] & 1) {
      const int axis = static_cast<int>(record[0] >> 32);
      throw_error(ErrorKind::Index, "index " + std::to_string(record[1]) + " is out of bounds for axis " +
                                        std::to_string(axis) + " with size " + std::to_string(record[2]));
    }
  }
  launch(1);
}

}  // namespace cuarray::ops
