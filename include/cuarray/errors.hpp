// The exceptions cuarray throws. Each kind maps to the Python exception NumPy/CuPy raise for it.
#pragma once
#include <stdexcept>
#include <string>

namespace cuarray {

enum class ErrorKind {
  Value,          // ValueError (broadcast mismatch, bad shape, ...)
  Type,           // TypeError (bad dtype, casting violation, ...)
  Index,          // IndexError
  Axis,           // numpy.exceptions.AxisError
  Overflow,       // OverflowError (Python integer out of bounds for a dtype)
  NotImplemented, // NotImplementedError
  OutOfMemory,    // cuarray.cuda.memory.OutOfMemoryError (a MemoryError)
  CudaDriver,     // cuarray.cuda.driver.CUDADriverError
  CudaRuntime,    // cuarray.cuda.runtime.CUDARuntimeError (no device/driver, bad device id, ...)
  Compile,        // cuarray.cuda.compiler.CompileException
  LinAlg,         // numpy.linalg.LinAlgError (singular matrix, not positive definite, no convergence)
  Buffer,         // BufferError (an array that cannot be exchanged through DLPack as asked)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message, int status = 0)
      : std::runtime_error(message), kind_(kind), status_(status) {}
  ErrorKind kind() const { return kind_; }
  // The failed call's status code, CuPy's `.status`: a cudaError_t or a CUresult for CudaRuntime and
  // CudaDriver errors (CUDA numbers the two alike), the library's own in a subclass such as
  // nccl::NcclError; 0 where the failure has none (a library that is not installed).
  int status() const { return status_; }

 private:
  ErrorKind kind_;
  int status_;
};

// A kernel that NVRTC rejected: the message carries the log; the source is kept for the user.
class CompileError : public Error {
 public:
  CompileError(const std::string& log, std::string source, std::string name)
      : Error(ErrorKind::Compile, log), source_(std::move(source)), name_(std::move(name)) {}
  const std::string& source() const { return source_; }
  const std::string& name() const { return name_; }

 private:
  std::string source_, name_;
};

[[noreturn]] void throw_error(ErrorKind kind, const std::string& message, int status = 0);

}  // namespace cuarray
