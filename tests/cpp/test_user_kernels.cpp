// User ElementwiseKernels: CuPy's parameter lists, its placeholder rule, and NVRTC compiles of
// the sources the engine generates for them, for every dtype and layout (no GPU needed); then a
// run on the GPU against host-computed values.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/user_kernels.hpp"
#include "expect_compiles.hpp"
#include "expect_error.hpp"
#include "device_arrays.hpp"
#include "gpu_test.hpp"
#include "ops/engines/elementwise/elementwise_source.hpp"
#include "ops/engines/reduction/reduction.hpp"

using namespace cuarray;

namespace {

constexpr DType kAllDtypes[] = {DType::Bool,    DType::Int8,    DType::UInt8,   DType::Int16,     DType::UInt16,
                                DType::Int32,   DType::UInt32,  DType::Int64,   DType::UInt64,    DType::Float16,
                                DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

// The engine's source for one call of `k` binding `types`, as run_elementwise builds it.
std::string user_source(const ElementwiseKernel& k, const KernelParamTypes& types, const ops::ElementwiseLayout& layout,
                        bool first_input_scalar = false, bool read_outputs = true) {
  std::vector<DType> loop;
  std::vector<std::optional<DType>> in_storage;
  std::vector<DType> out_storage;
  std::vector<ops::RawArrayType> raw;
  for (size_t j = 0; j < k.in_params().size(); ++j) {
    if (k.in_params()[j].raw) {
      raw.push_back({types.in[j], 2});
      continue;
    }
    loop.push_back(types.in[j]);
    in_storage.push_back(first_input_scalar && in_storage.empty() ? std::nullopt : std::optional(types.in[j]));
  }
  for (size_t j = 0; j < k.out_params().size(); ++j) {
    if (k.out_params()[j].raw) {
      raw.push_back({types.out[j], 1});
      continue;
    }
    loop.push_back(types.out[j]);
    out_storage.push_back(types.out[j]);
  }
  const ElementwiseKernel::Preamble& pre = k.preamble(types);
  ops::ElementwiseSpec spec{k.op_id(types, read_outputs, 0), k.body(0), static_cast<int>(in_storage.size()),
                            static_cast<int>(out_storage.size()), loop.data(), pre.text};
  spec.user = true;
  spec.read_outputs = read_outputs ? (1u << out_storage.size()) - 1 : 0;
  spec.fragment_dtypes = pre.fragment_dtypes;
  spec.loop_prep = k.kernel_prep();
  spec.after_loop = k.after_loop();
  return ops::elementwise_source(spec, in_storage, out_storage, layout, raw);
}

}  // namespace

TEST(KernelParams, ParsesTypesNamesAndModifiers) {
  const auto p = parse_kernel_params(" float32 x, T y ,raw  U z, _non_const int64 w", true);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].name, "x");
  EXPECT_EQ(p[0].dtype, DType::Float32);
  EXPECT_FALSE(p[0].raw);
  EXPECT_EQ(p[1].placeholder, 'T');
  EXPECT_FALSE(p[1].dtype.has_value());
  EXPECT_TRUE(p[2].raw);
  EXPECT_EQ(p[2].placeholder, 'U');
  EXPECT_TRUE(p[2].is_const);
  EXPECT_FALSE(p[3].is_const);
  EXPECT_EQ(p[3].dtype, DType::Int64);
  EXPECT_TRUE(parse_kernel_params("  ", true).empty());
  EXPECT_FALSE(parse_kernel_params("T z", false)[0].is_const);
}

TEST(KernelParams, AcceptsNumpyDtypeSpellings) {
  const std::pair<const char*, DType> cases[] = {
      {"float", DType::Float64}, {"int", DType::Int64},     {"complex", DType::Complex128},
      {"f4", DType::Float32},    {"c8", DType::Complex64},  {"bool", DType::Bool},
      {"uint8", DType::UInt8},   {"float16", DType::Float16}, {"complex128", DType::Complex128}};
  for (const auto& [name, dtype] : cases)
    EXPECT_EQ(parse_kernel_params(std::string(name) + " x", true)[0].dtype, dtype) << name;
}

