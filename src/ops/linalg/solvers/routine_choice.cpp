#include "ops/linalg/solvers/routine_choice.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"

namespace cuarray::linalg {
namespace {

constexpr int64_t kAny = INT64_MAX;

// One row: the routine for matrices whose larger side is at most max_size and at least
// min_aspect times the smaller, in stacks of at least min_batch. The first row that fits wins; the
// last row fits everything.
template <class Routine>
struct Choice {
  int64_t max_size;
  int64_t min_batch;
  Routine routine;
  int64_t min_aspect = 1;
};

// Measured on an H200, float64, every candidate forced (benchmarks/linalg_solvers.py --candidates;
// the table of times is in docs/linalg_solvers.md):
// - up to 32 x 32, stacked or not, the batched Jacobi: 1000 x 32^2 in 2.4 ms against 666 ms for the
//   best per-matrix loop, and a single 16^2 in 0.24 ms against 0.6 ms;
// - up to 64, one-sided Jacobi per matrix: 100 x 64^2 in 140 ms (gesvdp 229, gesvd 302);
// - tall matrices (at least twice as many rows), Jacobi: 4000 x 1000 in 89 ms (gesvdp 169, gesvd 171);
// - the rest, the polar decomposition: 256^2 5.6 ms, 1000^2 31 ms, 2000^2 81 ms, against gesvd's
//   21.5, 141 and 418 ms (CuPy's choice, gesvd, is never the fastest). Jacobi and polar results that
//   did not converge are re-run with gesvd.
constexpr std::array<Choice<SvdRoutine>, 4> kSvdTable{{
    {kBatchedJacobiMaxSize, 1, SvdRoutine::GesvdjBatched},
    {64, 1, SvdRoutine::Gesvdj},
    {kAny, 1, SvdRoutine::Gesvdj, 2},
    {kAny, 1, SvdRoutine::Gesvdp},
}};
constexpr std::array<Choice<EighRoutine>, 2> kEighTable{{
    {kBatchedEighMaxSize, 2, EighRoutine::SyevBatched},
    {kAny, 1, EighRoutine::Syevd},
}};

// Stacks of small matrices: cuBLAS's batched LU (CuPy's choice for stacked solve and inv), one
// launch per step for the whole stack instead of a cuSOLVER call per matrix.
constexpr std::array<Choice<LuRoutine>, 2> kLuTable{{
    {kBatchedLuMaxSize, 2, LuRoutine::GetrfBatched},
    {kAny, 1, LuRoutine::Getrf},
}};

constexpr int kNone = -1;
std::atomic<int> forced_svd{kNone};
std::atomic<int> forced_eigh{kNone};
std::atomic<int> forced_lu{kNone};

template <class Routine, size_t N>
Routine pick(const std::array<Choice<Routine>, N>& table, int64_t size, int64_t batch, int64_t small_side) {
  for (const Choice<Routine>& row : table)
    if (size <= row.max_size && batch >= row.min_batch && size >= row.min_aspect * small_side) return row.routine;
  return table.back().routine;
}

}  // namespace

SvdRoutine choose_svd_routine(int64_t rows, int64_t cols, int64_t batch) {
  int forced = forced_svd.load(std::memory_order_relaxed);
  if (forced != kNone) {
    auto routine = static_cast<SvdRoutine>(forced);
    // A forced batched routine still cannot take what it was not made for.
    if (routine != SvdRoutine::GesvdjBatched || std::max(rows, cols) <= kBatchedJacobiMaxSize) return routine;
    return SvdRoutine::Gesvd;
  }
  return pick(kSvdTable, std::max(rows, cols), batch, std::min(rows, cols));
}

EighRoutine choose_eigh_routine(int64_t n, int64_t batch) {
  int forced = forced_eigh.load(std::memory_order_relaxed);
  if (forced != kNone) {
    auto routine = static_cast<EighRoutine>(forced);
    return routine;
  }
  return pick(kEighTable, n, batch, n);
}

LuRoutine choose_lu_routine(int64_t n, int64_t batch) {
  int forced = forced_lu.load(std::memory_order_relaxed);
  if (forced != kNone) {
    auto routine = static_cast<LuRoutine>(forced);
    if (routine != LuRoutine::GetrfBatched || n <= kBatchedLuMaxSize) return routine;
    return LuRoutine::Getrf;
  }
  return pick(kLuTable, n, batch, n);
}

void force_routine(std::string_view operation, std::string_view routine) {
  struct Name {
    std::string_view operation, routine;
    std::atomic<int>* slot;
    int value;
  };
  static const Name names[] = {
      {"svd", "gesvd", &forced_svd, int(SvdRoutine::Gesvd)},
      {"svd", "gesvdj", &forced_svd, int(SvdRoutine::Gesvdj)},
      {"svd", "gesvdp", &forced_svd, int(SvdRoutine::Gesvdp)},
      {"svd", "gesvdj_batched", &forced_svd, int(SvdRoutine::GesvdjBatched)},
      {"eigh", "syevd", &forced_eigh, int(EighRoutine::Syevd)},
      {"eigh", "syev_batched", &forced_eigh, int(EighRoutine::SyevBatched)},
      {"lu", "getrf", &forced_lu, int(LuRoutine::Getrf)},
      {"lu", "getrf_batched", &forced_lu, int(LuRoutine::GetrfBatched)},
  };
  for (const Name& n : names) {
    if (n.operation != operation) continue;
    if (routine.empty()) {
      n.slot->store(kNone, std::memory_order_relaxed);
      return;
    }
    if (n.routine == routine) {
      n.slot->store(n.value, std::memory_order_relaxed);
      return;
    }
  }
  throw_error(ErrorKind::Value, "no routine '" + std::string(routine) + "' for linalg operation '" +
                                    std::string(operation) + "'");
}

}  // namespace cuarray::linalg
