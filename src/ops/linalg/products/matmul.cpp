// numpy.matmul: NumPy's gufunc rules ((n?,k),(k,m?)->(n?,m?): 1-D promotion, core-dim checks,
// batch broadcasting, dtype=/casting=/out=) around one planned GEMM (gemm_plan.hpp).
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/products.hpp"
#include "ops/linalg/products/gemm.hpp"

namespace cuarray {
namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

std::string shape_text(const Shape& s, int newaxes = 0) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) t += ',';
    t += std::to_string(s[i]);
  }
  for (int i = 0; i < newaxes; ++i) {
    if (!s.empty() || i) t += ',';
    t += "newaxis";
  }
  return t + ")";
}

Shape batch_of(const NDArray& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }

// NumPy's message for batch dims that do not broadcast, which shows the core dims as newaxis.
[[noreturn]] void throw_batch_mismatch(const NDArray& a, const NDArray& b, int64_t m, int64_t n) {
  throw_error(ErrorKind::Value, "operands could not be broadcast together with remapped shapes [original->remapped]: " +
                                    shape_text(a.shape()) + "->" + shape_text(batch_of(a), 2) + " " +
                                    shape_text(b.shape()) + "->" + shape_text(batch_of(b), 2) +
                                    "  and requested shape " + shape_text(Shape{m, n}));
}

[[noreturn]] void throw_core_mismatch(const char* operand, int dim, int64_t size, int64_t expected) {
  throw_error(ErrorKind::Value, std::string("matmul: ") + operand + " has a mismatch in its core dimension " +
                                    std::to_string(dim) + ", with gufunc signature " + kSignature + " (size " +
                                    std::to_string(size) + " is different from " + std::to_string(expected) + ")");
}

void check_cast(DType from, DType to, Casting casting, const std::string& what) {
  if (!can_cast(from, to, casting))
    throw_error(ErrorKind::Type, "Cannot cast ufunc 'matmul' " + what + " from " + dtype_repr(from) + " to " +
                                     dtype_repr(to) + " with casting rule '" + std::string(casting_name(casting)) + "'");
}

// The operand's batch dims as element strides over the common batch shape (0 where broadcast),
// and its matrix strides. nullopt when a byte stride is no whole number of elements.
std::optional<ops::MatrixOperand> matrix_operand(const NDArray& x, const Shape& batch) {
  const int64_t item = x.itemsize();
  for (int64_t s : x.strides())
    if (s % item != 0) return std::nullopt;
  const int nd = x.ndim();
  Shape own = batch_of(x);
  Strides own_strides(x.strides().begin(), x.strides().end() - 2);
  ops::MatrixOperand m;
  m.batch_strides = broadcast_strides(own, own_strides, batch);
  for (int64_t& s : m.batch_strides) s /= item;
  m.row_stride = x.strides()[nd - 2] / item;
  m.col_stride = x.strides()[nd - 1] / item;
  return m;
}

// C (C-contiguous, (batch..., m, n)) = A @ B with k >= 1, copying an operand only when the plan
// finds no layout for it.
void gemm_into(NDArray a, NDArray b, const NDArray& c, const Shape& batch) {
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1], n = b.shape()[b.ndim() - 1];
  std::optional<ops::MatrixOperand> ma = matrix_operand(a, batch), mb = matrix_operand(b, batch);
  if (!ma) ma = matrix_operand(a = a.copy(Order::C), batch);
  if (!mb) mb = matrix_operand(b = b.copy(Order::C), batch);
  ops::GemmPlan plan = ops::plan_gemm(m, k, n, batch, *ma, *mb);
  if (plan.copy_a || plan.copy_b) {
    if (plan.copy_a) ma = matrix_operand(a = a.copy(Order::C), batch);
    if (plan.copy_b) mb = matrix_operand(b = b.copy(Order::C), batch);
    plan = ops::plan_gemm(m, k, n, batch, *ma, *mb);
  }
  const DTypeKind kind = cuarray::kind(c.dtype());
  if (kind == DTypeKind::Float || kind == DTypeKind::Complex) {
    ops::cublas_gemm(plan, c.dtype(), a.raw_data(), b.raw_data(), c.raw_data());
    return;
  }
  if (c.itemsize() == 1 && ops::imma_fits(plan, a.raw_data(), b.raw_data())) {
    // int32 sums on tensor cores, then NumPy's cast (wraps to the byte; nonzero is true for bool).
    NDArray sums = empty(c.shape(), DType::Int32);
    if (ops::cublas_int8_gemm(plan, a.raw_data(), b.raw_data(), sums.raw_data())) {
      NDArray target = c;
      target.assign(sums);
      return;
    }
  }
  // Wider integers: their int8 digits on tensor cores, where that applies.
  if (c.itemsize() > 1 && ops::digit_gemm(a, *ma, b, *mb, c, batch)) return;
  ops::integer_gemm(plan, c.dtype(), a.raw_data(), b.raw_data(), c.raw_data());
}

}  // namespace

