// Building blocks of the generated reduction kernels (src/ops/engines/reduction/reduction.cpp writes the
// per-operation part). A block is TX x TY threads: x walks outputs, y walks the reduced elements.
namespace cuarray {

// Shuffles any trivially copyable value by 4-byte words.
template <class T>
__device__ __forceinline__ T cuarray_shfl_down(T v, int offset) {
  constexpr int kWords = (sizeof(T) + 3) / 4;
  union U {
    T value;
    unsigned int words[kWords];
    __device__ U() {}
  } in, out;
  in.value = v;
#pragma unroll
  for (int w = 0; w < kWords; ++w) out.words[w] = __shfl_down_sync(0xffffffffu, in.words[w], offset);
  return out.value;
}

// Combines the TY partial values of each x column; the result lands in threadIdx.y == 0.
template <class Acc, int TX, int TY, class Combine>
__device__ __forceinline__ Acc block_reduce_y(Acc acc, Acc* smem, Combine combine) {
  if (TY == 1) return acc;
  if (TX == 1) {
    // One output per block: warp shuffles for the last 32 lanes, shared memory between warps.
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc = combine(acc, cuarray_shfl_down(acc, o));
    if (TY <= 32) return acc;
    const int warp = threadIdx.y / 32, lane = threadIdx.y % 32;
    if (lane == 0) smem[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = lane < TY / 32 ? smem[lane] : smem[0];
      const int n = TY / 32;
      for (int o = 16; o > 0; o >>= 1) {
        Acc other = cuarray_shfl_down(acc, o);
        if (lane + o < n) acc = combine(acc, other);
      }
    }
    return acc;
  }
  smem[threadIdx.y * TX + threadIdx.x] = acc;
  __syncthreads();
#pragma unroll
  for (int s = TY / 2; s > 0; s >>= 1) {
    if (threadIdx.y < s) {
      acc = combine(acc, smem[(threadIdx.y + s) * TX + threadIdx.x]);
      smem[threadIdx.y * TX + threadIdx.x] = acc;
    }
    __syncthreads();
  }
  return acc;
}

}  // namespace cuarray


