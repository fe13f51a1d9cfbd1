// DLPack capsules and the CUDA Array Interface: the Python side of cuarray/interop.hpp. The
// protocols' Python conventions live here (capsule names, stream integers, keyword checks); what
// is exchanged, and how streams are ordered, is C++ (src/interop/, docs/interop.md).
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/interop.hpp"
#include "runtime/current_device_scope.hpp"

namespace cuarray::py {
namespace {

// A capsule is "dltensor(_versioned)" while it owns its tensor; the consumer renames it
// "used_dltensor(_versioned)" as it takes ownership.
constexpr const char* kVersioned = "dltensor_versioned";
constexpr const char* kLegacy = "dltensor";
constexpr const char* kUsedVersioned = "used_dltensor_versioned";
constexpr const char* kUsedLegacy = "used_dltensor";

// A capsule nobody consumed still owns its tensor and calls the deleter; a consumed one does not.
void capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kVersioned)) {
    auto* t = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, kVersioned));
    if (t->deleter) t->deleter(t);
  } else if (PyCapsule_IsValid(capsule, kLegacy)) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kLegacy));
    if (t->deleter) t->deleter(t);
  }
}

nb::object make_capsule(const DLPackExport& e) {
  void* tensor = e.versioned ? static_cast<void*>(e.versioned) : static_cast<void*>(e.legacy);
  PyObject* capsule = PyCapsule_New(tensor, e.versioned ? kVersioned : kLegacy, capsule_destructor);
  if (!capsule) {
    if (e.versioned) e.versioned->deleter(e.versioned);
    else e.legacy->deleter(e.legacy);
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

// Takes the tensor out of a capsule (renaming it first, so that nothing can release it twice).
NDArray consume_capsule(nb::handle capsule, CopyMode copy, std::optional<int> device) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, kVersioned)) {
    auto* t = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersioned));
    PyCapsule_SetName(c, kUsedVersioned);
    return from_dlpack(t, copy, device);
  }
  if (PyCapsule_IsValid(c, kLegacy)) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacy));
    PyCapsule_SetName(c, kUsedLegacy);
    return from_dlpack(t, copy, device);
  }
  if (PyCapsule_CheckExact(c))
    throw_error(ErrorKind::Value, "A DLPack tensor object cannot be consumed multiple times (or the capsule is not "
                                  "a DLPack tensor)");
  throw_error(ErrorKind::Type, "from_dlpack expects an object with __dlpack__ or a DLPack capsule, not '" +
                                   std::string(Py_TYPE(c)->tp_name) + "'");
}

bool is_int(nb::handle h) { return PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr()); }

// copy= of the Array API standard: None, or anything with a truth value (as NumPy's copy=).
CopyMode copy_mode_from_py(nb::handle copy) {
  if (copy.is_none()) return CopyMode::IfNeeded;
  return nb::cast<bool>(nb::bool_(copy)) ? CopyMode::Always : CopyMode::Never;
}

std::optional<DLDevice> dl_device_from_py(nb::handle d) {
  if (d.is_none()) return std::nullopt;
  if (!nb::isinstance<nb::tuple>(d) || nb::len(d) != 2 || !is_int(d[0]) || !is_int(d[1]))
    throw_error(ErrorKind::Type, "dl_device must be None or a (device_type, device_id) tuple of ints");
  return DLDevice{static_cast<DLDeviceType>(nb::cast<int>(d[0])), nb::cast<int32_t>(d[1])};
}

std::optional<DLPackVersion> max_version_from_py(nb::handle v) {
  if (v.is_none()) return std::nullopt;
  if (!nb::isinstance<nb::tuple>(v) || nb::len(v) != 2 || !is_int(v[0]) || !is_int(v[1]))
    throw_error(ErrorKind::Type, "max_version must be None or a (major, minor) tuple of ints");
  const long major = nb::cast<long>(v[0]), minor = nb::cast<long>(v[1]);
  if (major < 0 || minor < 0) throw_error(ErrorKind::Value, "max_version must not be negative");
  return DLPackVersion{static_cast<uint32_t>(major), static_cast<uint32_t>(minor)};
}

// A CUDA stream as both protocols write it: 1 the legacy default stream, 2 the per-thread one,
// any other positive integer a handle. 0 is ambiguous and refused.
StreamHandle stream_from_int(long long s, const char* protocol) {
  if (s == 0)
    throw_error(ErrorKind::Value, std::string(protocol) + ": stream 0 is ambiguous and not allowed (1 is the legacy "
                                                          "default stream, 2 the per-thread default stream)");
  if (s < 0) throw_error(ErrorKind::Value, std::string(protocol) + ": invalid stream " + std::to_string(s));
  return reinterpret_cast<StreamHandle>(static_cast<uintptr_t>(s));
}

nb::int_ stream_to_py(StreamHandle s) { return nb::int_(reinterpret_cast<uintptr_t>(s)); }

