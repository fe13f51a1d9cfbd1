// cuarray.fft's C++ side: which layouts one cuFFT plan reaches (pure arithmetic), the plan keys,
// the cupy.fft.config limits over the device's plan cache, the cuFFT loader and NumPy's argument
// errors raised before any device work (none of which needs a GPU); on a GPU, transforms against a
// direct DFT.
#include <cmath>
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/fft.hpp"
#include "expect_error.hpp"
#include "expect_missing_library.hpp"
#include "gpu_test.hpp"
#include "libs/cufft.hpp"
#include "ops/fft/fft_layout.hpp"
#include "runtime/shared_library.hpp"

namespace cuarray {
namespace {

using fft::fft_layout;
using libs::FftKind;
using test::expect_error;

// Element strides of a C-contiguous shape.
Strides dense(const Shape& shape) {
  Strides s(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= shape[i];
  }
  return s;
}

std::optional<libs::FftLayout> layout_of(const Shape& in, const Strides& in_strides, const Shape& out,
                                         const Strides& out_strides, std::vector<int> axes, FftKind kind) {
  return fft_layout(in, in_strides, out, out_strides, axes, kind);
}

TEST(FftLayout, ContiguousLastAxisIsOneBatchedPlan) {
  auto l = layout_of({4, 8}, dense({4, 8}), {4, 8}, dense({4, 8}), {1}, FftKind::C2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rank, 1);
  EXPECT_EQ(l->n[0], 8);
  EXPECT_EQ(l->istride, 1);
  EXPECT_EQ(l->idist, 8);
  EXPECT_EQ(l->ostride, 1);
  EXPECT_EQ(l->odist, 8);
  EXPECT_EQ(l->batch, 4);
}

TEST(FftLayout, FirstAxisIsStridedWithInterleavedBatches) {
  // fft(x, axis=0) of a C-contiguous (8, 4): no transposing copy.
  auto l = layout_of({8, 4}, dense({8, 4}), {8, 4}, dense({8, 4}), {0}, FftKind::C2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->n[0], 8);
  EXPECT_EQ(l->istride, 4);
  EXPECT_EQ(l->idist, 1);
  EXPECT_EQ(l->batch, 4);
}

TEST(FftLayout, MiddleAxisBetweenTwoBatchAxesIsRefused) {
  EXPECT_FALSE(layout_of({2, 4, 8}, dense({2, 4, 8}), {2, 4, 8}, dense({2, 4, 8}), {1}, FftKind::C2C));
}

TEST(FftLayout, BatchAxesFoldIntoOne) {
  auto l = layout_of({3, 4, 5}, dense({3, 4, 5}), {3, 4, 5}, dense({3, 4, 5}), {2}, FftKind::C2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->batch, 12);
  EXPECT_EQ(l->idist, 5);
  // x[:, :2, :] of a (3, 4, 5): the batch axes no longer fold.
  EXPECT_FALSE(layout_of({3, 2, 5}, {20, 5, 1}, {3, 2, 5}, dense({3, 2, 5}), {2}, FftKind::C2C));
}

TEST(FftLayout, ThreeAxesOfACube) {
  auto l = layout_of({16, 16, 16}, dense({16, 16, 16}), {16, 16, 16}, dense({16, 16, 16}), {0, 1, 2}, FftKind::C2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rank, 3);
  EXPECT_EQ(l->inembed[1], 16);
  EXPECT_EQ(l->inembed[2], 16);
  EXPECT_EQ(l->istride, 1);
  EXPECT_EQ(l->batch, 1);
  // The axes must nest outermost first.
  EXPECT_FALSE(layout_of({16, 16, 16}, dense({16, 16, 16}), {16, 16, 16}, dense({16, 16, 16}), {2, 1, 0},
                         FftKind::C2C));
}

TEST(FftLayout, StridedViewKeepsItsStrides) {
  // x[:, ::2] of a (4, 16): stride 2, distance 16; the output is dense.
  auto l = layout_of({4, 8}, {16, 2}, {4, 8}, dense({4, 8}), {1}, FftKind::C2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->istride, 2);
  EXPECT_EQ(l->idist, 16);
  EXPECT_EQ(l->ostride, 1);
  EXPECT_EQ(l->odist, 8);
  // Padding inside the nest: x[:, :6] of an (8, 8) transformed over both axes.
  auto two = layout_of({8, 6}, {8, 1}, {8, 6}, dense({8, 6}), {0, 1}, FftKind::C2C);
  ASSERT_TRUE(two);
  EXPECT_EQ(two->inembed[1], 8);
  EXPECT_EQ(two->onembed[1], 6);
}

TEST(FftLayout, NegativeAndZeroStridesAreRefused) {
  EXPECT_FALSE(layout_of({4, 8}, {8, -1}, {4, 8}, dense({4, 8}), {1}, FftKind::C2C));
  EXPECT_FALSE(layout_of({4, 8}, {0, 1}, {4, 8}, dense({4, 8}), {1}, FftKind::C2C));
}

TEST(FftLayout, LengthOneAxesTakeAnyStride) {
  auto l = layout_of({1, 8}, {0, 1}, {1, 8}, dense({1, 8}), {0, 1}, FftKind::C2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->rank, 2);
  EXPECT_EQ(l->inembed[1], 8);
}

TEST(FftLayout, RealToComplexHalvesTheLastAxis) {
  auto l = layout_of({4, 8}, dense({4, 8}), {4, 5}, dense({4, 5}), {1}, FftKind::R2C);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->n[0], 8);
  EXPECT_EQ(l->idist, 8);
  EXPECT_EQ(l->odist, 5);
  // Into the first half of the full (4, 8) spectrum, as fft of real input writes it before the fill.
  auto into_full = layout_of({4, 8}, dense({4, 8}), {4, 5}, {8, 1}, {1}, FftKind::R2C);
  ASSERT_TRUE(into_full);
  EXPECT_EQ(into_full->odist, 8);
  EXPECT_THROW(layout_of({4, 8}, dense({4, 8}), {4, 8}, dense({4, 8}), {1}, FftKind::R2C), std::logic_error);
}

TEST(FftLayout, ComplexToRealOverTwoAxes) {
  auto l = layout_of({6, 5}, dense({6, 5}), {6, 8}, dense({6, 8}), {0, 1}, FftKind::C2R);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->n[0], 6);
  EXPECT_EQ(l->n[1], 8);
  EXPECT_EQ(l->inembed[1], 5);
  EXPECT_EQ(l->onembed[1], 8);
  EXPECT_EQ(l->batch, 1);
}

