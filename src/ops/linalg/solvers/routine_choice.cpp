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

// One row: the routine for matrices whose larger side is at most max_size, in stacks of at least
// min_batch. The first row that fits wins; the last row fits everything.
template <class Routine>
struct Choice {
  int64_t max_size;
  int64_t min_batch;
  Routine routine;
};

// Small matrices, stacked or single: cuarray's own one-sided Jacobi kernel, one block per matrix in
// shared memory and one launch for the stack (cuSOLVER's gesvdjBatched stops at 32 x 32 and at
// 1000 x 32^2 float64 only ties CuPy's loop; gesvdj per matrix takes 140 ms for 100 x 64^2).
// Above 64, measured on an H200, float64, every candidate forced
// (benchmarks/linalg_solvers.py --candidates; the times are in docs/linalg_solvers.md): the polar
// decomposition, 256^2 5.6 ms, 1000^2 31 ms, 2000^2 81 ms, against gesvd's 21.5, 141 and 418 ms
// (CuPy's choice, gesvd, is never the fastest). Jacobi and polar results that did not converge are
// re-run with gesvd.
// The kernel, measured (H200, float64, ms, with U and V): 1000 x 16^2 0.21 (gesvdjBatched 1.64),
// 1000 x 32^2 1.24 (2.47), 100 x 64^2 2.77 (a gesvdj loop 142); a single 16^2 0.17 (0.24), but a
// single 64^2 2.9 against gesvdj's 1.4 (before the kernel's lane groups): one block is too little of
// the GPU for one matrix above 32.
constexpr std::array<Choice<SvdRoutine>, 4> kSvdTable{{
    {kSmallJacobiMaxSize, 2, SvdRoutine::JacobiSmall},
    {32, 1, SvdRoutine::JacobiSmall},
    {kSmallJacobiMaxSize, 1, SvdRoutine::Gesvdj},
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
Routine pick(const std::array<Choice<Routine>, N>& table, int64_t size, int64_t batch) {
  for (const Choice<Routine>& row : table)
    if (size <= row.max_size && batch >= row.min_batch) return row.routine;
  return table.back().routine;
}

}  // namespace

SvdRoutine choose_svd_routine(int64_t rows, int64_t cols, int64_t batch, bool full_u) {
  int forced = forced_svd.load(std::memory_order_relaxed);
  if (forced != kNone) {
    auto routine = static_cast<SvdRoutine>(forced);
    // A forced batched routine still cannot take what it was not made for.
    const int64_t size = std::max(rows, cols);
    if (routine == SvdRoutine::GesvdjBatched && size > kBatchedJacobiMaxSize) return SvdRoutine::Gesvd;
    if (routine == SvdRoutine::JacobiSmall && size > kSmallJacobiMaxSize) return SvdRoutine::Gesvd;
    return routine;
  }
  const SvdRoutine routine = pick(kSvdTable, std::max(rows, cols), batch);
  // gesvdp makes an economy-size U only (its full mode fails on the GPU) and would hand a full U of
  // a non-square matrix to gesvd: Jacobi is faster there (4000 x 1000 with full U: 89 ms, gesvd 171).
  return routine == SvdRoutine::Gesvdp && full_u ? SvdRoutine::Gesvdj : routine;
}

EighRoutine choose_eigh_routine(int64_t n, int64_t batch) {
  int forced = forced_eigh.load(std::memory_order_relaxed);
  if (forced != kNone) {
    auto routine = static_cast<EighRoutine>(forced);
    return routine;
  }
  return pick(kEighTable, n, batch);
}

LuRoutine choose_lu_routine(int64_t n, int64_t batch) {
  int forced = forced_lu.load(std::memory_order_relaxed);
  if (forced != kNone) {
    auto routine = static_cast<LuRoutine>(forced);
    if (routine != LuRoutine::GetrfBatched || n <= kBatchedLuMaxSize) return routine;
    return LuRoutine::Getrf;
  }
  return pick(kLuTable, n, batch);
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
      {"svd", "jacobi_small", &forced_svd, int(SvdRoutine::JacobiSmall)},
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
