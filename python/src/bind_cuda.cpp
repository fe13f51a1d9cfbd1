// Devices, streams, events, memory pools and the compiler: the primitives behind cuarray.cuda.
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include "jit/nvrtc.hpp"
#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/peer_access.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/driver.hpp"

namespace cuarray::py {
namespace {

nb::dlpack::dtype dlpack_dtype(DType t) {
  using C = nb::dlpack::dtype_code;
  C code = t == DType::Bool ? C::Bool
           : kind(t) == DTypeKind::SignedInt ? C::Int
           : kind(t) == DTypeKind::UnsignedInt ? C::UInt
           : kind(t) == DTypeKind::Float ? C::Float
                                         : C::Complex;
  return {static_cast<uint8_t>(code), static_cast<uint8_t>(itemsize(t) * 8), 1};
}

// A NumPy array (C order) in page-locked memory from the pinned pool; the block returns to the
// pool when NumPy frees the array. Device-to-host copies into it need no staging and no page faults.
nb::object pinned_host_array(nb::handle shape_obj, nb::handle dtype_obj) {
  Shape shape = shape_from_py(shape_obj);
  DType t = dtype_from_py_required(dtype_obj);
  const size_t nbytes = static_cast<size_t>(shape_size(shape)) * itemsize(t);
  auto* block = new std::shared_ptr<void>(allocate_pinned(std::max<size_t>(nbytes, 1)));
  nb::capsule owner(block, [](void* p) noexcept { delete static_cast<std::shared_ptr<void>*>(p); });
  std::vector<size_t> dims(shape.begin(), shape.end());
  nb::ndarray<nb::numpy> array(block->get(), dims.size(), dims.data(), owner, nullptr, dlpack_dtype(t));
  return nb::cast(array, nb::rv_policy::reference);
}

}  // namespace

void bind_cuda(nb::module_& m) {
  m.def("get_device_count", &device_count);
  m.def("get_current_device", &current_device);
  m.def("set_current_device", &set_current_device);
  m.def("device_synchronize", &device_synchronize);
  m.def("flush_launches", &flush_launches);
  m.def("set_launch_batching", &set_launch_batching);
  m.def("launch_batching", &launch_batching);
  m.def("held_launches", &held_launches);
  m.def("device_can_access_peer", &device_can_access_peer);
  m.def("device_enable_peer_access", &device_enable_peer_access);
  m.def("mem_get_info", [](int d) {
    const DeviceMemoryInfo info = device_memory_info(d);
    return nb::make_tuple(info.free, info.total);
  });
  m.def("device_attribute", &device_attribute);
  m.def("device_name", [](int id) {
    const std::string name = device_name(id);
    return nb::bytes(name.data(), name.size());
  });
  m.def("device_total_memory", &device_total_memory);
  m.def("device_pci_bus_id", &device_pci_bus_id);
  m.def("device_by_pci_bus_id", &device_by_pci_bus_id);
  m.def("device_uuid", [](int id) {
    const std::string uuid = device_uuid(id);
    return nb::bytes(uuid.data(), uuid.size());
  });
  m.def("driver_version", &driver_version);
  // cudaDeviceAttr's enumerators by name, from the toolkit cuarray was built with (python/CMakeLists.txt).
  nb::dict attribute_ids;
#define CUARRAY_DEVICE_ATTRIBUTE(name, value) attribute_ids[#name] = value;
#include "device_attributes.inc"
#undef CUARRAY_DEVICE_ATTRIBUTE
  m.attr("device_attribute_ids") = attribute_ids;
  // cudaError's enumerators by name (cudaSuccess, cudaErrorInvalidValue, ...), the same way.
  nb::dict runtime_error_ids;
#define CUARRAY_RUNTIME_ERROR(name, value) runtime_error_ids[#name] = value;
#include "runtime_errors.inc"
#undef CUARRAY_RUNTIME_ERROR
  m.attr("runtime_error_ids") = runtime_error_ids;
  // A status code's name and description in the driver's words (cuGetErrorName / cuGetErrorString),
  // each None where the driver cannot be opened or does not know the code: the message of a
  // CUDADriverError or CUDARuntimeError made from a status alone, as CuPy's are.
  m.def("driver_error_strings", [](int status) {
    const char* name = nullptr;
    const char* text = nullptr;
    try {
      const runtime::DriverApi& api = runtime::driver();
      api.cuGetErrorName(static_cast<CUresult>(status), &name);
      api.cuGetErrorString(static_cast<CUresult>(status), &text);
    } catch (const Error&) {  // no driver: the caller words the code itself
    }
    auto or_none = [](const char* c) { return c ? nb::object(nb::str(c)) : nb::none(); };
    return nb::make_tuple(or_none(name), or_none(text));
  });

  nb::class_<Stream>(m, "StreamHandle")
      .def_static("create", &Stream::create, nb::arg("non_blocking") = false, nb::arg("priority") = 0)
      .def_static("null", &Stream::null_stream)
      .def_static("external", [](uintptr_t ptr, int device) {
        return Stream::external(reinterpret_cast<StreamHandle>(ptr), device);
      })
      .def_prop_ro("ptr", [](const Stream& s) { return reinterpret_cast<uintptr_t>(s.handle()); })
      .def_prop_ro("device_id", &Stream::device)
      .def("synchronize", &Stream::synchronize, nb::call_guard<nb::gil_scoped_release>())
      .def("done", &Stream::done)
      .def("begin_capture", [](const Stream& s, int mode) { begin_capture(s.handle(), mode); })
      .def("end_capture", [](const Stream& s) { return end_capture(s.handle()); })
      .def("is_capturing", [](const Stream& s) { return is_capturing(s.handle()); });
  nb::class_<Graph>(m, "GraphHandle", "An instantiated CUDA graph from a stream capture.")
      .def("launch", [](Graph& g, std::optional<uintptr_t> stream) { g.launch(stream_or_current(stream)); },
           nb::arg("stream").none())
      .def("upload", [](Graph& g, std::optional<uintptr_t> stream) { g.upload(stream_or_current(stream)); },
           nb::arg("stream").none())
      .def_prop_ro("device_id", &Graph::device);
  m.def("get_current_stream", &current_stream);
  m.def("set_current_stream", &set_current_stream, nb::arg("stream").none());

  nb::class_<Event>(m, "EventHandle")
      .def(nb::init<bool, bool, bool>(), nb::arg("block") = false, nb::arg("disable_timing") = false,
           nb::arg("interprocess") = false)
      .def("record", [](Event& e, uintptr_t stream) { e.record(reinterpret_cast<StreamHandle>(stream)); })
      .def("synchronize", &Event::synchronize, nb::call_guard<nb::gil_scoped_release>())
      .def("query", &Event::query)
      .def_prop_ro("ptr", [](const Event& e) { return reinterpret_cast<uintptr_t>(e.handle()); });
  m.def("elapsed_time", &elapsed_time_ms);
  m.def("stream_wait_event", [](uintptr_t stream, const Event& e) {
    stream_wait_event(reinterpret_cast<StreamHandle>(stream), e);
  });

  m.def("pinned_n_free_blocks", [] { return PinnedMemoryPool::instance().n_free_blocks(); });
  m.def("pinned_total_bytes", [] { return PinnedMemoryPool::instance().total_bytes(); });
  m.def("pinned_host_array", &pinned_host_array);
  m.def("pinned_free_all_blocks", [] { PinnedMemoryPool::instance().free_all_blocks(); });

  // Compiles CUDA source to CUBIN for an architecture with no GPU needed (tests, RawKernel).
  m.def("compile_to_cubin", [](const std::string& source, const std::string& name, const std::string& arch) {
    std::string cubin = jit::compile_to_cubin(source, name, arch);
    return nb::bytes(cubin.data(), cubin.size());
  });
  m.def("nvrtc_version", &jit::nvrtc_version);
}

}  // namespace cuarray::py