TEST(KernelParams, RejectsBadParameters) {
  test::expect_error(ErrorKind::Value, "Syntax error: x", [] { parse_kernel_params("float32 a, x", true); });
  test::expect_error(ErrorKind::Value, "Unknown keyword \"const\"", [] { parse_kernel_params("const T x", true); });
  test::expect_error(ErrorKind::Type, "data type 'floot32' not understood (parameter x)",
                     [] { parse_kernel_params("floot32 x", true); });
  test::expect_error(ErrorKind::Value, "Can not use 'i' as a parameter name", [] { parse_kernel_params("T i", true); });
  test::expect_error(ErrorKind::Value, "Invalid kernel name: \"my kernel\"",
                     [] { ElementwiseKernel("T x", "T y", "y = x", "my kernel"); });
  std::string many = "T x0";
  for (int k = 1; k < 17; ++k) many += ", T x" + std::to_string(k);
  test::expect_error(ErrorKind::Value, "ElementwiseKernel 'wide' has 18 parameters; at most 16 are supported",
                     [&] { ElementwiseKernel(many, "T y", "y = x0", "wide"); });
}

TEST(KernelParams, PlaceholdersBindOutputsFirstThenInputs) {
  const auto in = parse_kernel_params("T x, T y, float64 s, U u", true);
  const auto out = parse_kernel_params("T z", false);
  const std::optional<DType> in_dtypes[] = {DType::Float32, DType::Float32, std::nullopt, DType::Int8};
  const KernelParamTypes t = decide_param_types(in, out, in_dtypes, {});
  EXPECT_EQ(t.in, (std::vector<DType>{DType::Float32, DType::Float32, DType::Float64, DType::Int8}));
  EXPECT_EQ(t.out, std::vector<DType>{DType::Float32});
  ASSERT_EQ(t.placeholders.size(), 2u);
  EXPECT_EQ(t.placeholders[0], std::make_pair('T', DType::Float32));
  EXPECT_EQ(t.placeholders[1], std::make_pair('U', DType::Int8));

  // A given output binds T before the inputs do: the inputs must then match it.
  const DType out_dtypes[] = {DType::Float64};
  test::expect_error(ErrorKind::Type, "Type is mismatched. x float32 float64 T",
                     [&] { decide_param_types(in, out, in_dtypes, out_dtypes); });
}

TEST(KernelParams, MismatchesAndUnboundPlaceholdersAreTypeErrors) {
  const auto in = parse_kernel_params("T x, T y, int32 n", true);
  const auto out = parse_kernel_params("T z", false);
  const std::optional<DType> mixed[] = {DType::Float32, DType::Float64, std::nullopt};
  test::expect_error(ErrorKind::Type, "Type is mismatched. y float64 float32 T",
                     [&] { decide_param_types(in, out, mixed, {}); });
  const std::optional<DType> fixed_wrong[] = {DType::Float32, DType::Float32, DType::Int64};
  test::expect_error(ErrorKind::Type, "Type is mismatched. n int64 int32",
                     [&] { decide_param_types(in, out, fixed_wrong, {}); });
  const std::optional<DType> scalars[] = {std::nullopt, std::nullopt, std::nullopt};
  test::expect_error(ErrorKind::Type, "Cannot decide the type T of x: no array argument binds it (scalars take their parameter's type)",
                     [&] { decide_param_types(in, out, scalars, {}); });
}

