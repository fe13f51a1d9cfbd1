// cuarray.cuda's memory objects and allocator hooks: device memory of any origin as one Python type
// over a C++ Buffer, pools of one's own (MemoryPool(allocator)), the ndarray constructor on a
// MemoryPointer, and set_allocator / set_pinned_memory_allocator calling back into Python.
#include <driver_types.h>  // cudaError: the status of a CudaRuntime error

#include <mutex>
#include <tuple>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/interop.hpp"
#include "cuarray/ndarray.hpp"
#include "cuarray/runtime.hpp"

namespace cuarray::py {
namespace {

// A reference to a Python object that may be dropped on any thread: the GIL is taken to drop it
// (and the reference leaked once the interpreter is shutting down).
std::shared_ptr<void> python_reference(nb::handle obj) {
  return std::shared_ptr<void>(nb::borrow(obj).release().ptr(), [](void* p) {
#if PY_VERSION_HEX >= 0x030D0000
    if (!Py_IsInitialized() || Py_IsFinalizing()) return;
#else
    if (!Py_IsInitialized() || _Py_IsFinalizing()) return;
#endif
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(p));
  });
}

// Device memory held from Python (CuPy's BaseMemory: Memory, ManagedMemory, UnownedMemory, pool
// blocks). Reading its address marks it shared (other code may enqueue work on it); arrays made on
// it through a MemoryPointer without that keep launch batching.
struct DeviceMemory {
  std::shared_ptr<Buffer> buffer;
};

// Page-locked host memory held from Python (CuPy's PinnedMemory).
struct PinnedBlock {
  std::shared_ptr<void> block;
  size_t size;
};

// A span of page-locked host memory exporting the buffer protocol, the base of CuPy's
// PinnedMemoryPointer, so that numpy.frombuffer(cuarray.cuda.alloc_pinned_memory(n), ...) views it.
// The Python subclass holds the memory object that keeps the span valid.
struct PinnedSpan {
  PinnedSpan(uintptr_t p, size_t n) : ptr(p), size(n) {}
  uintptr_t ptr;
  size_t size;
};

int pinned_span_buffer(PyObject* self, Py_buffer* view, int flags) {
  const PinnedSpan* s = nb::inst_ptr<PinnedSpan>(self);
  return PyBuffer_FillInfo(view, self, reinterpret_cast<void*>(s->ptr), static_cast<Py_ssize_t>(s->size), 0, flags);
}

PyType_Slot pinned_span_slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(pinned_span_buffer)}, {0, nullptr}};

uintptr_t address(nb::handle ptr) { return nb::cast<uintptr_t>(nb::int_(ptr)); }

// The buffer and byte offset of one of cuarray's MemoryPointers (its `mem._memory` and `_offset`),
// read without taking the address; nullopt for pointers of other kinds.
std::optional<std::pair<std::shared_ptr<Buffer>, int64_t>> own_pointer(nb::handle pointer) {
  nb::object mem = nb::getattr(pointer, "mem", nb::none());
  nb::object held = mem.is_none() ? nb::none() : nb::getattr(mem, "_memory", nb::none());
  nb::object offset = nb::getattr(pointer, "_offset", nb::none());
  if (!nb::isinstance<DeviceMemory>(held) || offset.is_none()) return std::nullopt;
  return std::pair{nb::cast<DeviceMemory&>(held).buffer, nb::cast<int64_t>(offset)};
}

// The device memory behind a Python MemoryPointer of `nbytes`: its own buffer when it points at the
// start of one of ours, else its address held together with the pointer object.
std::shared_ptr<Buffer> buffer_of_pointer(nb::handle pointer, size_t nbytes, int device) {
  if (auto own = own_pointer(pointer); own && own->second == 0 && own->first->size() >= nbytes) return own->first;
  const uintptr_t ptr = address(pointer.attr("ptr"));
  return wrap_unowned(reinterpret_cast<void*>(ptr), nbytes, device, python_reference(pointer));
}

