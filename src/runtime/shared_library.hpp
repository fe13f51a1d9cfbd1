// Finding and opening a CUDA library (NVRTC, cuBLAS, cuSOLVER, cuFFT, NCCL) with dlopen, on first use.
//
// Where a library is looked for, in this order, trying the spec's sonames in order in each place:
//   1. $CUDA_PATH/lib64, then $CUDA_HOME/lib64: a toolkit the user points at wins;
//   2. the NVIDIA pip wheels, in each site-packages directory: <sp>/nvidia/cu13/lib (every CUDA 13
//      wheel installs there), then <sp>/nvidia/<wheel>/lib (the CUDA 12 wheels, one directory per
//      library; NCCL keeps this layout for CUDA 13 too). The site-packages directories are found
//      without Python: the parent of the directory holding libcuarray.so (in a wheel it sits in
//      <sp>/cuarray/), then every entry of $PYTHONPATH;
//   3. /usr/local/cuda/lib64, the toolkit's default location;
//   4. the dynamic loader's own search (the plain soname: RUNPATH, LD_LIBRARY_PATH, the ldconfig cache).
// Nothing here runs at import: each library is searched for on its first use (see LazyLibrary in
// runtime/function_table.hpp, which keeps the result).
#pragma once
#include <string>
#include <vector>

namespace cuarray::runtime {

struct LibrarySpec {
  const char* title;                 // how errors name it: "cuBLAS"
  std::vector<std::string> sonames;  // most wanted first: "libcublas.so.13", "libcublas.so.12"
  const char* wheel;                 // its CUDA 12 wheel's directory under <sp>/nvidia/: "cublas"
  const char* pip_hint;              // how to install it: "pip install nvidia-cublas"
};

// An opened library. It is never closed: plans and handles made from it may be released as late
// as static teardown.
struct SharedLibrary {
  const char* title;
  void* handle;
  std::string path;  // the file that was opened, as given to dlopen (a bare soname for step 4)

  // The address of `symbol`; throws CudaRuntime naming the library and the symbol when it is missing.
  void* symbol(const char* name) const;
};

// Searches in the order above and opens the first soname that loads. Throws CudaRuntime naming the
// library, every place looked (with the loader's reason for any file that exists but failed to
// load, such as a missing dependency) and how to install it.
SharedLibrary open_library(const LibrarySpec& spec);

// The directories of steps 1-3, in order and without repeats, then "" for step 4 (the loader's own
// search); for the error message and the tests.
std::vector<std::string> library_search_dirs(const LibrarySpec& spec);

}  // namespace cuarray::runtime
