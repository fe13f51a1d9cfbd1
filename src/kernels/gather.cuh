// Gather and scatter through an index array (src/ops/engines/gather/gather.cpp). The generated part defines,
// before this fragment: idx_t (the index array's storage type), word_t (a raw word: elements
// move as bytes, several at once where rows are contiguous), index_t / offset_t, R (rank of the
// coalesced iteration shape), RA (rank of the indexed group: one axis for take, every dim for
// flat indexing of a non-contiguous array) and kMode (IndexMode below).
//
// Operands over the iteration shape, as byte strides: 0 the written array, 1 the read array,
// 2 the index array, 3 (scatter only) the index's position: its C-order flat index in the index
// array, in units of one, so that duplicate targets resolve as NumPy's (the last position wins).
namespace cuarray {

enum IndexMode : int { kIndexRaise = 0, kIndexWrap = 1, kIndexClip = 2 };

// The index normalized into [0, len); false (raise mode) when it is out of range.
__device__ __forceinline__ bool normalize_index(const idx_t raw, long long len, long long& i) {
  if constexpr (kind_v<idx_t> == Kind::Unsigned) {
    const unsigned long long u = (unsigned long long)raw;
    if constexpr (kMode == kIndexWrap) {
      i = (long long)(u % (unsigned long long)len);
    } else if constexpr (kMode == kIndexClip) {
      i = u >= (unsigned long long)len ? len - 1 : (long long)u;
    } else {
      i = (long long)u;
      return u < (unsigned long long)len;
    }
    return true;
  } else {
    long long v = (long long)raw;
    if constexpr (kMode == kIndexWrap) {
      v %= len;
      i = v < 0 ? v + len : v;
    } else if constexpr (kMode == kIndexClip) {
      i = v < 0 ? 0 : (v >= len ? len - 1 : v);
    } else {
      i = v < 0 ? v + len : v;
      return i >= 0 && i < len;
    }
    return true;
  }
}

template <int N>
__device__ __forceinline__ void operand_offsets(index_t o, const Array<index_t, R>& shape,
                                                const Array<offset_t, N * R>& strides, offset_t (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  for_each_dim_index<index_t, R>(o, shape, [&](int d, index_t i) {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += static_cast<offset_t>(i) * strides.v[k * R + d];
  });
}

// The byte offset of position i along the indexed group (unravelled in C order over ashape).
__device__ __forceinline__ offset_t indexed_offset(long long i, const Array<index_t, RA>& ashape,
                                                   const Array<offset_t, RA>& astrides) {
  return offset_of<index_t, offset_t, RA>(static_cast<index_t>(i), ashape, astrides);
}

}  // namespace cuarray

// out[o] = src[o with the indexed group at idx[o]]. A bad index (raise mode) writes nothing and
// sets *error; the host reads it once and raises IndexError.
extern "C" __global__ void cuarray_gather(char* out, const char* src, const char* idx, index_t n,
                                          cuarray::Array<index_t, R> shape, cuarray::Array<offset_t, 3 * R> strides,
                                          cuarray::Array<index_t, RA> ashape, cuarray::Array<offset_t, RA> astrides,
                                          long long alen, unsigned int* error) {
  using namespace cuarray;
  for (index_t o = global_thread(); o < n; o += grid_threads()) {
    offset_t off[3];
    operand_offsets<3>(o, shape, strides, off);
    long long i;
    if (!normalize_index(*reinterpret_cast<const idx_t*>(idx + off[2]), alen, i)) {
      *error = 1u;
      continue;
    }
    *reinterpret_cast<word_t*>(out + off[0]) =
        *reinterpret_cast<const word_t*>(src + off[1] + indexed_offset(i, ashape, astrides));
  }
}

// Duplicate targets, sort-free (src/ops/engines/gather/gather.cpp, docs/indexing.md): `seen` and `dup` are
// bitmaps over the indexed group (one bit per target: 1e8 targets fit in L2 as 2 x 12.5 MB), so
// marking costs an L2 atomic per index, not a DRAM round trip. Only the positions whose target is
// marked twice go through last-wins (a 4-byte claim per such target, found through a short list).
__device__ __forceinline__ bool test_bit(const unsigned* bits, long long i) { return (bits[i >> 5] >> (i & 31)) & 1u; }

// Checks every index (raise mode) and, when values differ between duplicate targets, marks each
// target written (`seen`) and written more than once (`dup`).
extern "C" __global__ void cuarray_scatter_mark(const char* idx, index_t n, cuarray::Array<index_t, R> shape,
                                                cuarray::Array<offset_t, 2 * R> strides, long long alen,
                                                unsigned* seen, unsigned* dup, unsigned int* error) {
  using namespace cuarray;
  for (index_t o = global_thread(); o < n; o += grid_threads()) {
    offset_t off[2];  // the index's byte offset and its position
    operand_offsets<2>(o, shape, strides, off);
    long long i;
    if (!normalize_index(*reinterpret_cast<const idx_t*>(idx + off[0]), alen, i)) {
      *error = 1u;
      continue;
    }
    if (!seen) continue;
    const unsigned bit = 1u << (i & 31);
    if (atomicOr(seen + (i >> 5), bit) & bit) atomicOr(dup + (i >> 5), bit);
  }
}

// dst[o with the indexed group at idx[o]] = val[o]. With `dup`, a position whose target is marked
// twice writes nothing yet: it zeroes the target's claim and joins `list` (appended a warp at a
// time: one counter atomic per warp); cuarray_scatter_claim and _resolve finish it.
extern "C" __global__ void cuarray_scatter(char* dst, const char* val, const char* idx, index_t n,
                                           cuarray::Array<index_t, R> shape, cuarray::Array<offset_t, 4 * R> strides,
                                           cuarray::Array<index_t, RA> ashape, cuarray::Array<offset_t, RA> astrides,
                                           long long alen, const unsigned* dup, index_t* claim, index_t* list,
                                           index_t* count) {
  using namespace cuarray;
  const unsigned lane = threadIdx.x & 31u;
  // Whole warps iterate together (blockDim is a multiple of 32), so the ballot below sees every lane.
  for (index_t base = global_thread() - lane; base < n; base += grid_threads()) {
    const index_t o = base + lane;
    bool listed = false;
    if (o < n) {
      offset_t off[4];
      operand_offsets<4>(o, shape, strides, off);
      long long i;
      if (normalize_index(*reinterpret_cast<const idx_t*>(idx + off[2]), alen, i)) {  // raise: checked by the mark pass
        listed = dup && test_bit(dup, i);
        if (listed)
          claim[i] = 0;
        else
          *reinterpret_cast<word_t*>(dst + off[0] + indexed_offset(i, ashape, astrides)) =
              *reinterpret_cast<const word_t*>(val + off[1]);
      }
    }
    if (!dup) continue;
    const unsigned ballot = __ballot_sync(0xffffffffu, listed);
    if (!ballot) continue;
    index_t first = 0;
    if (lane == 0) first = atomicAdd(count, static_cast<index_t>(__popc(ballot)));
    first = __shfl_sync(0xffffffffu, first, 0);
    if (listed) list[first + __popc(ballot & ((1u << lane) - 1u))] = o;
  }
}

namespace cuarray {
// A listed scatter position's operand offsets and its (in-range, checked by the mark pass) target.
__device__ __forceinline__ long long listed_target(index_t o, const char* idx, const Array<index_t, R>& shape,
                                                   const Array<offset_t, 4 * R>& strides, long long alen,
                                                   offset_t (&off)[4]) {
  operand_offsets<4>(o, shape, strides, off);
  long long i;
  normalize_index(*reinterpret_cast<const idx_t*>(idx + off[2]), alen, i);
  return i;
}
}  // namespace cuarray

// The listed positions claim their target: the last position (its C-order place + 1) wins.
extern "C" __global__ void cuarray_scatter_claim(const char* idx, cuarray::Array<index_t, R> shape,
                                                 cuarray::Array<offset_t, 4 * R> strides, long long alen,
                                                 index_t* claim, const index_t* list, const index_t* count) {
  using namespace cuarray;
  const index_t n = *count;
  for (index_t k = global_thread(); k < n; k += grid_threads()) {
    offset_t off[4];
    const long long i = listed_target(list[k], idx, shape, strides, alen, off);
    atomicMax(claim + i, static_cast<index_t>(off[3]) + 1);
  }
}

// Each listed position that won its target's claim writes its value.
extern "C" __global__ void cuarray_scatter_resolve(char* dst, const char* val, const char* idx,
                                                   cuarray::Array<index_t, R> shape,
                                                   cuarray::Array<offset_t, 4 * R> strides,
                                                   cuarray::Array<index_t, RA> ashape,
                                                   cuarray::Array<offset_t, RA> astrides, long long alen,
                                                   const index_t* claim, const index_t* list, const index_t* count) {
  using namespace cuarray;
  const index_t n = *count;
  for (index_t k = global_thread(); k < n; k += grid_threads()) {
    offset_t off[4];
    const long long i = listed_target(list[k], idx, shape, strides, alen, off);
    if (claim[i] != static_cast<index_t>(off[3]) + 1) continue;
    *reinterpret_cast<word_t*>(dst + off[0] + indexed_offset(i, ashape, astrides)) =
        *reinterpret_cast<const word_t*>(val + off[1]);
  }
}

// ---- scatter of one element per position through a sort (src/ops/engines/gather/gather.cpp) ----------------
// Writing values at random targets in position order costs a DRAM read-modify-write per value;
// sorted by target, the writes of a warp share lines, and the duplicates of a target sit next to
// each other in position order (the sort is stable), so the last one is the one to write.

// A bad index (raise mode) leaves this key: no target has it, it sorts last, and the write sees it.
#define CUARRAY_BAD_KEY (~(index_t)0)

// keys[o] = the target of position o (its normalized index; index_t holds every target) and,
// unless the values are already in position order (payload null), payload[o] = its value.
extern "C" __global__ void cuarray_scatter_keys(const char* val, const char* idx, index_t n,
                                                cuarray::Array<index_t, R> shape,
                                                cuarray::Array<offset_t, 4 * R> strides, long long alen,
                                                index_t* keys, word_t* payload, unsigned int* error) {
  using namespace cuarray;
  for (index_t o = global_thread(); o < n; o += grid_threads()) {
    offset_t off[4];
    operand_offsets<4>(o, shape, strides, off);
    long long i;
    const bool valid = normalize_index(*reinterpret_cast<const idx_t*>(idx + off[2]), alen, i);
    if (!valid) *error = 1u;
    keys[o] = valid ? (index_t)i : CUARRAY_BAD_KEY;
    if (payload) payload[o] = *reinterpret_cast<const word_t*>(val + off[1]);
  }
}

// The keys sorted with their payloads: each writes unless the next key has the same target. A bad
// key (last, if any) means nothing is written: the host raises IndexError.
extern "C" __global__ void cuarray_scatter_sorted(char* dst, const index_t* keys, const word_t* payload, index_t n,
                                                  cuarray::Array<index_t, RA> ashape,
                                                  cuarray::Array<offset_t, RA> astrides) {
  using namespace cuarray;
  if (keys[n - 1] == CUARRAY_BAD_KEY) return;
  for (index_t k = global_thread(); k < n; k += grid_threads()) {
    const index_t target = keys[k];
    if (k + 1 < n && keys[k + 1] == target) continue;
    *reinterpret_cast<word_t*>(dst + indexed_offset((long long)target, ashape, astrides)) = payload[k];
  }
}