// A Python allocator (size -> MemoryPointer) as a pool's block source: a MemoryError from it means
// out of memory (the pool releases its cache and asks once more).
BlockSource python_block_source(nb::handle allocator) {
  std::shared_ptr<void> fn = python_reference(allocator);
  return [fn](size_t nbytes, int device) -> std::shared_ptr<Buffer> {
    nb::gil_scoped_acquire gil;
    try {
      nb::object pointer = nb::handle(static_cast<PyObject*>(fn.get()))(nbytes);
      return buffer_of_pointer(pointer, nbytes, device);
    } catch (nb::python_error& e) {
      if (e.matches(PyExc_MemoryError)) return nullptr;
      throw;
    }
  };
}

// cuarray.cuda.MemoryPool: one C++ pool per device, made on first use, with one block source.
struct PoolSet {
  bool is_default = false;
  BlockSource source;  // empty: cuMemAlloc
  std::mutex mutex;
  std::vector<std::shared_ptr<MemoryPool>> pools;

  MemoryPool& of(int device) {
    if (is_default) return MemoryPool::of_device(device);
    std::lock_guard<std::mutex> lock(mutex);
    if (pools.empty()) pools.resize(static_cast<size_t>(device_count()));
    if (device < 0 || device >= static_cast<int>(pools.size())) return MemoryPool::of_device(device);  // throws
    if (!pools[device]) pools[device] = MemoryPool::create(device, source);
    return *pools[device];
  }
};

// cuarray.cuda.MemoryAsyncPool: a driver memory pool per device (CUmemoryPool handles).
struct StreamOrderedPools {
  std::vector<MemPoolHandle> pools;

  MemPoolHandle of(int device) const {
    if (device < 0 || device >= static_cast<int>(pools.size()))
      throw_error(ErrorKind::Value, "MemoryAsyncPool has no pool for device " + std::to_string(device));
    return pools[static_cast<size_t>(device)];
  }
};

MemPoolHandle pool_handle(uintptr_t handle) { return reinterpret_cast<MemPoolHandle>(handle); }

std::shared_ptr<PoolSet> make_pool_set(nb::handle allocator) {
  auto set = std::make_shared<PoolSet>();
  if (nb::isinstance<nb::str>(allocator)) {
    if (nb::cast<std::string>(allocator) != "managed") throw_error(ErrorKind::Value, "unknown block source");
    set->source = [](size_t nbytes, int device) { return allocate_managed(nbytes, device); };
  } else if (!allocator.is_none()) {
    set->source = python_block_source(allocator);
  }
  return set;
}

void bind_ndarray_init(nb::class_<PyArray>& cls) {
  cls.def("__init__", [](PyArray* self, nb::handle shape_obj, nb::handle dtype_obj, nb::handle memptr,
                         nb::handle strides_obj, nb::handle order_obj) {
    const Shape shape = shape_from_py(shape_obj);
    const DType dtype = dtype_from_py_required(dtype_obj);
    Order order = order_from_py(order_obj, Order::C);
    if (order != Order::F) order = Order::C;
    std::optional<Strides> strides;
    if (!strides_obj.is_none()) {
      if (memptr.is_none()) throw_error(ErrorKind::Value, "memptr is required if strides is given.");
      Shape s = shape_from_py(strides_obj);
      strides = Strides(s.begin(), s.end());
    }
    NDArray array;
    if (memptr.is_none()) {
      array = empty(shape, dtype, order);
    } else {
      std::shared_ptr<Buffer> buffer;
      int64_t offset;
      if (auto own = own_pointer(memptr)) {
        std::tie(buffer, offset) = std::move(*own);
      } else {  // another library's pointer with .mem (.ptr, .size) and .ptr, CuPy's shape
        nb::object mem = memptr.attr("mem");
        const uintptr_t base = address(mem.attr("ptr"));
        buffer = wrap_unowned(reinterpret_cast<void*>(base), nb::cast<size_t>(mem.attr("size")),
                              nb::cast<int>(memptr.attr("device_id")), python_reference(mem));
        offset = static_cast<int64_t>(address(memptr.attr("ptr")) - base);
      }
      array = view_of_buffer(std::move(buffer), offset, shape, dtype, std::move(strides), order);
    }
    new (self) PyArray{std::move(array), nb::none()};
  }, nb::arg("shape"), nb::arg("dtype") = nb::float_(0.0).type(), nb::arg("memptr").none() = nb::none(),
     nb::arg("strides").none() = nb::none(), nb::arg("order").none() = "C");
}

}  // namespace