TEST(FftPlanKey, LayoutsKindsAndPrecisionsAreDistinct) {
  libs::FftLayout a;
  a.rank = 3;
  for (int k = 0; k < 3; ++k) a.n[k] = a.inembed[k] = a.onembed[k] = 1 << 20;
  a.istride = a.ostride = 1;
  a.idist = a.odist = int64_t(1) << 60;
  a.batch = 1000;
  const libs::PlanKey key = libs::fft_plan_key(FftKind::C2C, true, a);  // the largest key fits
  EXPECT_EQ(key.kind(), libs::PlanKind::CufftPlan);
  EXPECT_EQ(key, libs::fft_plan_key(FftKind::C2C, true, a));
  EXPECT_FALSE(key == libs::fft_plan_key(FftKind::C2C, false, a));
  EXPECT_FALSE(key == libs::fft_plan_key(FftKind::R2C, true, a));
  libs::FftLayout b = a;
  b.idist += 1;
  EXPECT_FALSE(key == libs::fft_plan_key(FftKind::C2C, true, b));
  libs::FftLayout c = a;
  c.inembed[0] = 7;  // never read by cuFFT: the same plan
  EXPECT_EQ(key, libs::fft_plan_key(FftKind::C2C, true, c));
}

// A stand-in plan with a work area, to fill the device's FFT cache without a GPU.
struct FakePlan {
  size_t work = 0;
  size_t bytes() const { return work; }
};

void keep_fake(libs::PlanCache& cache, uint8_t id, size_t work) {
  libs::PlanKey key(libs::PlanKind::CufftPlan);
  key.push(0xF0).push(id);
  cache.lookup_and_exec<FakePlan>(key, [&] { return std::make_unique<FakePlan>(FakePlan{work}); },
                                  [](FakePlan&) {});
}

