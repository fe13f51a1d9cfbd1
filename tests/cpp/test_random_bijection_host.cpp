// choice's Feistel permutation on the host, compiled from the same .cuh files NVRTC compiles
// (feistel_bijection.cuh, random_bijection.cuh): Philox4x32-10 gives Random123's known answers, the
// cycle-walked network is a bijection of [0, n) for every n up to 5000 (exhaustively, several keys)
// and at the edges of w, its values equal the NumPy model's (tests/python/feistel_model.py, which the
// GPU suite compares with the device), and the kernel, run thread by thread, writes every element
// once whatever the grid. The kernel compiles with NVRTC in test_random.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#define __device__
#define __forceinline__ inline
#define __global__
#define __restrict__
// The kernel's built-in variables, set by the test to run its threads one after another.
struct HostDim3 {
  unsigned x = 1;
};
HostDim3 gridDim, blockDim, blockIdx, threadIdx;
namespace {
unsigned int __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
[[maybe_unused]] unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
}  // namespace
#include "kernels/random_stream.cuh"
// (the network needs Philox first)
#include "kernels/feistel_bijection.cuh"
#include "kernels/random_bijection.cuh"
#undef __device__
#undef __forceinline__
#undef __global__
#undef __restrict__

namespace {

using cuarray::make_feistel_bijection;

TEST(FeistelHost, PhiloxKnownAnswersOfRandom123) {
  struct Kat {
    unsigned long long counter_lo, counter_hi, key;
    unsigned int expected[4];
  };
  // counter words (c0, c1, c2, c3) = (lo, lo >> 32, hi, hi >> 32); key words (k0, k1) = (key, key >> 32)
  const Kat kats[] = {
      {0, 0, 0, {0x6627E8D5u, 0xE169C58Du, 0xBC57AC4Cu, 0x9B00DBD8u}},
      {~0ull, ~0ull, ~0ull, {0x408F276Du, 0x41C83B0Eu, 0xA20BC7C6u, 0x6D5451FDu}},
      {0x85A308D3243F6A88ull, 0x0370734413198A2Eull, 0x299F31D0A4093822ull,
       {0xD16CFE09u, 0x94FDCCEBu, 0x5001E420u, 0x24126EA1u}},
  };
  for (const Kat& k : kats) {
    const cuarray::PhiloxBlock b = cuarray::philox4x32_10(k.counter_lo, k.counter_hi, k.key);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(b.v[j], k.expected[j]) << "word " << j;
  }
}

TEST(FeistelHost, HalfBitsAreTheSmallestWithFourToTheWAtLeastN) {
  const std::pair<unsigned long long, unsigned> cases[] = {
      {0, 1}, {1, 1}, {2, 1}, {4, 1}, {5, 2}, {16, 2}, {17, 3},
      {10000000, 12}, {1ull << 24, 12}, {(1ull << 24) + 1, 13}, {1ull << 63, 32}};
  for (const auto& [n, w] : cases) EXPECT_EQ(cuarray::feistel_half_bits(n), w) << "n = " << n;
}

std::vector<unsigned long long> prefix(unsigned long long key, unsigned long long counter, unsigned long long n,
                                       unsigned long long k) {
  const cuarray::FeistelBijection pi = make_feistel_bijection(key, counter, n);
  std::vector<unsigned long long> v(k);
  for (unsigned long long e = 0; e < k; ++e) v[e] = pi(e);
  return v;
}

void expect_permutation(std::vector<unsigned long long> v, unsigned long long n) {
  std::sort(v.begin(), v.end());
  std::vector<unsigned long long> iota(n);
  std::iota(iota.begin(), iota.end(), 0ull);
  EXPECT_EQ(v, iota) << "not a permutation of [0, " << n << ")";
}

TEST(FeistelHost, EveryPopulationUpTo5000IsPermuted) {
  const std::pair<unsigned long long, unsigned long long> keys[] = {{0, 0}, {1234, 7}, {~0ull, ~0ull}};
  for (const auto& [key, counter] : keys)
    for (unsigned long long n = 1; n <= 5000; ++n) {
      expect_permutation(prefix(key, counter, n, n), n);
      if (HasFailure()) return;
    }
}

TEST(FeistelHost, PopulationsAtTheEdgesOfW) {
  for (unsigned long long n : {65535ull, 65536ull, 65537ull, 262144ull, 262145ull})
    expect_permutation(prefix(31, 4, n, n), n);
}

TEST(FeistelHost, NetworkIsABijectionOfItsDomain) {
  for (unsigned w = 1; w <= 9; ++w) {
    const cuarray::FeistelBijection pi{5, 6, 0, w, (1u << w) - 1};
    std::vector<unsigned long long> v(1ull << (2 * w));
    for (unsigned long long x = 0; x < v.size(); ++x) v[x] = pi.encrypt(x);
    expect_permutation(v, v.size());
  }
}

TEST(FeistelHost, ValuesEqualTheNumPyModel) {
  // tests/python/feistel_model.py: permutation_prefix(key, counter, n, k)
  EXPECT_EQ(prefix(1234, 5, 10000000, 8),
            (std::vector<unsigned long long>{9581210, 9461925, 4902500, 7019630, 6115138, 207708, 8441347, 673090}));
  EXPECT_EQ(prefix(~0ull, (1ull << 40) + 3, 5000, 8),
            (std::vector<unsigned long long>{3424, 4862, 3574, 4641, 3650, 2646, 4636, 1370}));
  EXPECT_EQ(prefix(7, 0, 3, 3), (std::vector<unsigned long long>{1, 0, 2}));
  EXPECT_EQ(prefix(42, 9, (1ull << 40) + 17, 8),
            (std::vector<unsigned long long>{663568100605, 1084148119407, 777611232833, 191876597843, 709487546164,
                                             432834477119, 183415430359, 779368566862}));
}

TEST(FeistelHost, KernelWritesEveryElementWhateverTheGrid) {
  const unsigned long long n = 70001, k = 1000, key = 77, counter = 3;
  const std::vector<unsigned long long> expected = prefix(key, counter, n, k);
  for (const auto& [blocks, threads] : {std::pair{1u, 1u}, {1u, 3u}, {2u, 5u}, {7u, 32u}, {8u, 256u}}) {
    std::vector<long long> out(k, -1);
    gridDim.x = blocks, blockDim.x = threads;
    for (blockIdx.x = 0; blockIdx.x < blocks; ++blockIdx.x)
      for (threadIdx.x = 0; threadIdx.x < threads; ++threadIdx.x)
        cuarray_random_bijection(out.data(), k, n, key, counter);
    const auto same = [](long long a, unsigned long long b) { return static_cast<unsigned long long>(a) == b; };
    EXPECT_TRUE(std::equal(out.begin(), out.end(), expected.begin(), same)) << blocks << " blocks of " << threads;
  }
}

}  // namespace
