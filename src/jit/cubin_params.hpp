// A kernel's parameters as its CUBIN records them: the ELF section `.nv.info.<kernel>` holds one
// KPARAM_INFO attribute per parameter (ordinal, offset, size) and the parameter bank's size. The
// driver can report a parameter's offset and size (cuFuncGetParamInfo) but not how many there
// are, except by failing past the last one, which every CUDA error checker (compute-sanitizer)
// reports; the CUBIN says it without a failing call.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cuarray::jit {

struct CubinParam {
  uint32_t offset, size;
};

// A kernel's parameters in parameter order; count -1 when its section does not describe them
// consistently (an attribute format we do not know, a missing ordinal): the layout is unknown.
struct CubinParams {
  int count = -1;
  std::vector<CubinParam> params;
};

// Every kernel the CUBIN describes, by name; empty for a file that is not an ELF CUBIN.
std::unordered_map<std::string, CubinParams> cubin_params(std::string_view cubin);

// The variables (__device__, __constant__) a CUBIN's symbol table defines, by name; empty for a
// file that is not an ELF CUBIN.
std::unordered_set<std::string> cubin_variables(std::string_view cubin);

}  // namespace cuarray::jit