TEST(KernelParams, DtypeCountsMustMatchTheParameters) {
  const auto in = parse_kernel_params("T x, T y, int32 n", true);
  const auto out = parse_kernel_params("T z, T w", false);
  const std::optional<DType> two[] = {DType::Float32, DType::Float32};
  test::expect_error(ErrorKind::Type, "the kernel has 3 input parameters, given 2 input dtypes",
                     [&] { decide_param_types(in, out, two, {}); });
  const std::optional<DType> four[] = {DType::Float32, DType::Float32, std::nullopt, DType::Float32};
  test::expect_error(ErrorKind::Type, "the kernel has 3 input parameters, given 4 input dtypes",
                     [&] { decide_param_types(in, out, four, {}); });
  const std::optional<DType> three[] = {DType::Float32, DType::Float32, std::nullopt};
  const DType one_out[] = {DType::Float32};
  test::expect_error(ErrorKind::Type,
                     "the kernel has 2 output parameters, given 1 output dtypes (none, or one per output)",
                     [&] { decide_param_types(in, out, three, one_out); });
  const DType both_out[] = {DType::Float32, DType::Float32};
  EXPECT_EQ(decide_param_types(in, out, three, both_out).out, (std::vector<DType>{DType::Float32, DType::Float32}));
}

TEST(KernelParams, NumberedSource) {
  EXPECT_EQ(numbered_source("a\nb"), "   1 | a\n   2 | b\n");
}

// The seed's kernel (arithmetic only for complex) and a raw/placeholder kernel, for every dtype, in the linear vectorized, the
// strided and the scalar-input layouts: each generated source compiles for sm_80 and sm_90.
TEST(UserKernelCompile, EveryDtypeAndLayoutCompiles) {
  const ElementwiseKernel seed("T x, T y", "T z", "if (x - T(2) > y) { z = x * y; } else { z = x + y; }", "my_kernel");
  const ElementwiseKernel arith("T x, T y", "T z", "z = x * y - x + T(2);", "arith");  // complex has no '>'
  const ElementwiseKernel raw("raw T x, T y", "T z, raw T w",
                              "z = x[_ind.size() - i - 1] + y; w[i] = z; z += y;", "reverse_add");
  for (DType t : kAllDtypes) {
    if (t == DType::Bool) continue;  // bool has no T(2) - y arithmetic of its own type
    const std::string what = std::string(dtype_name(t));
    const KernelParamTypes types{{t, t}, {t}, {{'T', t}}};
    const KernelParamTypes raw_types{{t, t}, {t, t}, {{'T', t}}};
    const ElementwiseKernel& k = is_complex(t) ? arith : seed;
    test::expect_compiles(user_source(k, types, {true, 2, 1, false, false}), k.name() + " linear " + what);
    test::expect_compiles(user_source(k, types, {true, 2, 1, false, false}, false, false),
                          k.name() + " linear, outputs allocated " + what);
    test::expect_compiles(user_source(k, types, {false, 1, 3, true, false}, true), k.name() + " strided " + what);
    test::expect_compiles(user_source(raw, raw_types, {true, 1, 1, false, false}), "raw linear " + what);
  }
}

// Every array raw (a size= launch): the engine iterates with no pointer operands at all.
TEST(UserKernelCompile, AllRawCompiles) {
  const ElementwiseKernel k("raw T x", "raw T y", "y[i] = x[x.size() - i - 1];", "all_raw");
  const KernelParamTypes types{{DType::Float64}, {DType::Float64}, {{'T', DType::Float64}}};
  test::expect_compiles(user_source(k, types, {true, 16, 1, false, false}), "all raw linear");
  test::expect_compiles(user_source(k, types, {true, 1, 1, true, false}), "all raw 64-bit");
  // No outputs at all: the body updates a raw input.
  const ElementwiseKernel no_out("T x, raw T acc", "", "atomicAdd(&acc[0], x);", "no_outputs");
  const KernelParamTypes f32{{DType::Float32, DType::Float32}, {}, {{'T', DType::Float32}}};
  test::expect_compiles(user_source(no_out, f32, {true, 4, 1, false, false}), "no outputs linear");
  test::expect_compiles(user_source(no_out, f32, {false, 1, 2, false, false}), "no outputs strided");
}

