// The parameter layouts read from CUBINs (src/jit/cubin_params.cpp): offsets and sizes as the
// compiler lays them out, for scalars of every width, structs and arrays, and no parameters at all.
#include <gtest/gtest.h>

#include <string>

#include "jit/cubin_params.hpp"
#include "jit/nvrtc.hpp"

using namespace cuarray;

namespace {

constexpr const char* kSource = R"(
template <class T, int N> struct Array { T v[N]; };
struct Pair { double a; char b; };
extern "C" __global__ void mixed(const char* a, char* b, unsigned n, Array<long long, 3> s, double d, char c,
                                 Array<int, 5> e, Pair p, short h) {
  if (n) b[0] = a[0] + d + c + s.v[0] + e.v[1] + p.a + p.b + h;
}
extern "C" __global__ void none() {}
)";

}  // namespace

TEST(CubinParams, OffsetsAndSizesOfEveryKernel) {
  for (const char* arch : {"sm_80", "sm_90"}) {
    const auto kernels = jit::cubin_params(jit::compile_to_cubin(kSource, "params", arch));
    ASSERT_EQ(kernels.size(), 2u) << arch;
    const jit::CubinParams& mixed = kernels.at("mixed");
    // Natural alignment, as the CUDA ABI lays parameters out.
    const jit::CubinParam expected[] = {{0, 8},  {8, 8},  {16, 4}, {24, 24}, {48, 8},
                                        {56, 1}, {60, 20}, {80, 16}, {96, 2}};
    ASSERT_EQ(mixed.count, 9) << arch;
    for (int i = 0; i < mixed.count; ++i) {
      EXPECT_EQ(mixed.params[i].offset, expected[i].offset) << arch << " parameter " << i;
      EXPECT_EQ(mixed.params[i].size, expected[i].size) << arch << " parameter " << i;
    }
    EXPECT_EQ(kernels.at("none").count, 0) << arch;
  }
}

TEST(CubinParams, NotACubinDescribesNothing) {
  EXPECT_TRUE(jit::cubin_params("").empty());
  EXPECT_TRUE(jit::cubin_params("not an ELF file at all, just text").empty());
  std::string truncated = jit::compile_to_cubin(kSource, "params", "sm_90");
  truncated.resize(100);  // the header survives, the section table does not
  EXPECT_TRUE(jit::cubin_params(truncated).empty());
}
