// The bit stream of cuarray.random: Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy
// as 1, 2, 3") keyed by the 64-bit seed over a 128-bit counter. Element e of a call owns the
// substream whose counter is (offset + e) in the low 64 bits and a draw index in the high 64 bits,
// so a rejection sampler takes as many blocks as it needs, and every value is a pure function of
// (seed, offset, e): independent of the launch shape and the device, with no state on the device.
namespace cuarray {

struct PhiloxBlock {
  unsigned int v[4];
};

__device__ __forceinline__ PhiloxBlock philox4x32_10(unsigned long long counter_lo, unsigned long long counter_hi,
                                                     unsigned long long key) {
  unsigned int c0 = static_cast<unsigned int>(counter_lo), c1 = static_cast<unsigned int>(counter_lo >> 32);
  unsigned int c2 = static_cast<unsigned int>(counter_hi), c3 = static_cast<unsigned int>(counter_hi >> 32);
  unsigned int k0 = static_cast<unsigned int>(key), k1 = static_cast<unsigned int>(key >> 32);
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    const unsigned int hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const unsigned int hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {{c0, c1, c2, c3}};
}

// Words to uniform floats: 53 bits for double, 24 for float. `uniform_*` lie in [0, 1),
// `uniform_open_*` in (0, 1] (for logarithms).
__device__ __forceinline__ double uniform_double(unsigned long long bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}
__device__ __forceinline__ float uniform_float(unsigned int bits) {
  return static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);
}
__device__ __forceinline__ double uniform_open_double(unsigned long long bits) {
  return static_cast<double>((bits >> 11) + 1) * (1.0 / 9007199254740992.0);
}
__device__ __forceinline__ float uniform_open_float(unsigned int bits) {
  return static_cast<float>((bits >> 8) + 1) * (1.0f / 16777216.0f);
}
__device__ __forceinline__ unsigned long long join_words(unsigned int hi, unsigned int lo) {
  return static_cast<unsigned long long>(hi) << 32 | lo;
}

// One element's substream: words come four at a time from successive draw indices.
class RandomStream {
 public:
  __device__ RandomStream(unsigned long long key, unsigned long long counter, unsigned long long first_draw = 0)
      : key_(key), counter_(counter), draw_(first_draw) {}

  __device__ unsigned int next_u32() {
    if (left_ == 0) {
      const PhiloxBlock b = philox4x32_10(counter_, draw_++, key_);
      w0_ = b.v[0], w1_ = b.v[1], w2_ = b.v[2], w3_ = b.v[3];
      left_ = 4;
    }
    // Shifting the words instead of indexing them keeps them in registers.
    const unsigned int r = w0_;
    w0_ = w1_, w1_ = w2_, w2_ = w3_;
    --left_;
    return r;
  }
  __device__ unsigned long long next_u64() {
    const unsigned int hi = next_u32();
    return join_words(hi, next_u32());
  }
  __device__ double next_double() { return uniform_double(next_u64()); }
  __device__ float next_float() { return uniform_float(next_u32()); }
  __device__ double next_open_double() { return uniform_open_double(next_u64()); }
  __device__ float next_open_float() { return uniform_open_float(next_u32()); }
  template <class T>
  __device__ T next_uniform() {
    if constexpr (sizeof(T) == 4) return next_float();
    else return next_double();
  }
  template <class T>
  __device__ T next_open_uniform() {
    if constexpr (sizeof(T) == 4) return next_open_float();
    else return next_open_double();
  }

  // Box-Muller gives normals in pairs; the second waits here for the next call.
  bool has_spare = false;
  double spare = 0;

 private:
  unsigned long long key_, counter_, draw_;
  unsigned int w0_ = 0, w1_ = 0, w2_ = 0, w3_ = 0;
  int left_ = 0;
};

// Lemire's nearly-divisionless bounded integer in [0, range) (range > 0), unbiased by rejection.
__device__ __forceinline__ unsigned int bounded_u32(RandomStream& s, unsigned int x, unsigned int range) {
  unsigned long long m = static_cast<unsigned long long>(x) * range;
  unsigned int low = static_cast<unsigned int>(m);
  if (low < range) {
    const unsigned int threshold = (0u - range) % range;
    while (low < threshold) {
      m = static_cast<unsigned long long>(s.next_u32()) * range;
      low = static_cast<unsigned int>(m);
    }
  }
  return static_cast<unsigned int>(m >> 32);
}

__device__ __forceinline__ unsigned long long bounded_u64(RandomStream& s, unsigned long long x,
                                                          unsigned long long range) {
  unsigned long long low = x * range, high = __umul64hi(x, range);
  if (low < range) {
    const unsigned long long threshold = (0ull - range) % range;
    while (low < threshold) {
      x = s.next_u64();
      low = x * range;
      high = __umul64hi(x, range);
    }
  }
  return high;
}

// An integer in [0, span] (span + 1 values; span = 2^64 - 1 takes the raw word).
__device__ __forceinline__ unsigned long long random_interval(RandomStream& s, unsigned long long span) {
  if (span == ~0ull) return s.next_u64();
  if (span < 0xFFFFFFFFull) return bounded_u32(s, s.next_u32(), static_cast<unsigned int>(span + 1));
  return bounded_u64(s, s.next_u64(), span + 1);
}

// Inversion through a table: the first x with u <= cdf[x] among N entries (N a power of two,
// cdf[N - 1] = +inf), in log2(N) steps that every thread of a warp takes alike.
template <int N>
__device__ __forceinline__ int cdf_search(const double* cdf, double u) {
  int x = 0;
#pragma unroll
  for (int half = N / 2; half > 0; half >>= 1)
    if (cdf[x + half - 1] < u) x += half;
  return x;
}

}  // namespace cuarray
