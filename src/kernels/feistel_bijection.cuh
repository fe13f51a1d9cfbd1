// A keyed pseudo-random permutation pi of [0, n) (choice without replacement: docs/random_composites.md).
// A balanced Feistel network over 2w bits (4^w >= n, w >= 1) whose round function is Philox4x32-10
// keyed by the stream's seed: round r maps (L, R) to (R, L ^ F_r(R)) with F_r(R) the first word of
// the Philox block at counter (c, r * 2^32 + R), masked to w bits, where c is the one counter the call
// reserved (its whole draw space is the network's key material). With a pseudo-random round
// function the network is a pseudo-random permutation of [0, 4^w) (Luby-Rackoff); cycle-walking
// (apply it again until the value falls below n) restricts it to a permutation of [0, n), in fewer
// than 4 passes on average since 4^w < 4n. Needs philox4x32_10 (random_stream.cuh) before it; plain
// C++ apart from __device__, so the host tests compile it too.
namespace cuarray {

// Six rounds: four already make a strong pseudo-random permutation by Luby-Rackoff's bound, but that
// bound (q^2 / 2^w for q values) is vacuous when a call reveals up to 2^(2w-2) values; five rounds are
// distinguishable from 2^(3w/2) chosen values, six only by computations over ~2^(2w) values of several
// permutations (Patarin 2001; docs/random_composites.md).
constexpr unsigned int kFeistelRounds = 6;

struct FeistelBijection {
  unsigned long long key, counter, n;  // the seed, the reserved counter, the population
  unsigned int half_bits, half_mask;   // w (1..32) and 2^w - 1

  // One pass of the network over [0, 4^w).
  __device__ unsigned long long encrypt(unsigned long long x) const {
    unsigned int left = static_cast<unsigned int>(x >> half_bits);
    unsigned int right = static_cast<unsigned int>(x) & half_mask;
#pragma unroll
    for (unsigned int round = 0; round < kFeistelRounds; ++round) {
      const unsigned int f = philox4x32_10(counter, static_cast<unsigned long long>(round) << 32 | right, key).v[0];
      const unsigned int mixed = left ^ (f & half_mask);
      left = right;
      right = mixed;
    }
    return static_cast<unsigned long long>(left) << half_bits | right;
  }

  // pi(x) for x < n: the cycle of x under encrypt returns below n, so the walk ends.
  __device__ unsigned long long operator()(unsigned long long x) const {
    do x = encrypt(x);
    while (x >= n);
    return x;
  }
};

// w for a population of n: the smallest w >= 1 with 4^w >= n.
__device__ inline unsigned int feistel_half_bits(unsigned long long n) {
  unsigned int bits = 0;  // bits of n - 1
  for (unsigned long long m = n > 0 ? n - 1 : 0; m != 0; m >>= 1) ++bits;
  return bits < 2 ? 1 : (bits + 1) / 2;
}

__device__ inline FeistelBijection make_feistel_bijection(unsigned long long key, unsigned long long counter,
                                                          unsigned long long n) {
  const unsigned int w = feistel_half_bits(n);
  return {key, counter, n, w, w == 32 ? 0xFFFFFFFFu : (1u << w) - 1};
}

}  // namespace cuarray
