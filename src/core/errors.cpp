#include "cuarray/errors.hpp"

namespace cuarray {
void throw_error(ErrorKind kind, const std::string& message, int status) { throw Error(kind, message, status); }
}  // namespace cuarray
