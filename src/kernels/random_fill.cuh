// Bulk fills of cuarray.random (random, standard_normal, standard_exponential, integers,
// normal/uniform/exponential with scalar parameters, and discrete laws with scalar parameters
// inverted through a CDF table built on the host): one Philox block per group of K elements, all
// 128 bits used (K = 4 for 32-bit values, 2 for 64-bit ones), so that the kernel runs at the speed
// of its stores. Group g of a call is block (offset + g, draw 0); an integer that Lemire's method
// rejects redraws from the same counter at draw 1, 2, ... The mapping is fixed: a pure function
// of (seed, offset, element). Float64 normals come from the ziggurat (random_ziggurat.cuh), one
// value per 64-bit word, its slow path drawing from the same redraw stream; its layer table is
// staged in shared memory, where the random lookups cost least, and its slow paths wait in a
// per-warp queue (ZigguratRetries, below). Needs out_t, kFillKind, kWideWords, kInversionEntries,
// kFillBlockThreads, kZigguratFill (float64 normals), CUARRAY_FILL_BOUNDS and the ziggurat tables
// from the generated header.
namespace cuarray {

enum FillKind { kFillUniform = 0, kFillNormal = 1, kFillExponential = 2, kFillInteger = 3, kFillInversion = 4 };

// 32-bit values (float or 32-bit-range integers) take a word each; 64-bit ones two.
constexpr int kGroup = kWideWords ? 2 : 4;
constexpr bool kInversionFill = kFillKind == kFillInversion;
// Four 64-bit values from 32-bit draws (int64/uint64 integers of a 32-bit span) are 32 bytes a
// thread: one store of them would leave every warp-wide 16-byte store half its lines. Such groups
// take their elements in tiles of 32 groups (128 elements): group g = 32 t + l holds elements
// 128 t + 2 l + {0, 1} and 128 t + 64 + 2 l + {0, 1}, so each half is a contiguous warp-wide store.
// (A fixed function of g, as every mapping here: the launch shape changes nothing.)
constexpr bool kSplitGroups = kGroup == 4 && sizeof(out_t) == 8;

// Groups covering n elements (in the tiled layout, a partial last tile with r elements needs
// ceil(r / 2) groups up to 64 elements and all 32 above).
__device__ __forceinline__ unsigned long long group_count(unsigned long long n) {
  if constexpr (kSplitGroups) {
    const unsigned long long r = n % 128;
    return n / 128 * 32 + (r <= 64 ? (r + 1) / 2 : 32);
  } else {
    return (n + kGroup - 1) / kGroup;
  }
}

// Returns the elements (bit j: v[j]) left to the ziggurat's retry pass; every other kind finishes
// its group here.
template <class T>
__device__ __forceinline__ unsigned fill_group(const PhiloxBlock& w, RandomStream& redraw, double a, double b,
                                               unsigned long long low, unsigned long long span,
                                               const ZigguratLayer* layers, const double* cdf, long long step,
                                               T (&v)[kGroup]) {
  if constexpr (kFillKind == kFillInversion) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      int x = cdf_search<kInversionEntries>(cdf, uniform_double(join_words(w.v[2 * j], w.v[2 * j + 1])));
      // Past the table (NumPy's bound for the binomial): a fresh uniform, as NumPy restarts.
      while (isinf(cdf[x])) x = cdf_search<kInversionEntries>(cdf, redraw.next_double());
      v[j] = static_cast<T>(static_cast<long long>(low) + step * x);
    }
  } else if constexpr (kFillKind == kFillInteger) {
    if constexpr (kWideWords) {
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const unsigned long long x = join_words(w.v[2 * j], w.v[2 * j + 1]);
        v[j] = static_cast<T>(low + (span == ~0ull ? x : bounded_u64(redraw, x, span + 1)));
      }
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j)
        v[j] = static_cast<T>(low + bounded_u32(redraw, w.v[j], static_cast<unsigned int>(span + 1)));
    }
  } else if constexpr (sizeof(T) == 4) {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if constexpr (kFillKind == kFillNormal) {
#pragma unroll
      for (int j = 0; j < 4; j += 2) {
        const float r = sqrtf(-2.0f * logf(uniform_open_float(w.v[j])));
        float sn, cs;
        sincospif(2.0f * uniform_float(w.v[j + 1]), &sn, &cs);
        v[j] = fa + fb * (r * cs);
        v[j + 1] = fa + fb * (r * sn);
      }
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j)
        v[j] = kFillKind == kFillUniform ? fa + fb * uniform_float(w.v[j]) : fb * -logf(uniform_open_float(w.v[j]));
    }
  } else {
    const unsigned long long x0 = join_words(w.v[0], w.v[1]), x1 = join_words(w.v[2], w.v[3]);
    if constexpr (kFillKind == kFillNormal) {
      const ZigguratDraw d0 = ziggurat_draw(x0, layers), d1 = ziggurat_draw(x1, layers);
      v[0] = a + b * d0.x;
      v[1] = a + b * d1.x;
      return (d0.inside ? 0u : 1u) | (d1.inside ? 0u : 2u);
    } else if constexpr (kFillKind == kFillUniform) {
      v[0] = a + b * uniform_double(x0);
      v[1] = a + b * uniform_double(x1);
    } else {
      v[0] = b * -log(uniform_open_double(x0));
      v[1] = b * -log(uniform_open_double(x1));
    }
  }
  return 0;
}

