// The parameter bytes of one launch of a user kernel (RawKernel), from CuPy-style arguments.
//
// CuPy hands each argument to cuLaunchKernel as its own bytes and lets the kernel read what its
// parameter's size says. cuarray knows each parameter's size from the CUBIN, so it checks: the
// count must match, and every argument must be as large as its parameter; a Python int (CuPy's
// int64) goes into a smaller integer parameter when its value fits, which is exactly what the
// kernel reads from CuPy's int64 (the low bytes). Where the layout is unknown (PTX or fatbin
// images) the bytes go as they are, as in CuPy.
#pragma once
#include <span>
#include <string_view>

#include "cuarray/raw_kernel.hpp"
#include "cuarray/small_vector.hpp"
#include "runtime/launch.hpp"

namespace cuarray::ops {

class RawArguments {
 public:
  // Throws TypeError (count, size) or OverflowError (a Python int that does not fit its parameter),
  // naming the kernel and the argument.
  RawArguments(const runtime::KernelInfo* layout, std::string_view kernel, std::span<const KernelArgument> args);
  RawArguments(const RawArguments&) = delete;
  RawArguments& operator=(const RawArguments&) = delete;

  runtime::KernelParams params() const {
    return {values_.data(), sizes_.data(), static_cast<int>(sizes_.size())};
  }

 private:
  SmallVector<unsigned char, 1024> bytes_;  // each parameter 16-byte aligned
  SmallVector<void*, 16> values_;
  SmallVector<uint32_t, 16> sizes_;
};

}  // namespace cuarray::ops
