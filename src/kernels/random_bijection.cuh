// out[e] = pi(e) for e < k, pi the call's Feistel permutation of [0, n) (feistel_bijection.cuh):
// k distinct values of [0, n) in random order, a pure function of (seed, counter, n, e).
//
// Cycle-walks take 1 to a few passes, and a warp runs at its slowest lane: one element per thread
// would idle about two lanes in three (a warp of 32 waits ~5 passes for a mean of 1.7 at n = 1e7).
// So each thread works through its elements e, e + stride, ... one pass per iteration, taking the
// next element as soon as one lands in range: lanes stay busy until their last element.
extern "C" __global__ void cuarray_random_bijection(long long* __restrict__ out, unsigned long long k,
                                                    unsigned long long n, unsigned long long key,
                                                    unsigned long long counter) {
  using namespace cuarray;
  const FeistelBijection pi = make_feistel_bijection(key, counter, n);
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  unsigned long long e = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long x = e;
  while (e < k) {
    x = pi.encrypt(x);
    if (x < n) {
      out[e] = static_cast<long long>(x);
      e += stride;
      x = e;
    }
  }
}
