// The scan engine: an inclusive scan along one axis of an array of any rank and layout. Each
// element maps to an accumulator, accumulators combine left to right, each prefix is cast to the
// output. The plan follows the shape (docs/scans.md): long rows split into tiles chained by
// decoupled look-back, many short rows take a warp each, rows scanned along an outer axis (and
// non-associative operations) take a thread each, coalesced across the kept dims.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "ops/engines/coalesce.hpp"
#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

struct ParsedLoop;  // ufunc_resolve.hpp

// Expressions see in_t (the input's storage type), loop_t (the ufunc loop's dtype the element is
// cast to first), acc_t (the dtype the scan combines in) and out_t.
struct ScanSpec {
  uint64_t op_id;         // distinct per (map, step): part of the kernel key
  std::string_view map;   // acc_t from `v` (the element)
  std::string_view step;  // a ufunc loop body: out0 from in0 (the prefix) and in1 (the element), all acc_t
  bool associative;       // false: only NumPy's left-to-right fold (the sequential plan) gives its values
};

enum class ScanPlanKind : uint8_t { Sequential, WarpRows, Tiles };

// How one scan is launched. Tiles and warp segments hold `chunks` chunks of 32 * `vec` elements
// per warp; vec > 1 means 16-byte-or-less vector loads along a contiguous, aligned axis.
struct ScanPlan {
  ScanPlanKind kind;
  int vec;
  int chunks;
  bool index64;
};

inline constexpr int kScanThreads = 256;  // 8 warps: one tile is 8 segments

// What the plan of one scan depends on, all host values: the operands' shape, byte strides,
// itemsizes, data addresses (for vector alignment) and byte spans, and the scanned axis (in range).
struct ScanGeometry {
  Shape shape;
  Strides in_strides, out_strides;
  int axis = 0;
  int64_t in_itemsize = 1, out_itemsize = 1;
  uintptr_t in_addr = 0, out_addr = 0;
  int64_t in_span = 0, out_span = 0;
};

// The plan and launch geometry: rows (operands out, in) coalesced over every dim but the axis.
struct ScanLayout {
  ScanPlan plan;
  StridedView rows;
  int64_t n, nrows, tiles_per_row, sin, sout;
};

// Pure host planning (no device calls): `sms` is the device's multiprocessor count. Throws
// ValueError for more than 2**31 tiles.
ScanLayout plan_scan(const ScanGeometry& g, DType acc, bool associative, int sms);

// out[..., i, ...] = post(map(in[..., 0, ...]) (+) ... (+) map(in[..., i, ...])) along `axis` (in
// range); `in` and `out` have the same shape. An input that partly overlaps `out` is read from a
// copy; out may be `in` itself.
void run_scan(const ScanSpec& spec, const NDArray& in, int axis, DType loop, DType acc, const NDArray& out);

// What an element becomes before it is combined: itself (cast to the loop dtype), or NaN replaced
// by the operation's identity (nancumsum: 0, nancumprod: 1) as NumPy's _replace_nan does.
enum class ScanElementMap : uint8_t { Plain, NanAsZero, NanAsOne };

// The scan of ufunc table entry `ufunc_index` over its loop `loop` (one dtype throughout): the
// spec, and the dtype it combines in (float16 scans in parallel combine in float32).
struct AccumulatePlan {
  ScanSpec spec;
  DType loop, acc;
};
AccumulatePlan plan_accumulate(int ufunc_index, const ParsedLoop& loop, ScanElementMap map);

// The CUDA source of one scan kernel over `kept_rank` coalesced row dims.
std::string scan_source(const ScanSpec& spec, DType in, DType loop, DType acc, DType out, int kept_rank,
                        const ScanPlan& plan);

}  // namespace cuarray::ops