template <class T, int N>
struct alignas(sizeof(T) * N) FillVec {
  T v[N];
};

// Stores group g's values: one vector store, or the two halves of a tiled group, or element by
// element in a partial last group.
__device__ __forceinline__ void store_group(out_t* out, unsigned long long n, unsigned long long g,
                                            const out_t (&v)[kGroup]) {
  if constexpr (kSplitGroups) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const unsigned long long e = g / 32 * 128 + h * 64 + g % 32 * 2;
      if (e + 2 <= n) {
        FillVec<out_t, 2> packed;
        packed.v[0] = v[2 * h];
        packed.v[1] = v[2 * h + 1];
        reinterpret_cast<FillVec<out_t, 2>*>(out)[e / 2] = packed;
      } else if (e < n) {
        out[e] = v[2 * h];
      }
    }
  } else {
    const unsigned long long first = g * kGroup;
    if (first + kGroup <= n) {
      FillVec<out_t, kGroup> packed;
#pragma unroll
      for (int j = 0; j < kGroup; ++j) packed.v[j] = v[j];
      reinterpret_cast<FillVec<out_t, kGroup>*>(out)[g] = packed;
    } else {
#pragma unroll
      for (int j = 0; j < kGroup; ++j)
        if (first + j < n) out[first + j] = v[j];
    }
  }
}

// The ziggurat's slow path (1.5% of values: a wedge's exp and a fresh Philox block, or the tail's
// logarithms), run where it falls, holds the whole warp for its one lane; with 64 values a warp
// iteration, 62% of iterations meet one, which cost about as much as all the Philox blocks. So a
// lane whose group leaves the fast path queues it (its block's words and which values left) in
// its warp's ring in shared memory, and the warp runs 32 queued groups at once whenever that many
// wait, the rest when its groups are done; a warp of the capped grid meets about 22 over its
// ~1,500 values, about one pass at full width. The retry runs each value that left through the
// whole ziggurat from its word, drawing from the group's redraw stream (draw 1, 2, ...) in value
// order, exactly as the inline code did: the values do not change. Its stores overwrite the fast
// path's placeholders after a __syncwarp, which orders the warp's stores.
struct ZigguratRetry {
  PhiloxBlock w;
  unsigned long long group;
  unsigned failed;  // bit j: value j
};

// 31 waiting and 32 arriving fit.
constexpr unsigned kRetryRing = 64;

class ZigguratRetries {
 public:
  __device__ ZigguratRetries(ZigguratRetry* ring, out_t* out, unsigned long long key, unsigned long long offset,
                             double a, double b, const ZigguratLayer* layers)
      : ring_(ring), out_(out), key_(key), offset_(offset), a_(a), b_(b), layers_(layers) {}

