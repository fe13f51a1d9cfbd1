// Tests that need a GPU skip with a reason on machines without one (CI), as the Python suite does.
#pragma once
#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"

// Skips the calling test unless a CUDA device can be used.
#define CUARRAY_SKIP_WITHOUT_GPU()                                             \
  do {                                                                         \
    try {                                                                      \
      ::cuarray::device_count();                                               \
    } catch (const ::cuarray::Error& e) {                                      \
      GTEST_SKIP() << "no usable CUDA GPU: " << e.what();                      \
    }                                                                          \
  } while (0)
