#include "ops/engines/copy/join_copy.hpp"

#include <algorithm>
#include <iterator>
#include <span>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "kernels/fragments.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"
#include "cuarray/runtime.hpp"
#include "jit/kernel_source.hpp"
#include "ops/engines/launch_config.hpp"

namespace cuarray::ops {
namespace {

// Piece-table capacities: a launch takes the smallest that holds its pieces, so that joining two
// arrays does not pass 64-entry tables; more than the largest go in several launches.
constexpr int kCapacities[] = {4, 16, 64};
constexpr size_t kMaxPieces = kCapacities[std::size(kCapacities) - 1];
constexpr int kMaxWord = 16;

runtime::Kernel join_kernel(int word_bytes, int capacity, bool index64) {
  jit::KernelKey key(jit::KernelFamily::Join);
  key.push(static_cast<uint8_t>(word_bytes)).push(static_cast<uint8_t>(capacity)).push(index64);
  return jit::get_kernel(key, [&] { return jit::KernelSource{join_source(word_bytes, capacity, index64), "cuarray_join"}; });
}

// The widest word (a power of two up to 16 bytes) dividing every address and length.
int word_bytes(const char* dst, int64_t rows, int64_t dst_row_bytes, std::span<const JoinPiece> pieces) {
  uint64_t bits = kMaxWord | reinterpret_cast<uintptr_t>(dst);
  if (rows > 1) bits |= static_cast<uint64_t>(dst_row_bytes);
  for (const JoinPiece& p : pieces) bits |= reinterpret_cast<uintptr_t>(p.data) | static_cast<uint64_t>(p.row_bytes);
  return static_cast<int>(bits & (~bits + 1));  // the lowest set bit
}

}  // namespace

std::string join_source(int word_bytes, int capacity, bool index64) {
  std::string s;
  s.reserve(4096);
  s += kernels::prelude_cuh;
  s += kernels::elementwise_cuh;
  s += jit::word_typedef(word_bytes);
  s += jit::index_typedefs(index64);
  s += "constexpr int kPieces = " + std::to_string(capacity) + ";\n";
  s += kernels::join_cuh;
  return s;
}

void join_copy(char* dst, int64_t rows, int64_t dst_row_bytes, std::span<const JoinPiece> pieces, int device) {
  if (rows == 0 || pieces.empty()) return;
  const int word = word_bytes(dst, rows, dst_row_bytes, pieces);
  const int64_t dst_stride = dst_row_bytes / word;
  // Index math runs in 32 bits when every destination offset fits (piece offsets are smaller).
  const bool index64 = rows * dst_stride > INT32_MAX;
  runtime::activate(device);
  int64_t column = 0;  // words of the destination row before this launch's pieces
  for (size_t first = 0; first < pieces.size();) {
    const size_t count = std::min(pieces.size() - first, kMaxPieces);
    const int capacity = *std::find_if(std::begin(kCapacities), std::end(kCapacities),
                                       [&](int c) { return static_cast<size_t>(c) >= count; });
    const char* sources[kMaxPieces] = {};
    int64_t starts[kMaxPieces + 1] = {0};
    for (size_t p = 0; p < count; ++p) {
      sources[p] = pieces[first + p].data;
      starts[p + 1] = starts[p] + pieces[first + p].row_bytes / word;
    }
    const int64_t width = starts[count];
    if (width > 0) {
      runtime::KernelArgs args(index64);
      args.value(dst + column * word).index(rows).index(width).index(dst_stride).value(static_cast<int>(count));
      args.bytes(sources, static_cast<size_t>(capacity) * sizeof(const char*));
      args.array(std::span<const int64_t>(starts, count + 1), static_cast<size_t>(capacity) + 1, width);
      runtime::launch(join_kernel(word, capacity, index64), {grid_for(rows * width), kBlockThreads}, args.params());
    }
    column += width;
    first += count;
  }
}

}  // namespace cuarray::ops
