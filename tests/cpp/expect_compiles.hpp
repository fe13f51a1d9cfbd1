// The one check every kernel-family test makes: a generated source compiles with NVRTC to CUBIN
// for sm_80 and sm_90 (no GPU needed); a failure reports NVRTC's log. The CUBIN must describe
// every kernel's parameters (jit/cubin_params.hpp): that is how launches learn the layout they
// are checked against and held with. Families whose kernels index
// parameter arrays at run time also check that no kernel uses local memory (ptxas would copy such
// a parameter into every thread's stack unless it is __grid_constant__; docs/performance.md).
#pragma once
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "cuarray/errors.hpp"
#include "jit/cubin_params.hpp"
#include "jit/nvrtc.hpp"

namespace cuarray::test {

enum class LocalMemory { Allowed, None };

// Every "N bytes stack frame, S bytes spill stores, L bytes spill loads" line of a ptxas -v log
// reads 0, 0, 0 (and there is at least one).
inline void expect_no_local_memory(const std::string& log, const std::string& what) {
  static const std::regex usage(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  int kernels = 0;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), usage); it != std::sregex_iterator(); ++it, ++kernels)
    EXPECT_TRUE((*it)[1] == "0" && (*it)[2] == "0" && (*it)[3] == "0") << what << " uses local memory: " << it->str();
  EXPECT_GT(kernels, 0) << what << ": no ptxas report in the log:\n" << log;
}

inline void expect_compiles(const std::string& source, const std::string& what,
                            LocalMemory local = LocalMemory::Allowed) {
  // --no-cache: where a driver is installed, NVRTC may take an identical compile's CUBIN from the
  // driver's cache and skip ptxas, and with it the report.
  const std::vector<std::string> report_options{"--ptxas-options=-v", "--no-cache"};
  for (const char* arch : {"sm_80", "sm_90"}) {
    const bool report = local == LocalMemory::None && std::string(arch) == "sm_90";
    try {
      std::string log;
      const std::string cubin = jit::compile_to_cubin(
          source, "test", arch, report ? report_options : std::vector<std::string>{}, report ? &log : nullptr);
      EXPECT_GT(cubin.size(), 0u) << what;
      const auto kernels = jit::cubin_params(cubin);
      EXPECT_FALSE(kernels.empty()) << what << " (" << arch << "): no kernel described in the CUBIN";
      for (const auto& [name, params] : kernels)
        EXPECT_GE(params.count, 0) << what << " (" << arch << "): the parameters of " << name << " are not described";
      if (report) expect_no_local_memory(log, what + " (" + arch + ")");
    } catch (const CompileError& e) {
      ADD_FAILURE() << what << " (" << arch << ") failed:\n" << e.what();
    }
  }
}

}  // namespace cuarray::test