namespace cuarray {

// The identities of min and max: the largest and smallest value of a type (infinities for floats).
template <class T>
__device__ __forceinline__ T highest() {
  if constexpr (is_complex_v<T>) return T(highest<real_t<T>>(), highest<real_t<T>>());
  else if constexpr (is_floating_v<T>) return T(__int_as_float(0x7f800000));
  else if constexpr (is_bool_v<T>) return true;
  else if constexpr (is_signed_int_v<T>) return T((1ull << (8 * sizeof(T) - 1)) - 1);
  else return T(~T(0));
}
template <class T>
__device__ __forceinline__ T lowest() {
  if constexpr (is_complex_v<T>) return T(lowest<real_t<T>>(), lowest<real_t<T>>());
  else if constexpr (is_floating_v<T>) return T(__int_as_float(0xff800000));
  else if constexpr (is_bool_v<T>) return false;
  else if constexpr (is_signed_int_v<T>) return T(-highest<T>() - 1);
  else return T(0);
}

// argmin/argmax: a candidate value and its flat index. The better of two candidates is NumPy's:
// a NaN beats everything (the first NaN wins), otherwise the larger (max) / smaller (min) value,
// and ties go to the smaller index, so the result does not depend on the reduction's order.
template <class T>
struct ArgAcc {
  T value;
  long long index;
};
template <bool Max, class T>
__device__ __forceinline__ ArgAcc<T> arg_better(const ArgAcc<T>& a, const ArgAcc<T>& b) {
  const bool nan_a = cuarray_isnan(a.value), nan_b = cuarray_isnan(b.value);
  if (nan_a || nan_b) {
    if (nan_a && nan_b) return a.index <= b.index ? a : b;
    return nan_a ? a : b;
  }
  const bool a_wins = Max ? cuarray_less(b.value, a.value) : cuarray_less(a.value, b.value);
  const bool b_wins = Max ? cuarray_less(a.value, b.value) : cuarray_less(b.value, a.value);
  if (a_wins) return a;
  if (b_wins) return b;
  return a.index <= b.index ? a : b;
}
// One more element on a thread's chain, whose indices only grow: the element wins only when
// strictly better (a NaN over a non-NaN), or over the identity (index LLONG_MAX).
template <bool Max, class T>
__device__ __forceinline__ ArgAcc<T> arg_step(const ArgAcc<T>& a, const T& v, long long r) {
  const bool better =
      cuarray_isnan(v) ? !cuarray_isnan(a.value) : (Max ? cuarray_less(a.value, v) : cuarray_less(v, a.value));
  return better || a.index > r ? ArgAcc<T>{v, r} : a;
}
// nanargmin/nanargmax see NaN as the worst value (NumPy replaces it by +-inf, so a NaN position
// can win a tie with an infinity); all-NaN slices are rejected on the host.
template <bool Max, class T>
__device__ __forceinline__ T nan_as_worst(const T& v) {
  return cuarray_isnan(v) ? (Max ? lowest<T>() : highest<T>()) : v;
}

// |v|^2 in v's real type: the terms of a 2-norm (one fused pass, no |x|**2 temporary).
template <class T>
__device__ __forceinline__ real_t<T> abs_squared(const T& v) {
  if constexpr (is_complex_v<T>) return v.re * v.re + v.im * v.im;
  else return v * v;
}

// Count, mean and sum of squared deviations, merged pairwise (Chan et al.): var and std in one
// pass over the data, without the temporary x - mean array.
template <class T>
struct Welford {
  double n;
  T mean;
  real_t<T> m2;
};
template <class T>
__device__ __forceinline__ Welford<T> welford_of(const T& v, bool skip) {
  return skip ? Welford<T>{0.0, T(0), real_t<T>(0)} : Welford<T>{1.0, v, real_t<T>(0)};
}
template <class T>
__device__ __forceinline__ Welford<T> welford_merge(const Welford<T>& a, const Welford<T>& b) {
  if (b.n == 0) return a;
  if (a.n == 0) return b;
  using R = real_t<T>;
  const double n = a.n + b.n;
  const T delta = b.mean - a.mean;
  const R nb_over_n = R(b.n / n), weight = R(a.n * b.n / n);
  R delta2;
  if constexpr (is_complex_v<T>) delta2 = delta.re * delta.re + delta.im * delta.im;
  else delta2 = delta * delta;
  return Welford<T>{n, a.mean + delta * nb_over_n, a.m2 + b.m2 + delta2 * weight};
}

// One element into the moments (Welford's update): one division, where a merge takes two.
template <class T>
__device__ __forceinline__ Welford<T> welford_step(const Welford<T>& a, const T& v) {
  const double n = a.n + 1.0;
  const T delta = v - a.mean;
  const T mean = a.mean + delta / real_t<T>(n);
  const T after = v - mean;
  real_t<T> d2;
  if constexpr (is_complex_v<T>) d2 = delta.re * after.re + delta.im * after.im;
  else d2 = delta * after;
  return Welford<T>{n, mean, a.m2 + d2};
}

// Four elements into the moments at once: their own mean (a power-of-two count, so the scaling
// is exact) and squared deviations, merged by Chan's update with one reciprocal, where four
// Welford steps divide four times (the division bound var/std: 45 % of read bandwidth).
template <class T>
__device__ __forceinline__ Welford<T> welford_step4(const Welford<T>& a, const T& v0, const T& v1, const T& v2,
                                                    const T& v3) {
  using R = real_t<T>;
  const T mean4 = ((v0 + v1) + (v2 + v3)) * R(0.25);
  const R m2 = (abs_squared(v0 - mean4) + abs_squared(v1 - mean4)) + (abs_squared(v2 - mean4) + abs_squared(v3 - mean4));
  if (a.n == 0) return Welford<T>{4.0, mean4, m2};
  const double n = a.n + 4.0, inv = 1.0 / n;
  const T delta = mean4 - a.mean;
  return Welford<T>{n, a.mean + delta * R(4.0 * inv), a.m2 + m2 + abs_squared(delta) * R(a.n * 4.0 * inv)};
}

// var from the merged moments, as NumPy: divide by max(n - ddof, 0) (so 0/0 is NaN and x/0 inf),
// and an infinite or NaN element makes the variance NaN (NumPy computes inf - inf; a merge with an
// infinite mean leaves a NaN or infinite mean behind). nanvar/nanstd (`kNanWithoutDof`) give NaN
// whenever n - ddof <= 0, as NumPy's nanvar does.
template <bool kNanWithoutDof, class T>
__device__ __forceinline__ double welford_var(const Welford<T>& a, double ddof) {
  const double nan = __longlong_as_double(0x7ff8000000000000ll);
  if (!cuarray_isfinite(a.mean)) return nan;
  const double dof = a.n - ddof;
  if (kNanWithoutDof && dof <= 0) return nan;
  return double(a.m2) / (dof > 0 ? dof : 0.0);
}

// nanmean: the sum and the count of the elements that are not NaN.
template <class T>
struct SumCount {
  T sum;
  double count;
};

}  // namespace cuarray

namespace cuarray {

// nanmin/nanmax identities: NaN for inexact types (fmin(NaN, x) is x, and an all-NaN slice stays
// NaN), else the extreme value.
template <class T>
__device__ __forceinline__ T nan_or_highest() {
  if constexpr (is_complex_v<T>) return T(nan_or_highest<real_t<T>>(), nan_or_highest<real_t<T>>());
  else if constexpr (is_floating_v<T>) return T(__int_as_float(0x7fc00000));
  else return highest<T>();
}
template <class T>
__device__ __forceinline__ T nan_or_lowest() {
  if constexpr (is_complex_v<T>) return T(nan_or_lowest<real_t<T>>(), nan_or_lowest<real_t<T>>());
  else if constexpr (is_floating_v<T>) return T(__int_as_float(0x7fc00000));
  else return lowest<T>();
}

}  // namespace cuarray