// loop_prep's variables are seen by the operation and by after_loop, in every layout.
TEST(UserKernelCompile, LoopPrepAndAfterLoopCompile) {
  const ElementwiseKernel k("T x, raw T r", "T y",
                            "y = x * scale + r[i]; count += 1;", "prep",
                            {true, "", {}, "const T scale = T(2); int count = 0;", "if (count < 0) r[0] = scale;"});
  const KernelParamTypes types{{DType::Float32, DType::Float32}, {DType::Float32}, {{'T', DType::Float32}}};
  test::expect_compiles(user_source(k, types, {true, 4, 1, false, false}), "loop_prep linear vec4");
  test::expect_compiles(user_source(k, types, {false, 1, 2, false, false}), "loop_prep strided");
}

// Names CuPy's kernels use: complex<T> with real()/imag(), float16, CArray and _ind, a preamble
// function, and parameters called like the engine's own operands (in0, out0).
TEST(UserKernelCompile, CupyNamesCompile) {
  const ElementwiseKernel k("T in0, raw T r", "T out0",
                            "complex<float> c(1.0f, 2.0f);\n"
                            "float16 h = half_of(float16(c.real() + c.imag()));\n"
                            "out0 = in0 + twice(in0) + r[0] + r.size() + T(float(h)) + T(_ind.get());",
                            "names",
                            {true,
                             "__device__ float16 half_of(float16 v) { return v; }\n"
                             "template <class U> __device__ U twice(U v) { return v + v; }",
                             {}, "", ""});
  const KernelParamTypes types{{DType::Float32, DType::Float32}, {DType::Float32}, {{'T', DType::Float32}}};
  test::expect_compiles(user_source(k, types, {true, 4, 1, false, false}), "CuPy names");
}

// The benchmark's Black-Scholes kernel (benchmarks/user_kernels.py): 5 inputs, 2 outputs, the
// math functions' float and double overloads.
TEST(UserKernelCompile, BlackScholesCompiles) {
  const ElementwiseKernel k("T s, T k, T t, T r, T v", "T call, T put",
                            "const T sqrt_t = sqrt(t);\n"
                            "const T d1 = (log(s / k) + (r + v * v / 2) * t) / (v * sqrt_t);\n"
                            "const T d2 = d1 - v * sqrt_t;\n"
                            "const T discount = exp(-r * t);\n"
                            "const T h = T(0.5), c = T(0.7071067811865476);\n"
                            "call = s * (h * erfc(-d1 * c)) - k * discount * (h * erfc(-d2 * c));\n"
                            "put = k * discount * (h * erfc(d2 * c)) - s * (h * erfc(d1 * c));",
                            "black_scholes");
  for (DType t : {DType::Float32, DType::Float64}) {
    const KernelParamTypes types{{t, t, t, t, t}, {t, t}, {{'T', t}}};
    test::expect_compiles(user_source(k, types, {true, 4, 1, false, false}, false, false),
                          "black_scholes " + std::string(dtype_name(t)));
  }
}

// A preamble that includes a CUDA header (cuda_fp16.h's half) compiles with the kernel's options,
// which then name the CUDA include directory; a kernel without #include gets no extra option.
TEST(UserKernelCompile, CudaHeaderIncludes) {
  const ElementwiseKernel k("float32 x", "float32 y", "y = __half2float(__float2half(x) * two());", "halves",
                            {true, "#include <cuda_fp16.h>\n__device__ half two() { return __float2half(2.0f); }",
                             {"-DUNUSED=1"}, "", ""});
  if (k.compile_options().size() == 1) GTEST_SKIP() << "no CUDA headers ($CUDA_PATH, /usr/local/cuda) here";
  ASSERT_EQ(k.compile_options().size(), 2u);
  EXPECT_EQ(k.compile_options()[0], "-DUNUSED=1");
  EXPECT_EQ(k.compile_options()[1].rfind("-I", 0), 0u);
  const KernelParamTypes types{{DType::Float32}, {DType::Float32}, {}};
  try {
    EXPECT_GT(jit::compile_to_cubin(user_source(k, types, {true, 4, 1, false, false}), "halves", "sm_90",
                                    k.compile_options())
                  .size(),
              0u);
  } catch (const CompileError& e) {
    ADD_FAILURE() << e.what();
  }
  EXPECT_EQ(ElementwiseKernel("T x", "T y", "y = x").compile_options().size(), 0u);
}