TEST(FftPlanCacheConfig, CupysLimitsOverTheDevicesCache) {
  constexpr int kDevice = 7;  // a device no other test touches; no GPU needed
  fft::FftPlanCache config(kDevice);
  libs::PlanCache& cache = libs::fft_plan_cache(kDevice);
  EXPECT_EQ(&cache, &libs::fft_plan_cache(kDevice));
  EXPECT_NE(&cache, &libs::fft_plan_cache(kDevice - 1));
  EXPECT_EQ(config.get_size(), 16);
  EXPECT_EQ(config.get_memsize(), -1);
  for (uint8_t i = 0; i < 20; ++i) keep_fake(cache, i, 100);
  EXPECT_EQ(config.get_curr_size(), 16);  // the least recently used went
  EXPECT_EQ(config.get_curr_memsize(), 1600);

  config.set_memsize(1000);  // evicts at once down to the byte limit
  EXPECT_EQ(config.get_memsize(), 1000);
  EXPECT_EQ(config.get_curr_size(), 10);
  EXPECT_EQ(config.get_curr_memsize(), 1000);
  keep_fake(cache, 100, 5000);  // larger than the whole limit: used once, not kept
  EXPECT_EQ(config.get_curr_size(), 10);

  config.set_size(3);
  EXPECT_EQ(config.get_curr_size(), 3);
  config.set_size(-1);  // unlimited count; the bytes still bound it
  EXPECT_EQ(config.get_size(), -1);
  for (uint8_t i = 20; i < 30; ++i) keep_fake(cache, i, 10);
  EXPECT_EQ(config.get_curr_size(), 13);

  config.set_memsize(0);  // CuPy: 0 turns the cache off
  EXPECT_EQ(config.get_curr_size(), 0);
  keep_fake(cache, 50, 0);
  EXPECT_EQ(config.get_curr_size(), 0);
  config.set_memsize(-1);
  keep_fake(cache, 51, 0);
  EXPECT_EQ(config.get_curr_size(), 1);
  config.clear();
  EXPECT_EQ(config.get_curr_size(), 0);
  EXPECT_EQ(config.get_curr_memsize(), 0);

  expect_error(ErrorKind::Value, "invalid input", [&] { config.set_size(-2); });
  expect_error(ErrorKind::Value, "invalid input", [&] { config.set_memsize(-5); });
  EXPECT_EQ(config.get_size(), -1);
  const std::string info = config.info();
  EXPECT_NE(info.find("cuFFT plan cache (device 7)"), std::string::npos) << info;
  EXPECT_NE(info.find("current / max size   : 0 / (unlimited) (counts)"), std::string::npos) << info;
  config.set_size(16);
}

TEST(CufftLibrary, EveryListedFunctionResolvesWhereTheToolkitHasIt) {
  if (!std::filesystem::exists("/usr/local/cuda/lib64/libcufft.so.12") &&
      !std::filesystem::exists("/usr/local/cuda/lib64/libcufft.so.11"))
    GTEST_SKIP() << "no cuFFT in /usr/local/cuda/lib64";
  const libs::CufftApi& api = libs::cufft();
  EXPECT_NE(api.cufftMakePlanMany64, nullptr);
  EXPECT_NE(api.cufftSetWorkArea, nullptr);
  int version = 0;
  EXPECT_EQ(api.cufftGetVersion(&version), CUFFT_SUCCESS);
  EXPECT_GT(version, 10000);
}

TEST(CufftLibrary, MissingLibraryErrorNamesItWhereAndHow) {
  runtime::LibrarySpec spec = libs::cufft_library_spec();
  EXPECT_STREQ(spec.title, "cuFFT");
  EXPECT_EQ(spec.sonames.front(), "libcufft.so.12");
  test::expect_missing_library_error(spec, "libcufft.so.0-not-there", "nvidia-cufft");
}

// A C-contiguous array over host memory that is never read: what the argument checks see.
NDArray unbacked(Shape shape, DType dtype) {
  alignas(16) static char memory[1024];
  const auto item = static_cast<int64_t>(itemsize(dtype));
  Strides strides(shape.size());
  int64_t step = item;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= shape[i];
  }
  return NDArray(nullptr, memory, shape, strides, dtype);
}

TEST(FftArguments, NumpysErrorsBeforeAnyDeviceWork) {
  const NDArray a = unbacked({4, 6}, DType::Float64);
  const std::vector<int64_t> s2 = {4, 6}, s1 = {4}, axes2 = {0, 1}, bad_axis = {0, 2};
  const std::vector<int64_t> zero_last = {0, 6}, zero_both = {0, -1};
  expect_error(ErrorKind::Value, "Shape and axes have different lengths.", [&] { fft::fftn(a, s1, axes2); });
  expect_error(ErrorKind::Value, "Invalid number of FFT data points (0) specified.",
               [&] { fft::fftn(a, zero_last, axes2); });
  // NumPy checks the last axis's step first.
  expect_error(ErrorKind::Value, "Invalid number of FFT data points (-1) specified.",
               [&] { fft::ifftn(a, zero_both, axes2); });
  expect_error(ErrorKind::Axis, "axis 2 is out of bounds for array of dimension 2",
               [&] { fft::fftn(a, s2, bad_axis); });
  expect_error(ErrorKind::Type,
               "ufunc 'rfft_n_even' not supported for the input types, and the inputs could not be safely coerced to "
               "any supported types according to the casting rule ''safe''",
               [&] { fft::rfft(unbacked({6}, DType::Complex64), 6); });
  expect_error(ErrorKind::Index, "tuple index out of range", [&] { fft::irfftn(a, {}, {}); });
  EXPECT_EQ(fft::norm_from_name("ortho"), fft::Norm::Ortho);
  EXPECT_FALSE(fft::norm_from_name("Ortho"));
}