  // Called by every lane of the warp together; `failed` is 0 where the lane's group is done.
  __device__ void push(unsigned failed, const PhiloxBlock& w, unsigned long long group) {
    const unsigned lane = threadIdx.x % 32;
    const unsigned queued = __ballot_sync(0xffffffffu, failed != 0);
    if (queued == 0) return;
    if (failed) ring_[(head_ + count_ + __popc(queued & ((1u << lane) - 1))) % kRetryRing] = {w, group, failed};
    count_ += __popc(queued);
    if (count_ >= 32) run(32);
  }
  __device__ void finish() {
    if (count_ > 0) run(count_);
  }

 private:
  __device__ void run(unsigned groups) {
    __syncwarp();
    const unsigned lane = threadIdx.x % 32;
    if (lane < groups) {
      const ZigguratRetry q = ring_[(head_ + lane) % kRetryRing];
      RandomStream redraw(key_, offset_ + q.group, 1);
#pragma unroll
      for (int j = 0; j < 2; ++j)
        if (q.failed >> j & 1) {
          const double z = ziggurat_normal(join_words(q.w.v[2 * j], q.w.v[2 * j + 1]), redraw, layers_,
                                           kNormalZigguratF);
          out_[2 * q.group + j] = static_cast<out_t>(a_ + b_ * z);
        }
    }
    head_ = (head_ + groups) % kRetryRing;
    count_ -= groups;
    __syncwarp();
  }

  ZigguratRetry* ring_;
  out_t* out_;
  unsigned long long key_, offset_;
  double a_, b_;
  const ZigguratLayer* layers_;
  unsigned head_ = 0, count_ = 0;  // the same in every lane
};

}  // namespace cuarray

// Uniform: a + b U; normal: a + b Z; exponential: b E; integer: low + [0, span] (span < 2^32 - 1
// unless kWideWords); inversion: low + step X, X searched in the kInversionEntries doubles at cdf.
// `out` is C-contiguous and aligned to the group's size (a fresh pool block). Blocks of
// kFillBlockThreads threads.
extern "C" __global__ void CUARRAY_FILL_BOUNDS cuarray_random_fill(out_t* __restrict__ out, unsigned long long n,
                                                                   unsigned long long key, unsigned long long offset,
                                                                   double a, double b, unsigned long long low,
                                                                   unsigned long long span,
                                                                   const double* __restrict__ cdf, long long step) {
  using namespace cuarray;
  __shared__ ZigguratLayer layers[kZigguratFill ? 256 : 1];
  __shared__ ZigguratRetry retry_rings[kZigguratFill ? kFillBlockThreads / 32 * kRetryRing : 1];
  if constexpr (kZigguratFill) {
    for (unsigned int i = threadIdx.x; i < 256; i += blockDim.x) layers[i] = kNormalZigguratLayers[i];
    __syncthreads();
  }
  __shared__ double cdf_table[kInversionFill ? kInversionEntries : 1];
  if constexpr (kInversionFill) {
    for (unsigned int i = threadIdx.x; i < kInversionEntries; i += blockDim.x) cdf_table[i] = cdf[i];
    __syncthreads();
  }
  ZigguratRetries retries(retry_rings + (kZigguratFill ? threadIdx.x / 32 * kRetryRing : 0), out, key, offset, a, b,
                          layers);
  const unsigned long long groups = group_count(n);
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  // The ziggurat's warps go round together while any lane has a group (the retry queue votes
  // across the warp); other fills' lanes stop at their last group.
  const unsigned lane_behind = kZigguratFill ? threadIdx.x % 32 : 0;
  for (unsigned long long g = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       g - lane_behind < groups; g += stride) {
    unsigned failed = 0;
    PhiloxBlock w{};
    if (g < groups) {
      w = philox4x32_10(offset + g, 0, key);
      RandomStream redraw(key, offset + g, 1);
      out_t v[kGroup];
      failed = fill_group<out_t>(w, redraw, a, b, low, span, layers, cdf_table, step, v);
      // A partial last group's value past n is neither stored nor retried.
      if (kZigguratFill && 2 * g + 1 == n) failed &= 1u;
      store_group(out, n, g, v);
    }
    if constexpr (kZigguratFill) retries.push(failed, w, g);
  }
  if constexpr (kZigguratFill) retries.finish();
}