// A body NVRTC rejects is reported with NVRTC's log (tested in Python with the numbered source).
TEST(UserKernelCompile, BadBodyFailsToCompile) {
  const ElementwiseKernel k("T x", "T y", "y = x +;", "bad");
  const KernelParamTypes types{{DType::Float32}, {DType::Float32}, {{'T', DType::Float32}}};
  EXPECT_THROW(jit::compile_to_cubin(user_source(k, types, {true, 1, 1, false, false}), "bad", "sm_90"), CompileError);
}

namespace {

// The reduction engine's source for a ReductionKernel call binding `types`, one pass.
std::string user_reduction_source(const ReductionKernel& k, const KernelParamTypes& types, DType in, bool premapped,
                                  bool partial_input, bool partial_output) {
  const ReductionKernel::Parts& p = k.parts(types, premapped);
  ops::ReductionSpec spec{p.op_id, p.map, p.combine, p.identity, p.post, "_type_reduce"};
  spec.preamble = p.preamble;
  spec.fragment_dtypes = p.fragment_dtypes;
  const ops::ReducePlan plan{32, 8, 1, 64, false};
  return ops::reduction_source(spec, in, p.compute, types.out[0], partial_input, partial_output, 2, 1, plan);
}

}  // namespace

// CuPy's L2 norm for every real dtype (sum of squares for integers), in the first pass, the partial pass and the finishing
// pass; a reduce_type other than the output's; a kernel with no identity; and the
// _in_ind/_out_ind sizes in post_map_expr.
TEST(UserKernelCompile, ReductionKernelsCompile) {
  const ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", std::string("0"), "l2norm");
  // Integers have no sqrt overload of their own (as in CuPy): their sum of squares.
  const ReductionKernel sum_sq("T x", "T y", "x * x", "a + b", "y = a", std::string("0"), "sum_sq");
  for (DType t : kAllDtypes) {
    if (t == DType::Bool || is_complex(t)) continue;
    const ReductionKernel& k = is_inexact(t) ? l2 : sum_sq;
    const KernelParamTypes types{{t}, {t}, {{'T', t}}};
    const std::string what = k.name() + " " + std::string(dtype_name(t));
    test::expect_compiles(user_reduction_source(k, types, t, false, false, false), what);
    test::expect_compiles(user_reduction_source(k, types, t, false, false, true), what + " partial");
    test::expect_compiles(user_reduction_source(k, types, t, false, true, false), what + " finish");
  }
  const ReductionKernel abs_sum("T x", "float64 y", "abs(x)", "a + b", "y = a", std::string("0"), "abs_sum",
                                std::string("double"));
  for (DType t : {DType::Complex64, DType::Complex128, DType::Float16}) {
    const KernelParamTypes types{{t}, {DType::Float64}, {{'T', t}}};
    test::expect_compiles(user_reduction_source(abs_sum, types, t, false, false, false),
                          "abs_sum " + std::string(dtype_name(t)));
  }
  const ReductionKernel mean("T x", "T y", "x", "a + b", "y = a / (_in_ind.size() / _out_ind.size())",
                             std::string("0"), "mean");
  const ReductionKernel maximum("T x", "T y", "x", "max(a, b)", "y = a", std::nullopt, "maximum");
  const KernelParamTypes f32{{DType::Float32}, {DType::Float32}, {{'T', DType::Float32}}};
  test::expect_compiles(user_reduction_source(mean, f32, DType::Float32, false, false, false), "mean");
  test::expect_compiles(user_reduction_source(maximum, f32, DType::Float32, false, false, false), "maximum");
  // Several inputs: the engine reduces the premapped float64 values.
  const ReductionKernel dot("T x, T y", "T z", "x * y", "a + b", "z = a", std::string("0"), "dot");
  const KernelParamTypes f64_2{{DType::Float64, DType::Float64}, {DType::Float64}, {{'T', DType::Float64}}};
  test::expect_compiles(user_reduction_source(dot, f64_2, DType::Float64, true, false, false), "dot premapped");
}

