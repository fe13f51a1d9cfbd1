// The check of a call that must fail: it throws cuarray::Error of the given kind with exactly
// NumPy's message.
#pragma once
#include <gtest/gtest.h>

#include "cuarray/errors.hpp"

namespace cuarray::test {

template <class F>
void expect_error(ErrorKind kind, const char* message, F&& f) {
  try {
    f();
    FAIL() << "expected an error: " << message;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_STREQ(e.what(), message);
  }
}

// The status code of the error f throws (0: none, or no error).
template <class F>
int error_status(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.status();
  }
  return 0;
}

}  // namespace cuarray::test