NDArray matmul(const NDArray& a_in, const NDArray& b_in, const MatmulOptions& options) {
  for (int i = 0; i < 2; ++i) {
    const NDArray& x = i == 0 ? a_in : b_in;
    if (x.ndim() == 0)
      throw_error(ErrorKind::Value, "matmul: Input operand " + std::to_string(i) +
                                        " does not have enough dimensions (has 0, gufunc core with signature " +
                                        kSignature + " requires 1)");
  }
  // cuBLAS and the kernels run on the current device, as ufuncs do: operands must live there.
  const int device = current_device();
  check_device(a_in, device);
  check_device(b_in, device);
  // A 1-D a is a row and a 1-D b a column; their dims leave the result again.
  const bool a_vector = a_in.ndim() == 1, b_vector = b_in.ndim() == 1;
  const int64_t row_axis = 0, column_axis = 1;
  const NDArray a = a_vector ? a_in.expand_dims(std::span<const int64_t>(&row_axis, 1)) : a_in;
  const NDArray b = b_vector ? b_in.expand_dims(std::span<const int64_t>(&column_axis, 1)) : b_in;
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1];
  const int64_t n = b.shape()[b.ndim() - 1];
  if (b.shape()[b.ndim() - 2] != k) throw_core_mismatch("Input operand 1", 0, b.shape()[b.ndim() - 2], k);

  Shape batch;
  {
    const Shape ba = batch_of(a), bb = batch_of(b);
    const Shape* both[] = {&ba, &bb};
    try {
      batch = broadcast_shapes(both);
    } catch (const Error&) {
      throw_batch_mismatch(a, b, m, n);
    }
  }
  Shape result_shape = batch;
  if (!a_vector) result_shape.push_back(m);
  if (!b_vector) result_shape.push_back(n);

  const DType type = options.dtype.value_or(promote_types(a.dtype(), b.dtype()));
  check_cast(a.dtype(), type, options.casting, "input 0");
  check_cast(b.dtype(), type, options.casting, "input 1");
  const NDArray* out = options.out;
  if (out) {
    check_device(*out, device, "output array");
    if (out->shape() != result_shape) {
      const int core = static_cast<int>(!a_vector) + static_cast<int>(!b_vector);
      if (out->ndim() >= core && Shape(out->shape().begin(), out->shape().end() - core) == batch) {
        const int bad = out->shape()[out->ndim() - core] != result_shape[result_shape.size() - core] ? 0 : 1;
        throw_core_mismatch("Output operand 0", bad, out->shape()[out->ndim() - core + bad],
                            result_shape[result_shape.size() - core + bad]);
      }
      throw_error(ErrorKind::Value, "non-broadcastable output operand with shape " + shape_text(out->shape()) +
                                        " doesn't match the broadcast shape " + shape_text(result_shape));
    }
    check_cast(type, out->dtype(), options.casting, "output");
  }

  // The product goes straight into `out` when that is a C-ordered array of the loop's type that the
  // inputs do not overlap; otherwise into a new array, then cast into `out`.
  Shape full_shape = batch;
  full_shape.push_back(m);
  full_shape.push_back(n);
  const bool direct = out && out->dtype() == type && out->c_contiguous() && !overlaps(*out, a_in) && !overlaps(*out, b_in);
  NDArray c = direct ? out->reshape(full_shape) : empty(full_shape, type);
  if (c.size() > 0) {
    if (k == 0) {
      c.fill(Scalar::from_int(0));  // NumPy's empty sum
    } else {
      gemm_into(a.astype(type, false), b.astype(type, false), c, batch);
    }
  }
  if (direct) return *out;
  NDArray result = c.reshape(result_shape);
  if (!out) return result;
  NDArray target = *out;
  target.assign(result);
  return target;
}

}  // namespace cuarray
