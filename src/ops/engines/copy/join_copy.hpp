// Contiguous pieces copied side by side into rows of one destination, in one launch
// (src/kernels/join.cuh): numpy.concatenate's copies when every input already has the result's
// dtype and memory order, instead of one copy launch per input.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace cuarray::ops {

// `rows` rows of `row_bytes` bytes each, packed (contiguous).
struct JoinPiece {
  const char* data;
  int64_t row_bytes;
};

// Row r of piece p goes to dst + r * dst_row_bytes + (the row_bytes of pieces 0..p-1): the pieces
// fill each destination row left to right. Moves words of up to 16 bytes, as wide as every
// address and length allows. The pieces must not overlap the destination.
void join_copy(char* dst, int64_t rows, int64_t dst_row_bytes, std::span<const JoinPiece> pieces, int device);

// The kernel moving `word_bytes` words with piece tables of `capacity` entries.
std::string join_source(int word_bytes, int capacity, bool index64);

}  // namespace cuarray::ops
