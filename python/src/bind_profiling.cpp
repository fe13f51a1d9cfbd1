// cuarray.cuda.nvtx (NVTX ranges and markers, CuPy's functions) and cuarray.cuda.profiler (the
// driver's capture range). NVTX v3 is header-only: with no tool attached each call returns at once.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nvtx3/nvToolsExt.h>

#include <optional>
#include <string>

#include "bindings.hpp"
#include "cuarray/runtime.hpp"

namespace cuarray::py {
namespace {

// An ASCII message with an ARGB color, or no color (the tool's own).
nvtxEventAttributes_t event_attributes(const std::string& message, std::optional<uint32_t> color) {
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = color ? NVTX_COLOR_ARGB : NVTX_COLOR_UNKNOWN;
  attributes.color = color.value_or(0);
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  return attributes;
}

}  // namespace

void bind_profiling(nb::module_& m) {
  m.def("nvtx_mark", [](const std::string& message, std::optional<uint32_t> color) {
    const nvtxEventAttributes_t attributes = event_attributes(message, color);
    nvtxMarkEx(&attributes);
  }, nb::arg("message"), nb::arg("color").none());
  m.def("nvtx_range_push", [](const std::string& message, std::optional<uint32_t> color) {
    const nvtxEventAttributes_t attributes = event_attributes(message, color);
    return nvtxRangePushEx(&attributes);
  }, nb::arg("message"), nb::arg("color").none());
  m.def("nvtx_range_pop", [] { return nvtxRangePop(); });
  m.def("nvtx_range_start", [](const std::string& message, std::optional<uint32_t> color) {
    const nvtxEventAttributes_t attributes = event_attributes(message, color);
    return static_cast<uint64_t>(nvtxRangeStartEx(&attributes));
  }, nb::arg("message"), nb::arg("color").none());
  m.def("nvtx_range_end", [](uint64_t range) { nvtxRangeEnd(range); });
  m.def("profiler_start", &profiler_start);
  m.def("profiler_stop", &profiler_stop);
}

}  // namespace cuarray::py
