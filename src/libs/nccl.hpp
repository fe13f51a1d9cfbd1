// NCCL, a tenant of the library layer (docs/libraries.md, docs/distributed.md): its function table,
// opened on first use from the nvidia-nccl wheels, $CUDA_PATH, /usr/local/cuda or the loader's path.
//
// NVLink multicast (NVLS) stays off: NCCL_NVLS_ENABLE=0 is set, without overwriting a value the user
// chose, before the library is opened, since NCCL reads its environment when it first initialises.
#pragma once
// nccl.h where it is installed (the toolkit's include directory, an NCCL package); otherwise the
// same declarations from NCCL's documented ABI. CUARRAY_NCCL_DOCUMENTED_ABI forces the latter, to
// check that it still compiles where nccl.h exists.
#if __has_include(<nccl.h>) && !defined(CUARRAY_NCCL_DOCUMENTED_ABI)
#include <nccl.h>
#else
#include "libs/nccl_abi.hpp"
#endif

#include "runtime/function_table.hpp"

#define CUARRAY_NCCL_FUNCTIONS(X)                                                                       \
  X(ncclGetVersion) X(ncclGetUniqueId) X(ncclCommInitRank) X(ncclCommInitAll) X(ncclCommDestroy)        \
  X(ncclCommAbort) X(ncclCommCount) X(ncclCommCuDevice) X(ncclCommUserRank) X(ncclGetErrorString)       \
  X(ncclAllReduce) X(ncclReduce) X(ncclBroadcast) X(ncclAllGather) X(ncclReduceScatter) X(ncclSend)     \
  X(ncclRecv) X(ncclGroupStart) X(ncclGroupEnd)

namespace cuarray::libs {

struct NcclApi {
  CUARRAY_NCCL_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  explicit NcclApi(const runtime::SharedLibrary& library) { CUARRAY_NCCL_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION) }
};

// Sets NCCL_NVLS_ENABLE=0 (unless already set), then loads libnccl on the first call; a missing
// library throws CUDARuntimeError naming it, the directories searched and the pip command.
const NcclApi& nccl();
runtime::LibrarySpec nccl_library_spec();

// Throws cuarray::NcclError (cuarray/nccl.hpp) with NCCL's status and its error string unless
// status is ncclSuccess.
void check_nccl(ncclResult_t status, const char* call);

}  // namespace cuarray::libs
