#include "convert.hpp"

#include <array>
#include <utility>
#include <vector>

#include "cuarray/errors.hpp"

namespace cuarray::py {

nb::handle numpy() {
  // Leaked on purpose: a static nb::object would be released after the interpreter has shut down.
  static nb::handle np = nb::module_::import_("numpy").release();
  return np;
}

namespace {

// numpy.dtype objects, and the type objects that name each dtype (np.float32, float, ...).
struct DTypeCache {
  std::array<nb::object, kNumDTypes> dtypes;
  std::vector<std::pair<PyObject*, DType>> aliases;  // identity lookup: cheap and exact
};

const DTypeCache& cache() {
  static DTypeCache* c = [] {
    auto* c = new DTypeCache();  // lives for the process
    nb::handle np = numpy();
    for (int i = 0; i < kNumDTypes; ++i) {
      DType t = static_cast<DType>(i);
      c->dtypes[i] = np.attr("dtype")(std::string(dtype_name(t)));
      c->aliases.emplace_back(c->dtypes[i].ptr(), t);
      c->aliases.emplace_back(c->dtypes[i].attr("type").ptr(), t);
    }
    c->aliases.emplace_back(reinterpret_cast<PyObject*>(&PyFloat_Type), DType::Float64);
    c->aliases.emplace_back(reinterpret_cast<PyObject*>(&PyLong_Type), DType::Int64);
    c->aliases.emplace_back(reinterpret_cast<PyObject*>(&PyBool_Type), DType::Bool);
    c->aliases.emplace_back(reinterpret_cast<PyObject*>(&PyComplex_Type), DType::Complex128);
    return c;
  }();
  return *c;
}

}  // namespace

std::optional<DType> dtype_from_py(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  for (const auto& [ptr, t] : cache().aliases)
    if (ptr == obj.ptr()) return t;
  nb::object d;
  try {
    d = numpy().attr("dtype")(obj);
  } catch (nb::python_error& e) {
    throw_error(ErrorKind::Type, "data type " + std::string(nb::str(nb::repr(obj)).c_str()) + " not understood");
  }
  std::string ch = nb::cast<std::string>(d.attr("char"));
  std::optional<DType> t = ch.size() == 1 ? dtype_from_char(ch[0]) : std::nullopt;
  if (!t || !nb::cast<bool>(d.attr("isnative")))
    throw_error(ErrorKind::Type, "cuarray does not support " + std::string(nb::str(nb::repr(d)).c_str()) +
                                     " (supported: bool, int8-64, uint8-64, float16/32/64, complex64/128)");
  return t;
}

DType dtype_from_py_required(nb::handle obj) {
  auto t = dtype_from_py(obj);
  if (!t) throw_error(ErrorKind::Type, "a dtype is required");
  return *t;
}

nb::object dtype_to_py(DType t) { return cache().dtypes[static_cast<int>(t)]; }

std::optional<Scalar> scalar_from_py(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return Scalar::from_bool(o == Py_True);
  if (PyLong_CheckExact(o) || (PyLong_Check(o) && !nb::isinstance(obj, numpy().attr("generic")))) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) return Scalar::from_int(v);
    unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      throw_error(ErrorKind::Overflow, "Python int too large to convert to C long");
    }
    return Scalar::from_uint(u);
  }
  if (PyFloat_CheckExact(o)) return Scalar::from_double(PyFloat_AS_DOUBLE(o));
  if (PyComplex_CheckExact(o)) return Scalar::from_complex({PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)});
  if (nb::isinstance(obj, numpy().attr("generic"))) {
    // A NumPy scalar is strong: it keeps its dtype in promotion.
    std::optional<DType> t = dtype_from_py(obj.attr("dtype"));
    std::optional<Scalar> s = scalar_from_py(obj.attr("item")());
    s->dtype = t;
    return s;
  }
  if (PyFloat_Check(o)) return Scalar::from_double(PyFloat_AsDouble(o));
  if (PyComplex_Check(o)) return Scalar::from_complex({PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)});
  return std::nullopt;
}

Scalar scalar_required(nb::handle obj, const char* what) {
  std::optional<Scalar> s = scalar_from_py(obj);
  if (!s) throw_error(ErrorKind::Type, std::string(what) + " must be a number");
  return *s;
}

nb::object scalar_to_py(DType t, const void* bytes) {
  Scalar s = Scalar::load(t, bytes);
  switch (s.kind) {
    case Scalar::Kind::Bool: return nb::bool_(s.b);
    case Scalar::Kind::Int:
      return nb::steal(s.int_is_unsigned ? PyLong_FromUnsignedLongLong(s.u) : PyLong_FromLongLong(s.i));
    case Scalar::Kind::Float: return nb::float_(s.f);
    case Scalar::Kind::Complex: return nb::steal(PyComplex_FromDoubles(s.f, s.imag));
  }
  return nb::none();
}

namespace {
int64_t index_from_py(nb::handle h) {
  PyObject* idx = PyNumber_Index(h.ptr());
  if (!idx) throw nb::python_error();
  long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}
}  // namespace

Shape shape_from_py(nb::handle obj) {
  Shape s;
  if (PyLong_Check(obj.ptr()) || nb::hasattr(obj, "__index__")) {
    s.push_back(index_from_py(obj));
    return s;
  }
  for (nb::handle item : obj) s.push_back(index_from_py(item));
  return s;
}

std::optional<SmallVector<int64_t, 6>> axes_from_py(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return shape_from_py(obj);
}

Order order_from_py(nb::handle obj, Order default_order) {
  if (obj.is_none()) return default_order;
  std::string s = nb::cast<std::string>(obj);
  if (s == "C" || s == "c") return Order::C;
  if (s == "F" || s == "f") return Order::F;
  if (s == "A" || s == "a") return Order::A;
  if (s == "K" || s == "k") return Order::K;
  throw_error(ErrorKind::Value, "order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
}

Casting casting_from_py(nb::handle obj) {
  std::string s = nb::cast<std::string>(obj);
  auto c = casting_from_name(s);
  if (!c) throw_error(ErrorKind::Value, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
  return *c;
}

Operand operand_from_py(nb::handle obj, const char* what) {
  if (is_array(obj)) return Operand::of(array_of(obj));
  if (auto s = scalar_from_py(obj)) return Operand::of(*s);
  throw_error(ErrorKind::Type, std::string("Unsupported type ") + nb::str(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr())))).c_str() +
                                   " for " + what + " (convert host data with cuarray.asarray)");
}

StreamHandle stream_or_current(std::optional<uintptr_t> stream) {
  return stream ? reinterpret_cast<StreamHandle>(*stream) : current_stream_handle();
}

}  // namespace cuarray::py