// ElementwiseKernel::source and ReductionKernel::source / premap_source (what host tests of
// cuarray.fuse compile): a call's sources compile for every dtype, with the several-input map; a
// reduce_type given as a dtype name is typedef'd as its C type.
TEST(UserKernelCompile, SourcesOfACallCompile) {
  const ElementwiseKernel axpb("T x, T y, T z", "T w", "w = x * y + z", "axpb");
  const ReductionKernel dot("T x, T y", "T z", "x * y", "a + b", "z = a", std::string("0"), "dot");
  for (DType t : kAllDtypes) {
    const std::string what = std::string(dtype_name(t));
    test::expect_compiles(axpb.source({{t, t, t}, {t}, {{'T', t}}}, 4), "axpb source " + what);
    const KernelParamTypes two{{t, t}, {t}, {{'T', t}}};
    test::expect_compiles(dot.premap_source(two), "dot premap " + what);
    test::expect_compiles(dot.source(two, true), "dot premapped source " + what);
    test::expect_compiles(dot.source(two), "dot one-pass source " + what);
  }
  const ReductionKernel named("T x, T y", "T z", "x * y", "a + b", "z = a", std::string("0"), "named",
                              std::string("complex64"));
  const KernelParamTypes c64{{DType::Complex64, DType::Complex64}, {DType::Complex64}, {{'T', DType::Complex64}}};
  test::expect_compiles(named.premap_source(c64), "reduce_type complex64 premap");
  test::expect_compiles(named.source(c64, true), "reduce_type complex64 premapped");
  test::expect_compiles(named.source(c64), "reduce_type complex64 one pass");
}

// A `_non_const` input given as an array is a reference into an engine output after the real
// outputs (loaded and stored back); given as a scalar, a copy. Each variant has its own op id,
// and a kernel without `_non_const` inputs has one variant.
TEST(UserKernelSource, NonConstInputsBindByVariant) {
  const ElementwiseKernel k("T a, _non_const T x, raw T r", "T y", "y = x + a + r[i]; x = x * 2", "dbl");
  EXPECT_EQ(k.non_const_inputs(), 2u);
  const std::string& arrays = k.body(2);
  EXPECT_NE(arrays.find("out1_t& _cuarray_out1 = out1;"), std::string::npos) << arrays;
  EXPECT_NE(arrays.find("out1_t& x = _cuarray_out1;"), std::string::npos) << arrays;
  EXPECT_NE(arrays.find("out0_t& y = _cuarray_out0;"), std::string::npos) << arrays;
  EXPECT_NE(arrays.find("const in0_t& a = _cuarray_in0;"), std::string::npos) << arrays;
  EXPECT_NE(arrays.find("const auto& r = _cuarray_raw0;"), std::string::npos) << arrays;
  const std::string& scalar = k.body(0);
  EXPECT_NE(scalar.find("in1_t x = _cuarray_in1;"), std::string::npos) << scalar;
  EXPECT_EQ(scalar.find("out1"), std::string::npos) << scalar;
  EXPECT_EQ(&k.body(0), &scalar);  // made once, kept

  const KernelParamTypes f32{{DType::Float32, DType::Float32, DType::Float32}, {DType::Float32},
                             {{'T', DType::Float32}}};
  const uint64_t ids[] = {k.op_id(f32, false, 0), k.op_id(f32, false, 2), k.op_id(f32, true, 0), k.op_id(f32, true, 2)};
  for (size_t a = 0; a < 4; ++a)
    for (size_t b = a + 1; b < 4; ++b) EXPECT_NE(ids[a], ids[b]) << a << " " << b;

  // The written input's vector is loaded and stored back; the allocated output's is only stored.
  const std::string src = k.source(f32, 4);
  EXPECT_NE(src.find("cuarray::Vec<s2_t, 4> r2 = reinterpret_cast<const cuarray::Vec<s2_t, 4>*>(p.p[2])[v];"),
            std::string::npos) << src;
  EXPECT_NE(src.find("cuarray::Vec<s1_t, 4> r1;"), std::string::npos) << src;
  EXPECT_NE(src.find("reinterpret_cast<cuarray::Vec<s2_t, 4>*>(p.p[2])[v] = r2;"), std::string::npos) << src;
  // A scalar for x: x is the kernel's parameter sc1, and only y is stored.
  const std::string with_scalar = k.source(f32, 4, 2);
  EXPECT_NE(with_scalar.find("const in1_t sc1"), std::string::npos) << with_scalar;
  EXPECT_EQ(with_scalar.find("p.p[2]"), std::string::npos) << with_scalar;

  // No `_non_const` inputs (a _non_const raw one is raw, not written back by the engine): one body.
  const ElementwiseKernel plain("T x, _non_const raw T r", "T y", "y = x; r[i] = x", "plain");
  EXPECT_EQ(plain.non_const_inputs(), 0u);
  EXPECT_EQ(&plain.body(0), &plain.body(0));
  EXPECT_EQ(plain.body(0).find("_non_const"), std::string::npos);
}

