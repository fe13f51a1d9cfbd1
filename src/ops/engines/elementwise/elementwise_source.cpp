#include "ops/engines/elementwise/elementwise_source.hpp"

#include <algorithm>
#include <vector>

#include "kernels/fragments.hpp"
#include "ops/engines/coalesce.hpp"
#include "jit/kernel_source.hpp"

namespace cuarray::ops {
namespace {

// Pointer operands are the array inputs, then the where mask, then the outputs.
struct Names {
  std::vector<int> input_ptr;  // pointer index of input k, or -1 for a scalar
  int where_ptr = -1;
  int first_output_ptr = 0;
  int nptr = 0;
};

Names assign_pointers(std::span<const std::optional<DType>> input_storage, int nout, bool has_where) {
  Names n;
  for (const auto& s : input_storage) n.input_ptr.push_back(s ? n.nptr++ : -1);
  if (has_where) n.where_ptr = n.nptr++;
  n.first_output_ptr = n.nptr;
  n.nptr += nout;
  return n;
}

std::string idx(int i) { return std::to_string(i); }

// The body that computes one element from pointers q[] (or vector lanes when `lane` is set).
// Built-in operations call cuarray_op; a user kernel's body is written inline, so that it sees
// the kernel's scope as CuPy's loop body does (loop_prep's variables, the raw arrays, `n`).
std::string element_code(const ElementwiseSpec& spec, const Names& n, const char* lane,
                         const std::string& lane_count = "") {
  std::string s;
  for (int k = 0; k < spec.nout; ++k) {
    s += "out" + idx(k) + "_t out" + idx(k);
    // A user kernel's given outputs are references to their elements: the body may read them.
    const std::string p = idx(n.first_output_ptr + k);
    const bool read = (spec.read_outputs >> k) & 1u;
    if (read && lane) s += " = cuarray_cast<out" + idx(k) + "_t>(r" + p + ".v[" + lane + "])";
    else if (read) s += " = cuarray_cast<out" + idx(k) + "_t>(*reinterpret_cast<const s" + p + "_t*>(q[" + p + "]))";
    s += ";\n";
  }
  auto input = [&](int k) {
    const int p = n.input_ptr[k];
    if (p < 0) return "sc" + idx(k);
    if (lane) return "cuarray_cast<in" + idx(k) + "_t>(a" + idx(p) + ".v[" + lane + "])";
    return "cuarray_cast<in" + idx(k) + "_t>(*reinterpret_cast<const s" + idx(p) + "_t*>(q[" + idx(p) + "]))";
  };
  const std::string index = lane ? "v * " + lane_count + " + j" : "i";
  if (spec.user) {
    s += "{\n";
    if (lane) s += "const index_t i = " + index + ";\n";
    for (int k = 0; k < spec.nin; ++k) s += "const in" + idx(k) + "_t in" + idx(k) + " = " + input(k) + ";\n";
    s += std::string(spec.expr) + "\n}\n";
  } else {
    s += "cuarray_op(" + index + ", ";
    for (int k = 0; k < spec.nin; ++k) s += input(k) + ", ";
    for (int k = 0; k < spec.nout; ++k) s += (k ? ", out" : "out") + idx(k);
    s += ");\n";
  }
  for (int k = 0; k < spec.nout; ++k) {
    std::string p = idx(n.first_output_ptr + k);
    std::string value = "cuarray_cast<s" + p + "_t>(out" + idx(k) + ")";
    if (lane) s += "r" + p + ".v[" + lane + "] = " + value + ";\n";
    else s += "*reinterpret_cast<s" + p + "_t*>(q[" + p + "]) = " + value + ";\n";
  }
  return s;
}

std::string scalar_loop(const ElementwiseSpec& spec, const Names& n, const std::string& start,
                        const std::string& pointer_setup) {
  std::string s = "for (index_t i = " + start + "; i < n; i += cuarray::grid_threads()) {\n";
  s += "char* q[" + idx(std::max(n.nptr, 1)) + "];\n" + pointer_setup;
  if (n.where_ptr >= 0) s += "if (!*reinterpret_cast<const bool*>(q[" + idx(n.where_ptr) + "])) continue;\n";
  return s + element_code(spec, n, nullptr) + "}\n";
}

}  // namespace

std::string elementwise_source(const ElementwiseSpec& spec, std::span<const std::optional<DType>> input_storage,
                               std::span<const DType> output_storage, const ElementwiseLayout& layout,
                               std::span<const RawArrayType> raw) {
  const Names n = assign_pointers(input_storage, spec.nout, layout.has_where);
  const int nraw = static_cast<int>(raw.size());
  std::string s;
  s.reserve(16384);
  std::vector<DType> used(spec.fragment_dtypes.begin(), spec.fragment_dtypes.end());
  for (const RawArrayType& r : raw) used.push_back(r.dtype);
  for (int k = 0; k < spec.nin + spec.nout; ++k) used.push_back(spec.loop[k]);
  for (const auto& t : input_storage)
    if (t) used.push_back(*t);
  for (DType t : output_storage) used.push_back(t);
  jit::append_common_fragments(s, used);
  s += kernels::elementwise_cuh;
  s += spec.preamble;
  s += "\n";
  s += jit::index_typedefs(layout.index64);
  for (int k = 0; k < spec.nin + spec.nout; ++k) {
    std::string name = k < spec.nin ? "in" + idx(k) : "out" + idx(k - spec.nin);
    s += "typedef " + std::string(jit::kernel_type_name(spec.loop[k])) + " " + name + "_t;\n";
  }
  for (int k = 0; k < spec.nin; ++k)
    if (n.input_ptr[k] >= 0)
      s += "typedef " + std::string(jit::kernel_type_name(*input_storage[k])) + " s" + idx(n.input_ptr[k]) + "_t;\n";
  if (n.where_ptr >= 0) s += "typedef bool s" + idx(n.where_ptr) + "_t;\n";
  for (int k = 0; k < spec.nout; ++k)
    s += "typedef " + std::string(jit::kernel_type_name(output_storage[k])) + " s" + idx(n.first_output_ptr + k) + "_t;\n";

  std::vector<std::string> raw_types;
  for (const RawArrayType& r : raw)
    raw_types.push_back("cuarray::CArray<" + std::string(jit::kernel_type_name(r.dtype)) + ", " + idx(r.ndim) + ">");

  if (!spec.user) {
    s += "__device__ __forceinline__ void cuarray_op(const index_t i, ";
    for (int k = 0; k < spec.nin; ++k) s += "const in" + idx(k) + "_t in" + idx(k) + ", ";
    for (int k = 0; k < spec.nout; ++k) s += (k ? ", out" : "out") + idx(k) + "_t& out" + idx(k);
    s += ") {\n" + std::string(spec.expr) + "\n}\n";
  }

  s += "extern \"C\" __global__ void " + std::string(kElementwiseKernelName) + "(cuarray::Ptrs<" + idx(n.nptr) +
       "> p, index_t n";
  if (!layout.contiguous)
    s += ", cuarray::Array<index_t, " + idx(layout.rank) + "> shape, cuarray::Array<offset_t, " +
         idx(n.nptr * layout.rank) + "> strides";
  for (int k = 0; k < spec.nin; ++k)
    if (n.input_ptr[k] < 0) s += ", const in" + idx(k) + "_t sc" + idx(k);
  for (int k = 0; k < nraw; ++k) s += ", const " + raw_types[k] + " raw" + idx(k);
  s += ") {\n";
  s += spec.loop_prep;
  s += "\n";
  const std::string close = std::string(spec.after_loop) + "\n}\n";

  if (!layout.contiguous) {
    std::string setup = "cuarray::strided_pointers<index_t, offset_t, " + idx(n.nptr) + ", " + idx(layout.rank) +
                        ">(i, p, shape, strides, q);\n";
    s += scalar_loop(spec, n, "cuarray::global_thread()", setup);
    return s + close;
  }
  std::string linear_setup;
  for (int p = 0; p < n.nptr; ++p)
    linear_setup += "q[" + idx(p) + "] = p.p[" + idx(p) + "] + i * sizeof(s" + idx(p) + "_t);\n";
  if (layout.vec == 1) {
    s += scalar_loop(spec, n, "cuarray::global_thread()", linear_setup);
    return s + close;
  }
  const std::string V = idx(layout.vec);
  s += "const index_t nvec = n / " + V + ";\n";
  s += "for (index_t v = cuarray::global_thread(); v < nvec; v += cuarray::grid_threads()) {\n";
  for (int p = 0; p < n.nptr; ++p) {
    std::string vt = "cuarray::Vec<s" + idx(p) + "_t, " + V + ">";
    bool is_output = p >= n.first_output_ptr;
    // With a where mask, untouched lanes must keep their old value, and a user kernel's body may
    // read the outputs it was given: load those outputs first.
    if (!is_output || layout.has_where || ((spec.read_outputs >> (p - n.first_output_ptr)) & 1u))
      s += (is_output ? "" : "const ") + vt + " " + (is_output ? "r" : "a") + idx(p) + " = reinterpret_cast<const " +
           vt + "*>(p.p[" + idx(p) + "])[v];\n";
    else s += vt + " r" + idx(p) + ";\n";
  }
  s += "#pragma unroll\nfor (int j = 0; j < " + V + "; ++j) {\n";
  if (n.where_ptr >= 0) s += "if (!a" + idx(n.where_ptr) + ".v[j]) continue;\n";
  s += element_code(spec, n, "j", V) + "}\n";
  for (int k = 0; k < spec.nout; ++k) {
    std::string p = idx(n.first_output_ptr + k);
    s += "reinterpret_cast<cuarray::Vec<s" + p + "_t, " + V + ">*>(p.p[" + p + "])[v] = r" + p + ";\n";
  }
  s += "}\n";
  s += scalar_loop(spec, n, "nvec * " + V + " + cuarray::global_thread()", linear_setup);
  return s + close;
}

}  // namespace cuarray::ops
