// The reduction engine: map each input element to an accumulator, combine, post-map into the
// output. One kernel template serves every plan: a block is TX x TY threads, x over outputs, y over
// reduced elements; reducing along a contiguous axis uses TY lanes per output (coalesced along y),
// along outer axes TX outputs per block (coalesced along x); tall reductions split across blocks
// into partials and finish with a second pass (docs/reductions.md).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// Expressions see these names: in_t (the input's storage type), compute_t (the dtype the
// reduction computes in), acc_t (the accumulator: compute_t, or `acc_type`), out_t.
struct ReductionSpec {
  uint64_t op_id;
  std::string_view map;       // acc_t from `v` (the element) and `r` (its flat index in the reduced dims, C order)
  std::string_view combine;   // acc_t from `a` and `b`, e.g. "a + b"
  std::string_view identity;  // acc_t, e.g. "cuarray_cast<acc_t>(0)"
  std::string_view post;      // out_t from `a`, `count` (elements reduced) and `param` (e.g. ddof)
  std::string_view acc_type = {};  // a struct such as "cuarray::Welford<compute_t>"; empty: compute_t
  // acc_t from `a`, `v` and `r`: folds one more element into a thread's running accumulator, whose
  // indices only grow. Cheaper than combine(a, map(v, r)) where the general merge does work a
  // single element does not need (Welford's merge divides twice; an arg step needs no index tie).
  // Empty: combine(a, map(v, r)).
  std::string_view step = {};
  // acc_t from `a` and four elements `v0`..`v3` (in order): folds four elements at once where that
  // is cheaper than four steps (Welford: one division for the four instead of four). Empty: the
  // elements go through `step`. Not used under a where= mask.
  std::string_view step4 = {};
  // User ReductionKernels (cuarray/user_kernels.hpp): device code before the typedefs of acc_t and
  // the expressions (so acc_type may name its types), the dtypes it names beyond in/compute/out,
  // and extra NVRTC options (all part of op_id).
  std::string_view preamble = {};
  std::span<const DType> fragment_dtypes = {};
  std::span<const std::string> options = {};
};

// Reduces `in` over `axes` (normalized, ascending, unique) into `out`, whose shape is `in`'s with
// those axes removed. An empty reduction writes the post-mapped identity. `ordered` keeps the
// reduced dims in C order (arg reductions report C-order indices); otherwise they are reordered
// for memory order. `where`: a bool array of `in`'s shape (a broadcast view is fine); elements
// where it is false are skipped (never folded into the accumulator). `extra`: more inputs of `in`'s
// shape (broadcast views are fine), read at the same element: the map sees them as v1, v2, ..
// (types in1_t, ..), so several inputs reduce in one pass with no mapped temporary (user
// ReductionKernels, cuarray.fuse). Not with spec.step or spec.step4.
void run_reduction(const ReductionSpec& spec, const NDArray& in, std::span<const int> axes, DType compute,
                   const NDArray& out, double param = 0, bool ordered = false, const NDArray* where = nullptr,
                   std::span<const NDArray> extra = {});

// How one reduction pass is launched: a block of tx * ty threads (x over outputs, y over reduced
// elements) and `splits` blocks along the reduction, each covering `chunk` elements.
struct ReducePlan {
  int tx, ty;
  int64_t splits;
  int64_t chunk;
  bool index64;
  bool masked = false;  // the pass reads a where= mask beside the input (first passes only)
};

// The CUDA source of one pass. `partial_input`: the input holds accumulators from a previous
// pass (no map); `partial_output`: write accumulators per split instead of post-mapped outputs.
// `extra`: the dtypes of run_reduction's extra inputs (first passes only).
std::string reduction_source(const ReductionSpec& spec, DType in, DType compute, DType out, bool partial_input,
                             bool partial_output, int kept_rank, int reduced_rank, const ReducePlan& plan,
                             std::span<const DType> extra = {});

// Normalizes axis= for a reduction: nullopt means all axes. Throws AxisError / ValueError.
SmallVector<int, 8> reduction_axes(std::optional<std::span<const int64_t>> axes, int ndim);

}  // namespace cuarray::ops
