// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
// generator, so element i of a call is a pure function of (seed, counter + i): results do not
// depend on the launch shape, and each call advances the counter to an unused range.
namespace cuarray {

struct Philox4 {
  unsigned int v[4];
};

__device__ __forceinline__ Philox4 philox4x32_10(unsigned long long counter, unsigned long long seed) {
  unsigned int c0 = static_cast<unsigned int>(counter), c1 = static_cast<unsigned int>(counter >> 32), c2 = 0, c3 = 0;
  unsigned int k0 = static_cast<unsigned int>(seed), k1 = static_cast<unsigned int>(seed >> 32);
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

// Uniform in [0, 1): 53 random bits for double, 24 for float.
template <class T>
__device__ __forceinline__ T random_uniform(unsigned long long seed, unsigned long long counter);

template <>
__device__ __forceinline__ double random_uniform<double>(unsigned long long seed, unsigned long long counter) {
  const Philox4 r = philox4x32_10(counter, seed);
  const unsigned long long bits = (static_cast<unsigned long long>(r.v[0]) << 32 | r.v[1]) >> 11;
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

template <>
__device__ __forceinline__ float random_uniform<float>(unsigned long long seed, unsigned long long counter) {
  const Philox4 r = philox4x32_10(counter, seed);
  return static_cast<float>(r.v[0] >> 8) * (1.0f / 16777216.0f);
}

}  // namespace cuarray
