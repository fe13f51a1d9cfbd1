// Parameter layouts of a module image of any kind cuModuleLoadData takes: a CUBIN (its .nv.info
// sections, cubin_params), a fatbin (the CUBINs embedded in it: a kernel's parameters are the same
// on every architecture, so the first CUBIN that describes a kernel is enough) or PTX text (each
// .entry's .param list, laid out as the ABI does: every parameter at its alignment). Every kernel
// has an entry (count -1 where its parameters cannot be read); a compressed fatbin has none.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "jit/cubin_params.hpp"

namespace cuarray::jit {

std::unordered_map<std::string, CubinParams> image_params(std::string_view image);

// The variables a CUBIN or fatbin image defines (cubin_variables of its CUBINs); nullopt where the
// image does not say (PTX, a compressed fatbin).
std::optional<std::unordered_set<std::string>> image_variables(std::string_view image);

// The .entry parameter lists of PTX text (exposed for the tests).
std::unordered_map<std::string, CubinParams> ptx_params(std::string_view ptx);

}  // namespace cuarray::jit