void bind_memory(nb::module_& m, nb::class_<PyArray>& ndarray_cls) {
  bind_ndarray_init(ndarray_cls);

  nb::class_<DeviceMemory>(m, "DeviceMemory", "Device memory held from Python (the C++ Buffer).")
      .def_prop_ro("ptr", [](const DeviceMemory& d) {
        d.buffer->share();
        return reinterpret_cast<uintptr_t>(d.buffer->ptr());
      })
      .def_prop_ro("size", [](const DeviceMemory& d) { return d.buffer->size(); })
      .def_prop_ro("device_id", [](const DeviceMemory& d) { return d.buffer->device(); });
  m.def("alloc_raw", [](size_t nbytes, int device) { return DeviceMemory{allocate_raw(nbytes, device)}; });
  m.def("alloc_managed", [](size_t nbytes, int device) { return DeviceMemory{allocate_managed(nbytes, device)}; });
  m.def("alloc_device", [](size_t nbytes) {
    return DeviceMemory{allocate_device(nbytes, current_device(), current_stream_handle())};
  });
  m.def("wrap_unowned", [](uintptr_t ptr, size_t nbytes, int device, nb::handle owner) {
    return DeviceMemory{wrap_unowned(reinterpret_cast<void*>(ptr), nbytes, device, python_reference(owner))};
  }, nb::arg("ptr"), nb::arg("size"), nb::arg("device"), nb::arg("owner").none());
  m.def("pointer_device", [](uintptr_t ptr) {
    const std::optional<int> device = device_of_pointer(reinterpret_cast<const void*>(ptr));
    if (!device) throw_error(ErrorKind::CudaRuntime, "cuPointerGetAttributes: not a device pointer", cudaErrorInvalidValue);
    return *device;
  });
  // ndarray.data: the array's memory and the offset of its first element in it.
  m.def("array_memory", [](nb::handle a) {
    const NDArray& array = array_of(a);
    return nb::make_tuple(DeviceMemory{array.buffer()},
                          array.raw_data() - static_cast<char*>(array.buffer()->ptr()));
  });
  // The first element's address, for comparing arrays' memory (shares_memory) only: it marks
  // nothing shared, so it must never be handed to code that writes or reads there (.data.ptr does).
  m.def("array_address", [](nb::handle a) { return reinterpret_cast<uintptr_t>(array_of(a).raw_data()); });
  // lib.stride_tricks.as_strided: a view of a's memory at a's first element with any shape and byte
  // strides, checked to lie inside a's buffer (NumPy does not check; an unchecked view could write
  // outside the allocation). Nothing is marked shared: the view is cuarray's own.
  m.def("strided_view", [](nb::handle a, nb::handle shape_obj, nb::handle strides_obj) {
    const NDArray& array = array_of(a);
    const Shape strides = shape_from_py(strides_obj);
    const int64_t offset = array.raw_data() - static_cast<char*>(array.buffer()->ptr());
    return wrap_view(view_of_buffer(array.buffer(), offset, shape_from_py(shape_obj), array.dtype(),
                                    Strides(strides.begin(), strides.end())),
                     a);
  });

  nb::class_<PoolSet>(m, "PoolSet", "The C++ pools of one cuarray.cuda.MemoryPool, one per device.")
      .def_static("create", &make_pool_set, nb::arg("allocator").none())
      .def_static("default", [] {
        static std::shared_ptr<PoolSet> set = [] {
          auto s = std::make_shared<PoolSet>();
          s->is_default = true;
          return s;
        }();
        return set;
      })
      .def_prop_ro("is_default", [](const PoolSet& s) { return s.is_default; })
      .def("malloc", [](PoolSet& s, size_t nbytes) {
        const int device = current_device();
        return DeviceMemory{s.of(device).allocate(nbytes, current_stream_handle())};
      })
      .def("used_bytes", [](PoolSet& s, int d) { return s.of(d).used_bytes(); })
      .def("total_bytes", [](PoolSet& s, int d) { return s.of(d).total_bytes(); })
      .def("free_bytes", [](PoolSet& s, int d) { return s.of(d).free_bytes(); })
      .def("n_free_blocks", [](PoolSet& s, int d) { return s.of(d).n_free_blocks(); })
      .def("free_all_blocks", [](PoolSet& s, int d) { s.of(d).free_all_blocks(); })
      .def("set_limit", [](PoolSet& s, int d, size_t bytes) { s.of(d).set_limit(bytes); })
      .def("get_limit", [](PoolSet& s, int d) { return s.of(d).get_limit(); });

  // Stream-ordered memory (malloc_async, MemoryAsyncPool) and the driver's pool calls, on handles as ints.
  nb::class_<StreamOrderedPools>(m, "StreamOrderedPools", "The driver memory pools of one MemoryAsyncPool, by device.")
      .def_static("create", [](const std::vector<uintptr_t>& handles) {
        auto set = std::make_shared<StreamOrderedPools>();
        for (uintptr_t h : handles) set->pools.push_back(pool_handle(h));
        return set;
      })
      .def("handle", [](const StreamOrderedPools& s, int device) { return reinterpret_cast<uintptr_t>(s.of(device)); })
      .def("malloc", [](const StreamOrderedPools& s, size_t nbytes) {
        const int device = current_device();
        return DeviceMemory{allocate_stream_ordered(nbytes, device, current_stream_handle(), s.of(device))};
      });
  m.def("alloc_stream_ordered", [](size_t nbytes, std::optional<uintptr_t> stream, uintptr_t pool) {
    return DeviceMemory{allocate_stream_ordered(nbytes, current_device(), stream_or_current(stream), pool_handle(pool))};
  }, nb::arg("nbytes"), nb::arg("stream").none() = nb::none(), nb::arg("pool") = 0);
  m.def("free_on_stream", [](const DeviceMemory& memory, uintptr_t stream) {
    free_on_stream(memory.buffer, reinterpret_cast<StreamHandle>(stream));
  });
  m.def("default_mem_pool", [](int device) { return reinterpret_cast<uintptr_t>(default_mem_pool(device)); });
  m.def("current_mem_pool", [](int device) { return reinterpret_cast<uintptr_t>(current_mem_pool(device)); });
  m.def("set_current_mem_pool", [](int device, uintptr_t pool) { set_current_mem_pool(device, pool_handle(pool)); });
  m.def("trim_mem_pool", [](uintptr_t pool, size_t keep) { trim_mem_pool(pool_handle(pool), keep); });
  m.def("mem_pool_attribute", [](uintptr_t pool, int attr) { return mem_pool_attribute(pool_handle(pool), attr); });
  m.def("set_mem_pool_attribute", [](uintptr_t pool, int attr, uint64_t value) {
    set_mem_pool_attribute(pool_handle(pool), attr, value);
  });

  // set_allocator (globally) and using_allocator (for this thread): None removes the allocator set
  // (the default pools; for a thread, the global allocator); "raw" is the driver's memory per
  // allocation (CuPy's set_allocator(None)); a PoolSet or StreamOrderedPools allocates from it with
  // no Python per call; anything else is a Python callable size -> MemoryPointer.
  m.def("set_device_allocator", [](nb::handle allocator, bool this_thread) {
    auto install = this_thread ? &set_thread_device_allocator : &set_device_allocator;
    if (allocator.is_none()) return install(nullptr);
    if (nb::isinstance<nb::str>(allocator))
      return install([](size_t nbytes, int device, StreamHandle) { return allocate_raw(nbytes, device); });
    if (nb::isinstance<PoolSet>(allocator)) {
      std::shared_ptr<PoolSet> set = nb::cast<std::shared_ptr<PoolSet>>(allocator);
      if (set->is_default) return install(this_thread ? DeviceAllocator(&allocate_from_default_pool) : nullptr);
      return install([set](size_t nbytes, int device, StreamHandle stream) {
        return set->of(device).allocate(nbytes, stream);
      });
    }
    if (nb::isinstance<StreamOrderedPools>(allocator)) {
      auto set = nb::cast<std::shared_ptr<StreamOrderedPools>>(allocator);
      return install([set](size_t nbytes, int device, StreamHandle stream) {
        return allocate_stream_ordered(nbytes, device, stream, set->of(device));
      });
    }
    std::shared_ptr<void> fn = python_reference(allocator);
    install([fn](size_t nbytes, int device, StreamHandle) {
      nb::gil_scoped_acquire gil;
      nb::object pointer = nb::handle(static_cast<PyObject*>(fn.get()))(nbytes);
      return buffer_of_pointer(pointer, nbytes, device);
    });
  }, nb::arg("allocator").none(), nb::arg("this_thread") = false);

  nb::class_<PinnedBlock>(m, "PinnedBlock", "Page-locked host memory held from Python.")
      .def_prop_ro("ptr", [](const PinnedBlock& b) { return reinterpret_cast<uintptr_t>(b.block.get()); })
      .def_prop_ro("size", [](const PinnedBlock& b) { return b.size; });
  nb::class_<PinnedSpan>(m, "PinnedSpan", nb::type_slots(pinned_span_slots))
      .def(nb::init<uintptr_t, size_t>(), nb::arg("ptr"), nb::arg("size"))
      .def_ro("ptr", &PinnedSpan::ptr)
      .def("size", [](const PinnedSpan& s) { return s.size; });
  m.def("alloc_pinned", [](size_t nbytes) { return PinnedBlock{allocate_pinned(nbytes), nbytes}; });
  m.def("alloc_pinned_pooled", [](size_t nbytes) {
    return PinnedBlock{PinnedMemoryPool::instance().allocate(std::max<size_t>(nbytes, 1)), nbytes};
  });
  m.def("alloc_pinned_raw", [](size_t nbytes) { return PinnedBlock{allocate_pinned_raw(nbytes), nbytes}; });
  // set_pinned_memory_allocator: None restores the pinned pool, "raw" takes the driver's memory per
  // allocation, a callable size -> PinnedMemoryPointer is called (with the GIL) for every block.
  m.def("set_pinned_allocator", [](nb::handle allocator) {
    if (allocator.is_none()) return set_pinned_allocator(nullptr);
    if (nb::isinstance<nb::str>(allocator)) return set_pinned_allocator(&allocate_pinned_raw);
    std::shared_ptr<void> fn = python_reference(allocator);
    set_pinned_allocator([fn](size_t nbytes) -> std::shared_ptr<void> {
      nb::gil_scoped_acquire gil;
      nb::object pointer = nb::handle(static_cast<PyObject*>(fn.get()))(nbytes);
      void* ptr = reinterpret_cast<void*>(address(pointer.attr("ptr")));
      return std::shared_ptr<void>(python_reference(pointer), ptr);  // the pointer object keeps it alive
    });
  }, nb::arg("allocator").none());

  // Raw copies and fills on `stream` (None: the current stream).
  // `stream` (None: the current stream) belongs to `stream_device` (None: the current device).
  m.def("memcpy_dtod", [](uintptr_t dst, int dst_device, uintptr_t src, int src_device, size_t n,
                          std::optional<uintptr_t> stream, std::optional<int> stream_device) {
    const StreamHandle s = stream_or_current(stream);
    if (dst_device == src_device) copy_device_to_device(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n, s);
    else copy_peer(reinterpret_cast<void*>(dst), dst_device, reinterpret_cast<const void*>(src), src_device, n, s,
                   stream_device.value_or(current_device()));
  }, nb::arg("dst"), nb::arg("dst_device"), nb::arg("src"), nb::arg("src_device"), nb::arg("n"),
     nb::arg("stream").none() = nb::none(), nb::arg("stream_device").none() = nb::none());
  m.def("memcpy_htod", [](uintptr_t dst, uintptr_t src, size_t n, std::optional<uintptr_t> stream) {
    const StreamHandle s = stream_or_current(stream);
    copy_host_to_device(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n, s);
  });
  m.def("memcpy_dtoh", [](uintptr_t dst, uintptr_t src, size_t n, std::optional<uintptr_t> stream) {
    const StreamHandle s = stream_or_current(stream);
    copy_device_to_host(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n, s);
  });
  m.def("memset_device", [](uintptr_t dst, int value, size_t n, std::optional<uintptr_t> stream) {
    const StreamHandle s = stream_or_current(stream);
    memset_device(reinterpret_cast<void*>(dst), static_cast<uint8_t>(value), n, s);
  });
}

}  // namespace cuarray::py
