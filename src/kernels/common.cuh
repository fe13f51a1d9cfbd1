// Type traits and constants shared by the kernel fragments. NVRTC compiles with no include paths,
// so there is no <type_traits>; this is the small subset the fragments need. float16 and complex
// are only declared here: a kernel includes float16.cuh / complex.cuh only if it uses them.
namespace cuarray {

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;

template <class A, class B> constexpr bool is_same_v = false;
template <class A> constexpr bool is_same_v<A, A> = true;

// The NumPy kind of a storage type: what decides the semantics of a ufunc loop.
enum class Kind { Other, Bool, Signed, Unsigned, Float, Complex };
template <class T> struct kind_of { static constexpr Kind value = Kind::Other; };
#define CUARRAY_KIND(T, K) \
  template <> struct kind_of<T> { static constexpr Kind value = Kind::K; };
CUARRAY_KIND(bool, Bool)
CUARRAY_KIND(signed char, Signed)
CUARRAY_KIND(short, Signed)
CUARRAY_KIND(int, Signed)
CUARRAY_KIND(long long, Signed)
CUARRAY_KIND(unsigned char, Unsigned)
CUARRAY_KIND(unsigned short, Unsigned)
CUARRAY_KIND(unsigned int, Unsigned)
CUARRAY_KIND(unsigned long long, Unsigned)
CUARRAY_KIND(float, Float)
CUARRAY_KIND(double, Float)
#undef CUARRAY_KIND
struct float16;
template <> struct kind_of<float16> { static constexpr Kind value = Kind::Float; };
template <class T> struct complex;
template <class T> struct kind_of<complex<T>> { static constexpr Kind value = Kind::Complex; };

template <class T> constexpr Kind kind_v = kind_of<T>::value;
template <class T> constexpr bool is_bool_v = kind_v<T> == Kind::Bool;
template <class T> constexpr bool is_signed_int_v = kind_v<T> == Kind::Signed;
template <class T> constexpr bool is_integer_v = is_signed_int_v<T> || kind_v<T> == Kind::Unsigned;
template <class T> constexpr bool is_floating_v = kind_v<T> == Kind::Float;
template <class T> constexpr bool is_complex_v = kind_v<T> == Kind::Complex;
template <class T> constexpr bool is_real_v = is_bool_v<T> || is_integer_v<T> || is_floating_v<T>;

template <int Bytes> struct uint_of_size;
template <> struct uint_of_size<4> { using type = unsigned int; };
template <> struct uint_of_size<8> { using type = unsigned long long; };
// The unsigned type in which integer arithmetic that must wrap (power, shifts, lcm) runs: signed
// overflow is undefined, and below 32 bits operands would be promoted to (signed) int.
template <class T> using wrap_t = typename uint_of_size<(sizeof(T) < 4 ? 4 : sizeof(T))>::type;

// The type a value is computed in: NumPy computes float16 loops in float32 and rounds once.
template <class T> struct compute_of { using type = T; };
template <> struct compute_of<float16> { using type = float; };
template <class T> using compute_t = typename compute_of<T>::type;

// The component type of a complex type; real types are their own.
template <class T> struct real_of { using type = T; };
template <class T> struct real_of<complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;

// The built-in math functions, declared in namespace cuarray too: its overloads for float16 and
// complex would otherwise hide them from unqualified calls made inside the namespace.
using ::fabs, ::sqrt, ::cbrt, ::exp, ::exp2, ::expm1, ::log, ::log2, ::log10, ::log1p;
using ::sin, ::cos, ::tan, ::asin, ::acos, ::atan, ::sinh, ::cosh, ::tanh, ::asinh, ::acosh, ::atanh;
using ::floor, ::ceil, ::trunc, ::rint, ::atan2, ::hypot, ::pow, ::fmod, ::copysign, ::fmax, ::fmin, ::fma;
using ::isnan, ::isinf, ::isfinite, ::signbit, ::nextafter;

inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kHalfPi = 1.57079632679489661923132169163975144;
inline constexpr double kLn2 = 0.693147180559945309417232121458176568;
inline constexpr double kLog2e = 1.44269504088896340735992468100189214;
inline constexpr double kLog10e = 0.434294481903251827651128931685401577;

}  // namespace cuarray