// The variants' sources compile for every dtype: written arrays (linear and vectorized, with an
// output given or allocated), a scalar for the _non_const input, and a kernel with no outputs
// that only updates its inputs.
TEST(UserKernelCompile, NonConstVariantsCompile) {
  const ElementwiseKernel k("T a, _non_const T x", "T y", "y = x; x = x + a;", "add_into");
  const ElementwiseKernel no_out("_non_const T x, _non_const T w, T a", "", "x = a; w = w + a;", "update_two");
  for (DType t : kAllDtypes) {
    const std::string what = std::string(dtype_name(t));
    const KernelParamTypes types{{t, t}, {t}, {{'T', t}}};
    for (int vec : {1, 2, 4})
      test::expect_compiles(k.source(types, vec), "written x vec " + std::to_string(vec) + " " + what);
    test::expect_compiles(k.source(types, 1, 2), "scalar x " + what);
    test::expect_compiles(k.source(types, 1, 1), "scalar a " + what);
    const KernelParamTypes three{{t, t, t}, {}, {{'T', t}}};
    test::expect_compiles(no_out.source(three, 2), "no outputs, two written " + what);
    test::expect_compiles(no_out.source(three, 1, 4), "no outputs, scalar a " + what);
    test::expect_compiles(no_out.source(three, 1, 2), "no outputs, scalar w " + what);
  }
}

