// Checks and descriptions of arrays that many operations share: one definition each, so that every
// operation words an error the same way and decides "may these two arrays alias?" by one rule.
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// "dtype('float32')", as NumPy's messages print a dtype.
std::string dtype_repr(DType t);

// Whether a and b are views of one allocation (NumPy's may_share_memory, answered by ownership).
bool same_buffer(const NDArray& a, const NDArray& b);
// Whether the bytes a and b span intersect: writing one may change what the other reads.
bool overlaps(const NDArray& a, const NDArray& b);
// Whether a and b are the same elements at the same addresses (reading and writing them in one
// elementwise pass is safe even though they overlap).
bool same_view(const NDArray& a, const NDArray& b);

// ValueError naming both devices unless `a` lives on `device` (the device the operation runs on);
// `what` names the array in the message ("array", "output array", "b", ...).
void check_device(const NDArray& a, int device, std::string_view what = "array");

// The device an operation's kernels run on: the current one (CuPy's rule), made active for the
// driver calls that follow. ValueError naming both devices when an operand lives elsewhere (a kernel
// on one device must not be handed another's pointers: that faults, or crawls over the peer link).
// Null operands are skipped.
int activate_current_device(std::initializer_list<const NDArray*> operands);

}  // namespace cuarray
