// numpy.pad's index-mapped modes in one pass (src/ops/padding/pad.cpp): every output element finds, per
// axis, the input index it copies (or, in constant mode, which axis' constant it takes). NumPy
// pads axis by axis, each axis reading the padding of the axes before it; for these modes that
// composes to an independent map per axis, so one gather reproduces it exactly. The generated
// part defines, before this fragment: word_t (a raw word of the itemsize), index_t / offset_t,
// R (the rank, dims in the output's memory order: the output is written at its flat index) and
// kMode (PadMode below). Byte strides of the input may be negative. `axis` and `constants` are
// indexed by a run-time dim: as __grid_constant__ they are read in place, where plain parameters
// were copied into every thread's local memory (up to 144 bytes a thread, ptxas -v).
namespace cuarray {

enum PadMode : int { kPadConstant = 0, kPadEdge = 1, kPadReflect = 2, kPadSymmetric = 3, kPadWrap = 4 };

// The input index along an axis of length len that output position i (already shifted by the
// before-width, so i < 0 or i >= len) copies. Repeated reflection and wrapping, as NumPy does
// for pads wider than the axis, are periodic: reflect with period 2 (len - 1) (edges not
// repeated), symmetric with period 2 len (edges repeated), wrap with period len.
__device__ __forceinline__ offset_t pad_source(offset_t i, offset_t len) {
  if constexpr (kMode == kPadEdge) {
    return i < 0 ? 0 : len - 1;
  } else if constexpr (kMode == kPadWrap) {
    const offset_t m = i % len;
    return m < 0 ? m + len : m;
  } else if constexpr (kMode == kPadReflect) {
    if (len == 1) return 0;
    const offset_t period = 2 * (len - 1);
    offset_t m = i % period;
    if (m < 0) m += period;
    return m >= len ? period - m : m;
  } else {
    const offset_t period = 2 * len;
    offset_t m = i % period;
    if (m < 0) m += period;
    return m >= len ? period - 1 - m : m;
  }
}

}  // namespace cuarray

extern "C" __global__ void __launch_bounds__(256)
    cuarray_pad(const char* src, word_t* dst, index_t n, cuarray::Array<index_t, R> out_shape,
                cuarray::Array<offset_t, R> in_shape, cuarray::Array<offset_t, R> before,
                cuarray::Array<offset_t, R> src_strides,
                const __grid_constant__ cuarray::Array<offset_t, R> axis,
                const __grid_constant__ cuarray::Array<word_t, 2 * R> constants) {
  using namespace cuarray;
  for (index_t i = global_thread(); i < n; i += grid_threads()) {
    offset_t off = 0;
    int constant = -1;  // constant mode: 2 * dim + side of the last axis (in NumPy's order) it pads
    for_each_dim_index<index_t, R>(i, out_shape, [&](int d, index_t o) {
      offset_t s = static_cast<offset_t>(o) - before.v[d];
      if (s < 0 || s >= in_shape.v[d]) {
        if constexpr (kMode == kPadConstant) {
          // NumPy fills axis after axis, so the highest padded axis wins (dims may be reordered:
          // `axis` holds each dim's axis number).
          if (constant < 0 || axis.v[d] > axis.v[constant / 2]) constant = 2 * d + (s < 0 ? 0 : 1);
          return;
        } else {
          s = pad_source(s, in_shape.v[d]);
        }
      }
      off += s * src_strides.v[d];
    });
    dst[i] = constant >= 0 ? constants.v[constant] : *reinterpret_cast<const word_t*>(src + off);
  }
}
