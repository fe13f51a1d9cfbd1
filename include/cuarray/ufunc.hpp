// Universal functions: NumPy's ufuncs (add, sin, ...) as objects with NumPy's type resolution.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// An input: an array, or a host scalar (weak when it came from a Python/C++ literal).
struct Operand {
  const NDArray* array = nullptr;
  Scalar scalar;
  static Operand of(const NDArray& a) { Operand o; o.array = &a; return o; }
  static Operand of(const Scalar& s) { Operand o; o.scalar = s; return o; }
  bool is_scalar() const { return array == nullptr; }
};

// What resolve_dtypes knows of an input: a dtype, or a weak Python scalar kind.
struct OperandType {
  DType dtype;
  bool weak = false;
  Scalar::Kind weak_kind = Scalar::Kind::Int;
  static OperandType of(const Operand& o) {
    if (!o.is_scalar()) return {o.array->dtype()};
    return {o.scalar.default_dtype(), o.scalar.weak(), o.scalar.kind};
  }
};

struct UfuncOptions {
  std::optional<DType> dtype;            // dtype= (the loop's output type)
  Casting casting = Casting::SameKind;   // casting=
  const NDArray* where = nullptr;        // where=
  Order order = Order::K;                // order= for allocated outputs
};

inline constexpr int kMaxUfuncOutputs = 2;
struct UfuncResult {
  NDArray out[kMaxUfuncOutputs];
  int count = 0;
};

// Another name NumPy gives a ufunc: numpy.abs is numpy.absolute.
struct UfuncAlias {
  std::string_view alias, name;
};

class Ufunc {
 public:
  static const Ufunc* find(std::string_view name);   // NumPy's name or alias ("abs", "conj", "mod", ...)
  static std::span<const Ufunc> all();               // the table, in order (internal helpers start with '_')
  static std::span<const UfuncAlias> aliases();      // NumPy's aliases, each naming an entry of all()

  std::string_view name() const;
  std::string_view doc() const;
  int nin() const;
  int nout() const;
  std::vector<std::string> types() const;            // NumPy's .types, e.g. "ff->f"

  // np.ufunc.resolve_dtypes: the loop's dtypes (inputs then outputs) for these operand types.
  std::vector<DType> resolve_dtypes(std::span<const OperandType> inputs, std::optional<DType> out_dtype = std::nullopt,
                                    Casting casting = Casting::SameKind) const;

  // Calls the ufunc. `outs[k]`, when not null, is the out= array for output k.
  UfuncResult operator()(std::span<const Operand> inputs, std::span<NDArray* const> outs = {},
                         const UfuncOptions& options = {}) const;
  NDArray operator()(const NDArray& a) const;
  NDArray operator()(const NDArray& a, const NDArray& b) const;

  int index() const { return index_; }
  explicit Ufunc(int index) : index_(index) {}

 private:
  int index_;
};

// The common ufuncs as C++ functions, as in NumPy.
#define CUARRAY_BINARY(name) NDArray name(const NDArray& a, const NDArray& b);
#define CUARRAY_UNARY(name) NDArray name(const NDArray& a);
CUARRAY_BINARY(add) CUARRAY_BINARY(subtract) CUARRAY_BINARY(multiply) CUARRAY_BINARY(divide)
CUARRAY_BINARY(power) CUARRAY_BINARY(maximum) CUARRAY_BINARY(minimum)
CUARRAY_UNARY(negative) CUARRAY_UNARY(sqrt) CUARRAY_UNARY(exp) CUARRAY_UNARY(log) CUARRAY_UNARY(sin) CUARRAY_UNARY(cos)
#undef CUARRAY_BINARY
#undef CUARRAY_UNARY

// The ufunc with NumPy's name (or alias); throws ValueError for an unknown name.
const Ufunc& ufunc(std::string_view name);
// Calls a one-output ufunc on arrays and scalars: apply(ufunc("add"), {Operand::of(x), Operand::of(Scalar::from(5))}).
NDArray apply(const Ufunc& u, std::initializer_list<Operand> inputs);

// Operators follow NumPy: scalars are weak (x * 2.0 keeps float32).
#define CUARRAY_OPERATOR(op, name)                                                                      \
  inline NDArray operator op(const NDArray& a, const NDArray& b) { return name(a, b); }                 \
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>                                 \
  NDArray operator op(const NDArray& a, T b) {                                                          \
    static const Ufunc& u = ufunc(#name);                                                               \
    return apply(u, {Operand::of(a), Operand::of(Scalar::from(b))});                                    \
  }                                                                                                     \
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>                                 \
  NDArray operator op(T a, const NDArray& b) {                                                          \
    static const Ufunc& u = ufunc(#name);                                                               \
    return apply(u, {Operand::of(Scalar::from(a)), Operand::of(b)});                                    \
  }
CUARRAY_OPERATOR(+, add)
CUARRAY_OPERATOR(-, subtract)
CUARRAY_OPERATOR(*, multiply)
CUARRAY_OPERATOR(/, divide)
#undef CUARRAY_OPERATOR

}  // namespace cuarray
