// The error a CUDA library that cannot be found raises: it names the library, the file it looked
// for, where it looked and the pip command that installs it (docs/libraries.md).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "cuarray/errors.hpp"
#include "runtime/shared_library.hpp"

namespace cuarray::test {

// Opens `spec` with its file names replaced by one that does not exist.
inline void expect_missing_library_error(runtime::LibrarySpec spec, const std::string& missing,
                                         const std::string& pip_package) {
  spec.sonames = {missing};
  try {
    runtime::open_library(spec);
    FAIL() << "a missing library loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::CudaRuntime);
    const std::string message = e.what();
    EXPECT_NE(message.find(spec.title), std::string::npos) << message;
    EXPECT_NE(message.find(missing), std::string::npos) << message;
    EXPECT_NE(message.find("/usr/local/cuda/lib64"), std::string::npos) << message;
    EXPECT_NE(message.find("pip install " + pip_package), std::string::npos) << message;
  }
}

}  // namespace cuarray::test
