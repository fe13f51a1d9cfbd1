// The one check every kernel-family test makes: a generated source compiles with NVRTC to CUBIN
// for sm_80 and sm_90 (no GPU needed); a failure reports NVRTC's log.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "cuarray/errors.hpp"
#include "jit/nvrtc.hpp"

namespace cuarray::test {

inline void expect_compiles(const std::string& source, const std::string& what) {
  for (const char* arch : {"sm_80", "sm_90"}) {
    try {
      EXPECT_GT(jit::compile_to_cubin(source, "test", arch).size(), 0u) << what;
    } catch (const CompileError& e) {
      ADD_FAILURE() << what << " (" << arch << ") failed:\n" << e.what();
    }
  }
}

}  // namespace cuarray::test
