// The sorting kernels compile with NVRTC for sm_80 and sm_90 for every dtype: the block sort at
// every tile shape plan_row_sort picks (values and indices), the device-wide Onesweep passes
// (histogram, plan, onesweep pass and finish kernels, with and without the 32-bit index payload:
// every key size x payload), the row gather, searchsorted, and the quantile kernel for every
// (input, result) pair NumPy's rules produce. No GPU is needed.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "cuarray/errors.hpp"
#include "cuarray/sorting.hpp"
#include "expect_compiles.hpp"
#include "jit/nvrtc.hpp"
#include "ops/sorting/search.hpp"
#include "ops/statistics/quantile.hpp"
#include "ops/engines/sort/sort.hpp"

using namespace cuarray;
using test::expect_compiles;

namespace {


std::string name_of(DType t) { return std::string(dtype_name(t)); }

class SortKernelCompile : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(SortKernelCompile, BlockSortEveryTile) {
  const DType t = static_cast<DType>(GetParam());
  std::set<std::pair<int, int>> shapes;
  for (int64_t len : {1, 33, 65, 129, 257, 513, 1025, 2048}) {
    const ops::RowSortPlan p = ops::plan_row_sort(t, len);
    ASSERT_GT(p.threads, 0) << len;
    shapes.insert({p.threads, p.items});
  }
  EXPECT_EQ(ops::plan_row_sort(t, 2049).threads, 0);
  for (auto [threads, items] : shapes)
    for (bool with_index : {false, true})
      expect_compiles(ops::block_sort_source(t, threads, items, with_index),
                      "block sort " + name_of(t) + " " + std::to_string(threads) + "x" + std::to_string(items) +
                          (with_index ? " index" : " values"));
}

TEST_P(SortKernelCompile, DeviceWidePassesAndGather) {
  const DType t = static_cast<DType>(GetParam());
  const ops::RadixPayload none, index{ops::RadixPayload::FlatIndex, 4};
  for (ops::RadixPayload payload : {none, index})
    expect_compiles(ops::radix_passes_source(t, payload, ops::radix_tile_items(t, payload)),
                    "radix passes " + name_of(t) + (payload.kind == index.kind ? " index" : ""));
  expect_compiles(ops::gather_rows_source(t), "gather rows " + name_of(t));
  using ops::SearchOutput;
  for (SearchOutput output : {SearchOutput::Position, SearchOutput::SorterPosition, SearchOutput::Membership})
    for (bool index64 : {false, true})
      expect_compiles(ops::searchsorted_source(t, output, index64),
                      "searchsorted " + name_of(t) + " output " + std::to_string(static_cast<int>(output)) +
                          (index64 ? " 64" : ""));
}

TEST_P(SortKernelCompile, QuantileResultDTypes) {
  const DType t = static_cast<DType>(GetParam());
  // Discrete methods keep the dtype; interpolation gives float64 for integers and bool, the
  // float's own dtype (weak q) or float64 (array q); the median of complex stays complex.
  std::set<DType> outs = {t, DType::Float64};
  if (is_complex(t)) outs = {t};
  for (DType out : outs)
    expect_compiles(ops::quantile_source(t, out), "quantile " + name_of(t) + " -> " + name_of(out));
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, SortKernelCompile, ::testing::Range(0, kNumDTypes),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(dtype_name(static_cast<DType>(info.param)));
                         });

TEST(SortPlans, TilesAndMethods) {
  const ops::RadixPayload none, index{ops::RadixPayload::FlatIndex, 4};
  EXPECT_EQ(ops::radix_tile_items(DType::Float32, none), 24);
  EXPECT_EQ(ops::radix_tile_items(DType::Float32, index), 16);
  EXPECT_EQ(ops::radix_tile_items(DType::Float64, index), 10);
  EXPECT_EQ(ops::radix_tile_items(DType::Complex64, none), 10);
  EXPECT_EQ(ops::radix_tile_items(DType::Complex128, index), 4);
  EXPECT_EQ(ops::radix_tile_items(DType::Int16, none), 16);
  // Caller's payload words share the exchange space: 48 KB less the counts.
  EXPECT_EQ(ops::radix_tile_items(DType::UInt32, {ops::RadixPayload::Words, 4}), 16);
  EXPECT_EQ(ops::radix_tile_items(DType::UInt32, {ops::RadixPayload::Words, 8}), 12);
  EXPECT_EQ(ops::radix_tile_items(DType::UInt32, {ops::RadixPayload::Words, 16}), 7);
  EXPECT_EQ(ops::radix_tile_items(DType::UInt64, {ops::RadixPayload::Words, 16}), 6);
  EXPECT_EQ(ops::plan_row_sort(DType::Float32, 1000).items, 4);
  for (const char* m : {"linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
                        "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                        "normal_unbiased", "median"})
    EXPECT_TRUE(is_quantile_method(m)) << m;
  EXPECT_FALSE(is_quantile_method("interpolated"));
  EXPECT_TRUE(is_discrete_quantile_method("nearest"));
  EXPECT_FALSE(is_discrete_quantile_method("midpoint"));
}
