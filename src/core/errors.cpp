#include "cuarray/errors.hpp"

namespace cuarray {
void throw_error(ErrorKind kind, const std::string& message) { throw Error(kind, message); }
}  // namespace cuarray