TEST(UserKernelParams, ReductionKernelChecksItsParameters) {
  test::expect_error(ErrorKind::NotImplemented, "ReductionKernel: exactly one output parameter is supported",
                     [] { ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", std::string("0")); });
  test::expect_error(ErrorKind::NotImplemented, "ReductionKernel: raw parameters are not supported (x)",
                     [] { ReductionKernel("raw T x", "T y", "x[0]", "a + b", "y = a", std::string("0")); });
  test::expect_error(ErrorKind::Value, "Invalid kernel name: \"a-b\"",
                     [] { ReductionKernel("T x", "T y", "x", "a + b", "y = a", std::string("0"), "a-b"); });
}

// On the GPU: the seed's kernel over broadcast arrays, a raw reversal with size=, and a
// ReductionKernel sum of squares along each axis, against values computed here.
TEST(UserKernelGpu, SeedKernelBroadcasts) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const ElementwiseKernel k("float32 x, float32 y", "float32 z",
                            "if (x - 2 > y) { z = x * y; } else { z = x + y; }", "my_kernel");
  const NDArray x = test::device_array<float>({0, 1, 2, 3, 4, 5}, Shape{2, 3});
  const NDArray y = test::device_array<float>({0, 1, 2});
  const Operand in[] = {Operand::of(x), Operand::of(y)};
  const std::vector<NDArray> z = k(in, {});
  ASSERT_EQ(z.size(), 1u);
  test::expect_array<float>(z[0], DType::Float32, Shape{2, 3}, {0, 2, 4, 0, 4, 10});
}

TEST(UserKernelGpu, RawReverseWithSize) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const ElementwiseKernel k("raw T x", "raw T y", "y[i] = x[_ind.size() - i - 1];", "reverse");
  std::vector<int64_t> values(1000);
  for (size_t j = 0; j < values.size(); ++j) values[j] = static_cast<int64_t>(j * j % 997);
  const NDArray x = test::device_array(values);
  const Operand in[] = {Operand::of(x)};
  const std::vector<NDArray> y = k(in, {}, static_cast<int64_t>(values.size()));
  std::vector<int64_t> expected(values.rbegin(), values.rend());
  test::expect_array<int64_t>(y[0], DType::Int64, Shape{1000}, expected);
}

TEST(UserKernelGpu, ReductionAlongEachAxis) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const ReductionKernel k("T x", "T y", "x * x", "a + b", "y = a", std::string("0"), "sum_sq");
  std::vector<int32_t> values(12 * 7);
  for (size_t j = 0; j < values.size(); ++j) values[j] = static_cast<int32_t>(j % 11) - 5;
  const NDArray x = test::device_array(values, Shape{12, 7});
  const Operand in[] = {Operand::of(x)};
  std::vector<int32_t> rows(12, 0), cols(7, 0);
  int32_t all = 0;
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 7; ++c) {
      const int32_t v = values[static_cast<size_t>(r * 7 + c)];
      rows[static_cast<size_t>(r)] += v * v;
      cols[static_cast<size_t>(c)] += v * v;
      all += v * v;
    }
  const int64_t axis1[] = {1}, axis0[] = {0};
  test::expect_array<int32_t>(k(in, nullptr, std::span<const int64_t>(axis1)), DType::Int32, Shape{12}, rows);
  test::expect_array<int32_t>(k(in, nullptr, std::span<const int64_t>(axis0)), DType::Int32, Shape{7}, cols);
  test::expect_array<int32_t>(k(in), DType::Int32, Shape{}, {all});
}

// `_non_const` on the GPU: an array input broadcast with another is doubled in place, and the
// output read its old values; a scalar given for it is a copy, and the call writes no input.
TEST(UserKernelGpu, NonConstInputIsWrittenBack) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const ElementwiseKernel k("_non_const T x, T b", "T y", "y = x + b; x = x * 2;", "double_in_place");
  const NDArray x = test::device_array<int32_t>({3, -1, 4, 1, -5, 9}, Shape{2, 3});
  const NDArray b = test::device_array<int32_t>({10, 20, 30});
  const Operand in[] = {Operand::of(x), Operand::of(b)};
  const std::vector<NDArray> y = k(in, {});
  test::expect_array<int32_t>(y[0], DType::Int32, Shape{2, 3}, {13, 19, 34, 11, 15, 39});
  test::expect_array<int32_t>(x, DType::Int32, Shape{2, 3}, {6, -2, 8, 2, -10, 18});

  const Operand with_scalar[] = {Operand::of(Scalar::from(int64_t{7})), Operand::of(b)};
  const std::vector<NDArray> z = k(with_scalar, {});
  test::expect_array<int32_t>(z[0], DType::Int32, Shape{3}, {17, 27, 37});
  test::expect_array<int32_t>(b, DType::Int32, Shape{3}, {10, 20, 30});
}