// ---- on a GPU ----

std::vector<std::complex<double>> dft(const std::vector<std::complex<double>>& x, bool inverse) {
  const size_t n = x.size();
  std::vector<std::complex<double>> y(n);
  const double sign = inverse ? 1 : -1;
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < n; ++j) y[k] += x[j] * std::polar(1.0, sign * 2 * M_PI * double(j * k % n) / double(n));
  return y;
}

std::vector<std::complex<double>> to_host_complex(const NDArray& a) {
  EXPECT_EQ(a.dtype(), DType::Complex128);
  std::vector<std::complex<double>> v(a.size());
  a.copy_to_host(v.data());
  return v;
}

TEST(FftGpu, ComplexPrimeLengthAgainstDirectDft) {
  CUARRAY_SKIP_WITHOUT_GPU();
  std::vector<std::complex<double>> x(17);
  for (size_t i = 0; i < x.size(); ++i) x[i] = {std::sin(double(i) * 1.3), std::cos(double(i * i))};
  const NDArray a = from_host(x.data(), Shape{17}, DType::Complex128);
  const auto expected = dft(x, false);
  const auto got = to_host_complex(fft::fft(a, 17));
  for (size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(std::abs(got[k] - expected[k]), 0, 1e-12) << k;
  const auto back = to_host_complex(fft::ifft(fft::fft(a, 17), 17));
  for (size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(std::abs(back[k] - x[k]), 0, 1e-12) << k;
}

TEST(FftGpu, RealInputIsTheFullHermitianSpectrum) {
  CUARRAY_SKIP_WITHOUT_GPU();
  for (int64_t n : {1, 2, 7, 8, 30}) {
    std::vector<double> x(n);
    std::vector<std::complex<double>> xc(n);
    for (int64_t i = 0; i < n; ++i) xc[i] = x[i] = std::sin(double(i) * 0.7) + double(i % 3);
    const NDArray a = from_host(x.data(), Shape{n}, DType::Float64);
    const auto expected = dft(xc, false);
    const auto got = to_host_complex(fft::fft(a, n, -1, fft::Norm::Ortho));
    for (int64_t k = 0; k < n; ++k)
      EXPECT_NEAR(std::abs(got[k] - expected[k] / std::sqrt(double(n))), 0, 1e-12) << "n " << n << " k " << k;
    const NDArray half = fft::rfft(a, n);
    EXPECT_EQ(half.shape(), (Shape{n / 2 + 1}));
    const NDArray back = fft::irfft(half, n);
    std::vector<double> round(n);
    back.copy_to_host(round.data());
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(round[i], x[i], 1e-12) << "n " << n;
  }
}

TEST(FftGpu, ComplexToRealMayOverwriteItsInput) {
  // overwrite_input skips the copy that protects the input from cuFFT's C2R: the same result.
  CUARRAY_SKIP_WITHOUT_GPU();
  for (int64_t n : {8, 30, 1009}) {
    std::vector<double> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = std::cos(double(i) * 0.3) - double(i % 5);
    const NDArray a = from_host(x.data(), Shape{n}, DType::Float64);
    const int64_t axis = 0;
    const NDArray back = fft::irfftn(fft::rfft(a, n), std::span<const int64_t>(&n, 1),
                                     std::span<const int64_t>(&axis, 1), fft::Norm::Backward, true);
    std::vector<double> round(n);
    back.copy_to_host(round.data());
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(round[i], x[i], 1e-12) << "n " << n;
  }
}

TEST(FftGpu, IdlePlansHoldNoWorkArea) {
  CUARRAY_SKIP_WITHOUT_GPU();
  fft::FftPlanCache config(current_device());
  config.clear();
  std::vector<std::complex<double>> x(1009, {1.0, 2.0});  // prime: Bluestein, which needs a work area
  const NDArray a = from_host(x.data(), Shape{1009}, DType::Complex128);
  fft::fft(a, 1009);
  device_synchronize(current_device());
  EXPECT_EQ(config.get_curr_size(), 1);
  const size_t used = MemoryPool::of_device(current_device()).used_bytes();
  fft::fft(a, 1009);  // a hit: the work area comes and goes with the call
  device_synchronize(current_device());
  EXPECT_EQ(MemoryPool::of_device(current_device()).used_bytes(), used);
  config.clear();
}

}  // namespace
}  // namespace cuarray