// __dlpack__'s stream: None is the legacy default stream, -1 asks for no synchronization. Only
// None and -1 make sense for a host (kDLCPU) export, which is finished when it returns.
std::optional<StreamHandle> dlpack_stream_from_py(nb::handle stream, bool to_host) {
  if (stream.is_none()) return to_host ? std::nullopt : std::optional(legacy_default_stream());
  if (!is_int(stream)) throw_error(ErrorKind::Type, "__dlpack__: stream must be an int or None");
  const long long s = nb::cast<long long>(stream);
  if (s == -1) return std::nullopt;
  if (to_host) throw_error(ErrorKind::Value, "__dlpack__: stream must be None or -1 for a kDLCPU export");
  return stream_from_int(s, "__dlpack__");
}

nb::object dlpack(nb::handle self, nb::handle stream, nb::handle max_version, nb::handle dl_device, nb::handle copy) {
  DLPackRequest request;
  request.max_version = max_version_from_py(max_version);
  request.device = dl_device_from_py(dl_device);
  request.copy = copy_mode_from_py(copy);
  request.stream = dlpack_stream_from_py(stream, request.device && request.device->device_type == kDLCPU);
  return make_capsule(to_dlpack(array_of(self), request));
}

// from_dlpack's device=: None, a device id, a cuarray.cuda.Device (anything with .id) or a DLPack
// (device_type, device_id) pair naming a CUDA device.
std::optional<int> target_device_from_py(nb::handle device) {
  if (device.is_none()) return std::nullopt;
  if (is_int(device)) return nb::cast<int>(device);
  if (nb::isinstance<nb::tuple>(device)) {
    const std::optional<DLDevice> d = dl_device_from_py(device);
    if (d->device_type != kDLCUDA)
      throw_error(ErrorKind::Buffer, "cuarray arrays live in GPU memory: from_dlpack cannot place one on DLPack device (" +
                                         std::to_string(static_cast<int>(d->device_type)) + ", " +
                                         std::to_string(d->device_id) + ")");
    return d->device_id;
  }
  if (nb::hasattr(device, "id")) return nb::cast<int>(device.attr("id"));
  throw_error(ErrorKind::Type, "device must be None, a device id, a cuarray.cuda.Device or a DLPack (device_type, "
                               "device_id) tuple");
}

// from_dlpack: asks the producer for a capsule (versioned where it can, with cuarray's current
// stream for GPU data) and consumes it. A bare capsule is consumed as it is (fromDlpack's input).
nb::object from_dlpack_py(nb::handle obj, nb::handle device, nb::handle copy) {
  const CopyMode mode = copy_mode_from_py(copy);
  const std::optional<int> target = target_device_from_py(device);
  if (PyCapsule_CheckExact(obj.ptr())) return wrap(consume_capsule(obj, mode, target));
  if (!nb::hasattr(obj, "__dlpack__") || !nb::hasattr(obj, "__dlpack_device__"))
    throw_error(ErrorKind::Type, "from_dlpack expects an object with __dlpack__ and __dlpack_device__ (or a DLPack "
                                 "capsule), not '" + std::string(Py_TYPE(obj.ptr())->tp_name) + "'");
  nb::object where = obj.attr("__dlpack_device__")();
  const DLDevice d = *dl_device_from_py(where);
  nb::dict kwargs;
  kwargs["max_version"] = nb::make_tuple(DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  switch (d.device_type) {
    case kDLCUDA:
    case kDLCUDAManaged:  // its device id is 0 whatever its device; cuarray's current one stands in
      kwargs["stream"] = stream_to_py(exchange_stream(d.device_type == kDLCUDA ? d.device_id : current_device()));
      break;
    case kDLCPU:
    case kDLCUDAHost:  // host memory: no stream; the copy to the GPU is cuarray's
      if (mode == CopyMode::Never)
        throw_error(ErrorKind::Value, "the DLPack tensor is in host memory: a copy to the GPU is needed (copy=False)");
      break;
    default:
      throw_error(ErrorKind::Buffer, "cuarray cannot import DLPack device type " +
                                         std::to_string(static_cast<int>(d.device_type)) +
                                         " (CUDA, CUDA-managed and host memory are supported)");
  }
  nb::object export_ = obj.attr("__dlpack__");
  nb::object capsule;
  try {
    capsule = export_(**kwargs);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    PyDict_DelItemString(kwargs.ptr(), "max_version");  // a producer older than DLPack 1.0
    capsule = export_(**kwargs);
  }
  return wrap(consume_capsule(capsule, mode, target));
}

// A reference to a Python object for C++ owners: released under the GIL, from any thread; left
// alone once the interpreter is gone.
std::shared_ptr<const void> python_owner(nb::handle obj) {
  return std::shared_ptr<const void>(nb::handle(obj).inc_ref().ptr(), [](const void* p) {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(const_cast<void*>(p)));
    PyGILState_Release(state);
  });
}

