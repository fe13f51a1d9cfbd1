// One flat index over K indexed dims from K broadcast index arrays (combine_indices.cuh): the
// step that lets a multi-array key use the one gather/scatter kernel with an indexed group of
// rank K (src/ops/indexing/index_key.cpp, docs/indexing.md).
#pragma once
#include <span>
#include <string>

#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// The largest K one combine kernel takes (its operands share one coalesced view).
inline constexpr int kMaxCombinedIndices = 15;

// flat[b] = sum_k normalized(indices[k][b]) * prod(lens[k+1:]) over the common shape of
// `indices` (broadcast views, any integer or bool dtype, any layout): a new C-contiguous array,
// int32 when the indexed group has fewer than 2**31 elements, else int64. An index outside
// [-lens[k], lens[k]) sets the flag word `error` (a runtime::HostFlag's) and gives flat index 0.
NDArray combine_indices(std::span<const NDArray> indices, std::span<const int64_t> lens, unsigned* error);

std::string combine_indices_source(std::span<const DType> index_dtypes, int rank, bool index64, bool out64);

}  // namespace cuarray::ops
