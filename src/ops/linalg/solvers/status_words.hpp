// cuSOLVER's `info` outputs, one int32 per matrix of a stack, and the check that turns a failure
// into NumPy's LinAlgError without waiting for the whole device.
#pragma once
#include <cstdint>

#include "cuarray/ndarray.hpp"

namespace cuarray::linalg {

class StatusWords {
 public:
  explicit StatusWords(int64_t count);
  int* word(int64_t i) const { return reinterpret_cast<int*>(words_.raw_data()) + i; }
  int64_t count() const { return words_.size(); }

  // The words read on the host, through pinned memory and an event recorded behind them on the
  // current stream. Waits for this stream's work up to here, never for the device.
  std::vector<int> read() const;
  // When error checks are on (error_checks()), throws LinAlgError(message) if any word is
  // positive: cuSOLVER's report of a singular or indefinite matrix or of no convergence.
  void raise_if_failed(const char* message) const;
  // Whether any word is positive, read whatever the switch says (a caller that must act on it).
  bool any_failed() const;

 private:
  NDArray words_;
};

}  // namespace cuarray::linalg