Strides strides_from_py(nb::handle strides) {
  Strides out;
  for (nb::handle s : strides) out.push_back(nb::cast<int64_t>(s));
  return out;
}

// cuarray.asarray of an object with __cuda_array_interface__ `desc` (version 0 to 3): a view of its
// memory that keeps the object alive, after making cuarray's current stream wait for the stream
// the producer names. Read-only memory is copied, as cuarray arrays are writable.
nb::object from_cuda_array_interface(nb::handle obj, nb::handle desc, nb::handle copy) {
  const CopyMode mode = copy_mode_from_py(copy);
  if (!nb::isinstance<nb::dict>(desc)) throw_error(ErrorKind::Type, "__cuda_array_interface__ must be a dict");
  nb::dict iface = nb::borrow<nb::dict>(desc);
  const Shape shape = shape_from_py(iface["shape"]);
  const DType dtype = dtype_from_py_required(iface["typestr"]);
  nb::handle data = iface["data"];
  const uintptr_t ptr = nb::cast<uintptr_t>(data[0]);
  const bool read_only = nb::cast<bool>(nb::bool_(data[1]));
  const nb::object strides = iface.contains("strides") ? nb::object(iface["strides"]) : nb::none();
  if (iface.contains("mask") && !nb::object(iface["mask"]).is_none())
    throw_error(ErrorKind::Value, "cuarray does not support masked arrays (a __cuda_array_interface__ with a mask)");
  std::optional<StreamHandle> producer;
  if (iface.contains("stream") && !nb::object(iface["stream"]).is_none())
    producer = stream_from_int(nb::cast<long long>(iface["stream"]), "__cuda_array_interface__");
  if (read_only && mode == CopyMode::Never)
    throw_error(ErrorKind::Value, "the __cuda_array_interface__ memory is read-only and cuarray arrays are writable: "
                                  "a copy is needed (copy=False)");
  if (shape_size(shape) == 0) return wrap(empty(shape, dtype));  // its pointer is 0
  const std::optional<int> device = device_of_pointer(reinterpret_cast<void*>(ptr));
  if (!device) throw_error(ErrorKind::Value, "the __cuda_array_interface__ pointer is not device memory CUDA knows");
  if (producer) stream_wait_stream(exchange_stream(*device), *producer, *device);
  NDArray view = view_foreign_memory(reinterpret_cast<void*>(ptr), shape,
                                     strides.is_none() ? c_strides(shape, static_cast<int64_t>(itemsize(dtype)))
                                                       : strides_from_py(strides),
                                     dtype, *device, python_owner(obj));
  if (mode != CopyMode::Always && !read_only) return wrap(std::move(view));
  runtime::CurrentDeviceScope on(*device);
  NDArray copied = view.copy(Order::K);
  current_stream()->synchronize();  // the owner may reuse its memory once released, on its own streams
  return wrap(std::move(copied));
}

}  // namespace

void bind_interop(nb::module_& m) {
  nb::handle cls(reinterpret_cast<PyObject*>(g_ndarray_type));
  nb::cpp_function_def(&dlpack, nb::scope(cls), nb::name("__dlpack__"), nb::is_method(), nb::kw_only(),
                       nb::arg("stream") = nb::none(), nb::arg("max_version") = nb::none(),
                       nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none(),
                       "A DLPack capsule of the array (the Array API standard's __dlpack__).");
  nb::cpp_function_def(
      [](nb::handle self) {
        const DLDevice d = dlpack_device(array_of(self));
        return nb::make_tuple(static_cast<int>(d.device_type), d.device_id);
      },
      nb::scope(cls), nb::name("__dlpack_device__"), nb::is_method(), "(kDLCUDA, device id)");
  // CuPy's legacy spelling: a legacy capsule and no stream protocol (the user orders the streams).
  nb::cpp_function_def(
      [](nb::handle self) {
        DLPackRequest request;
        request.stream = std::nullopt;
        return make_capsule(to_dlpack(array_of(self), request));
      },
      nb::scope(cls), nb::name("toDlpack"), nb::is_method(), "A legacy DLPack capsule (\"dltensor\") of the array.");

  m.def("from_dlpack", &from_dlpack_py, nb::arg("x"), nb::kw_only(), nb::arg("device") = nb::none(),
        nb::arg("copy") = nb::none(),
        "An array of the data of `x`, an object with __dlpack__ and __dlpack_device__ or a DLPack capsule:\n"
        "GPU data is viewed without a copy (copy=True copies), host data is copied to `device` (the\n"
        "current device by default). cuarray's current stream is passed to the producer.");
  m.def("from_cuda_array_interface", &from_cuda_array_interface, nb::arg("obj"), nb::arg("interface"),
        nb::arg("copy") = nb::none(),
        "A view of the memory `obj` describes with its __cuda_array_interface__ `interface`, keeping `obj` alive.");
  m.def("exchange_stream", [](int device) { return stream_to_py(exchange_stream(device)); });
}

}  // namespace cuarray::py
