// One-sided Jacobi (Hestenes) SVD of a stack of small matrices (src/ops/linalg/solvers/jacobi_svd.cpp):
// one thread block per matrix, the matrix A (rows x cols, column-major, rows >= cols) and V in
// shared memory. Each step rotates n/2 disjoint column pairs at once (round-robin order, one group
// of lanes per pair, at most two rows a lane, dot products by shuffles within the group); a sweep
// is n - 1 steps and meets every pair once. The matrix is first scaled by a power of two to
// entries below 1 in magnitude.
// A pair is rotated while |a_p^H a_q| > tol ||a_p|| ||a_q|| (LAPACK gesvj's test);
// sweeps stop when none was. Then the singular values are the column norms, U the normalized
// columns and V the accumulated rotations, written sorted by descending singular value. Columns of
// U for zero singular values (and the extra columns of a full U) are completed to an orthonormal
// basis, so nothing is ever divided by zero.
//
// The generated part defines, before this fragment: elem_t (float, double, cuarray::complex<...>),
// real_t, kMaxSize (the largest rows and cols served), kTinyNorm (below it, a column is zero) and
// kEpsilon (real_t's machine epsilon).
namespace jacobi {

__device__ inline real_t squared_magnitude(real_t x) { return x * x; }
__device__ inline real_t squared_magnitude(const cuarray::complex<real_t>& z) { return z.re * z.re + z.im * z.im; }
__device__ inline real_t conjugate(real_t x) { return x; }
__device__ inline cuarray::complex<real_t> conjugate(const cuarray::complex<real_t>& z) { return {z.re, -z.im}; }
__device__ inline real_t scaled(real_t x, real_t r) { return x * r; }
__device__ inline cuarray::complex<real_t> scaled(const cuarray::complex<real_t>& z, real_t r) {
  return {z.re * r, z.im * r};
}

__device__ inline real_t times_power_of_two(real_t x, int e) { return ldexp(x, e); }
__device__ inline cuarray::complex<real_t> times_power_of_two(const cuarray::complex<real_t>& z, int e) {
  return {ldexp(z.re, e), ldexp(z.im, e)};
}
__device__ inline real_t largest_part(real_t x) { return fabs(x); }
__device__ inline real_t largest_part(const cuarray::complex<real_t>& z) { return fmax(fabs(z.re), fabs(z.im)); }

__device__ inline real_t warp_max(real_t x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) x = fmax(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

__device__ inline real_t warp_sum(real_t x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}
__device__ inline cuarray::complex<real_t> warp_sum(const cuarray::complex<real_t>& z) {
  return {warp_sum(z.re), warp_sum(z.im)};
}

// The sum over an aligned group of `lanes` lanes (a power of two up to 32): xor offsets below
// `lanes` stay inside the group. Every lane of the warp must call it, the same number of times.
__device__ inline real_t group_sum(real_t x, int lanes) {
  for (int offset = lanes >> 1; offset > 0; offset >>= 1) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}
__device__ inline cuarray::complex<real_t> group_sum(const cuarray::complex<real_t>& z, int lanes) {
  return {group_sum(z.re, lanes), group_sum(z.im, lanes)};
}

// The three sums of a pair over its group of `lanes` lanes (a power of two up to 32): alpha =
// ||a_p||^2, beta = ||a_q||^2 and gamma = a_p^H a_q. For real numbers with lanes >= 4 they are
// summed at once: one at a time they take 3 log2(lanes) shuffles; here the first two levels each
// send half of what a lane holds (recursive halving, gamma's partner a zero), so each sum lives
// in a quarter of the group, summed over the remaining levels and then read by every lane from
// the group's first lane of that quarter: 3 + (log2(lanes) - 2) + 3 shuffles.
__device__ inline void pair_sums(real_t& alpha, real_t& beta, real_t& gamma, int lane, int lanes) {
  if (lanes < 4) {  // the same in every lane of the block
    alpha = group_sum(alpha, lanes);
    beta = group_sum(beta, lanes);
    gamma = group_sum(gamma, lanes);
    return;
  }
  const int half = lanes >> 1, quarter = lanes >> 2;
  const bool upper = lane & half, odd = lane & quarter;
  // Level one: the lower half keeps alpha and beta, the upper half gamma and a zero.
  const real_t y0 = (upper ? gamma : alpha) + __shfl_xor_sync(0xffffffffu, upper ? alpha : gamma, half);
  const real_t y1 = (upper ? real_t(0) : beta) + __shfl_xor_sync(0xffffffffu, upper ? beta : real_t(0), half);
  // Level two: a lane keeps y1 in the odd quarters, y0 in the even ones, so it holds alpha (lower
  // even quarter), beta (lower odd), gamma (upper even) or the zero.
  real_t sum = (odd ? y1 : y0) + __shfl_xor_sync(0xffffffffu, odd ? y0 : y1, quarter);
  for (int offset = quarter >> 1; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  const int first = lane & ~(lanes - 1);
  alpha = __shfl_sync(0xffffffffu, sum, first);
  beta = __shfl_sync(0xffffffffu, sum, first + quarter);
  gamma = __shfl_sync(0xffffffffu, sum, first + half);
}
// Complex gamma: four reals, each summed by itself (the fused form's registers spill for complex128).
__device__ inline void pair_sums(real_t& alpha, real_t& beta, cuarray::complex<real_t>& gamma, int, int lanes) {
  alpha = group_sum(alpha, lanes);
  beta = group_sum(beta, lanes);
  gamma = group_sum(gamma, lanes);
}

// The round-robin (circle) order: at step s of n - 1, pair k of n / 2 (n even). Player n - 1 stays,
// the others turn; over a sweep every pair meets once, and the pairs of one step are disjoint.
__device__ inline void round_robin_pair(int step, int k, int n, int& p, int& q) {
  const int m = n - 1;
  int x, y;
  if (k == 0) {
    x = m;
    y = step;
  } else {
    x = (step + k) % m;
    y = (step - k + m) % m;
  }
  p = min(x, y);
  q = max(x, y);
}

// The rotation [[c, s e], [-s conj(e), c]] of one row of a pair: x' = c x - s conj(e) y,
// y' = s e x + c y, with se = s e and sce = conj(se).
__device__ inline void rotate_row(elem_t& x, elem_t& y, real_t c, const elem_t& se, const elem_t& sce) {
  const elem_t xi = x, yi = y;
  x = scaled(xi, c) - sce * yi;
  y = se * xi + scaled(yi, c);
}

// The rows of a column a lane holds: the launcher's block shape (jacobi_block_shape) keeps every
// column at most two rows a lane, rank and rank + lanes (in either order), so a pair's rows stay
// in registers from the dot products to the rotation.
struct LaneRows {
  int first, second, length;  // rows first and second of a column of `length` rows, where present
};

__device__ inline void load_rows(const elem_t* x, const LaneRows& r, elem_t& x0, elem_t& x1) {
  const elem_t zero = elem_t(real_t(0));
  x0 = r.first < r.length ? x[r.first] : zero;
  x1 = r.second < r.length ? x[r.second] : zero;
}

__device__ inline void store_rows(elem_t* x, const LaneRows& r, const elem_t& x0, const elem_t& x1) {
  if (r.first < r.length) x[r.first] = x0;
  if (r.second < r.length) x[r.second] = x1;
}

// Rotates columns x and y, of the rows r.
__device__ inline void rotate(elem_t* x, elem_t* y, const LaneRows& r, real_t c, const elem_t& se,
                              const elem_t& sce) {
  if (r.first < r.length) rotate_row(x[r.first], y[r.first], c, se, sce);
  if (r.second < r.length) rotate_row(x[r.second], y[r.second], c, se, sce);
}

}  // namespace jacobi

extern "C" __global__ void __launch_bounds__(256)
    cuarray_jacobi_svd(const elem_t* A, real_t* S, elem_t* U, elem_t* V, int* status, int rows, int cols,
                       int u_cols, int want_vectors, int max_sweeps, real_t tol, int group_lanes, int64_t batch) {
  using namespace jacobi;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  elem_t* a = reinterpret_cast<elem_t*>(shared_bytes);  // rows x cols, column-major
  elem_t* v = a + rows * cols;                           // cols x cols, when want_vectors
  __shared__ real_t norms[kMaxSize];
  __shared__ int rank_of[kMaxSize];
  __shared__ real_t residual[kMaxSize];
  __shared__ elem_t column[kMaxSize], coefficient[kMaxSize];
  __shared__ real_t column_norm, zero_norm, warp_largest[8];
  __shared__ int nonzero_count, not_finite, scale_exponent;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, warps = blockDim.x >> 5;
  const int n = cols + (cols & 1);  // an odd count plays against a missing column, skipped
  // A column pair belongs to a group of group_lanes lanes (a power of two, at most 32): rows
  // across the group's lanes, so short columns leave no lane idle and a warp rotates 32 /
  // group_lanes pairs at once.
  const int rank = tid & (group_lanes - 1), group = tid / group_lanes, groups = blockDim.x / group_lanes;
  // Odd groups take their two rows in the other order: at 32 rows of float32 two 16-lane groups
  // of a warp then read different banks (rows 0-15 of one column, 16-31 of another) where the
  // same order reads the same banks, columns being 32 words apart.
  const int first_row = group & 1 ? rank + group_lanes : rank, second_row = group & 1 ? rank : rank + group_lanes;
  const LaneRows a_rows{first_row, second_row, rows}, v_rows{first_row, second_row, cols};  // cols <= rows
  for (int64_t z = blockIdx.x; z < batch; z += gridDim.x) {
    const elem_t* az = A + z * rows * cols;
    real_t largest = 0;
    for (int i = tid; i < rows * cols; i += blockDim.x) {
      a[i] = az[i];
      largest = fmax(largest, largest_part(a[i]));
    }
    largest = warp_max(largest);
    if (lane == 0) warp_largest[warp] = largest;
    if (want_vectors)
      for (int i = tid; i < cols * cols; i += blockDim.x) v[i] = elem_t(i % cols == i / cols ? real_t(1) : real_t(0));
    __syncthreads();
    if (tid == 0) {
      nonzero_count = 0;
      not_finite = 0;
      real_t m = 0;
      for (int w = 0; w < warps; ++w) m = fmax(m, warp_largest[w]);
      // Scaled by a power of two (exact) so the largest entry is in [0.5, 1): squared column norms
      // can neither overflow nor, for a matrix of tiny entries, underflow to zero.
      int e = 0;
      if (m > 0 && isfinite(m)) frexp(m, &e);
      scale_exponent = e;
    }
    __syncthreads();
    const int exponent = scale_exponent;
    if (exponent != 0)
      for (int i = tid; i < rows * cols; i += blockDim.x) a[i] = times_power_of_two(a[i], -exponent);
    __syncthreads();

    bool converged = false;
    for (int sweep = 0; sweep < max_sweeps && !converged; ++sweep) {
      int rotated = 0;
      for (int step = 0; step < n - 1; ++step) {
        // k0 runs the same count in every lane, so every lane reaches every shuffle of pair_sums.
        for (int k0 = 0; k0 < n / 2; k0 += groups) {
          const int k = k0 + group;
          int p = 0, q = 0;
          if (k < n / 2) round_robin_pair(step, k, n, p, q);
          const bool active = k < n / 2 && q < cols;
          elem_t *ap = a + p * rows, *aq = a + q * rows;
          const elem_t zero = elem_t(real_t(0));
          elem_t p0 = zero, p1 = zero, q0 = zero, q1 = zero;
          if (active) {
            load_rows(ap, a_rows, p0, p1);
            load_rows(aq, a_rows, q0, q1);
          }
          __syncwarp();  // the groups of a warp may have parted at the last pair's test
          real_t alpha = squared_magnitude(p0) + squared_magnitude(p1);
          real_t beta = squared_magnitude(q0) + squared_magnitude(q1);
          elem_t gamma = conjugate(p0) * q0 + conjugate(p1) * q1;
          pair_sums(alpha, beta, gamma, lane, group_lanes);
          const real_t g = sqrt(squared_magnitude(gamma));
          // A zero column has g == 0 and is never rotated; NaN fails the test and is caught below.
          if (active && g > tol * sqrt(alpha) * sqrt(beta)) {
            rotated = 1;
            // The angle that makes the pair orthogonal (the smaller root of t^2 + 2 zeta t - 1 = 0),
            // with the phase e of a_p^H a_q turning the complex problem into a real one.
            const real_t zeta = (beta - alpha) / (2 * g);
            const real_t t = copysign(real_t(1), zeta) / (fabs(zeta) + hypot(real_t(1), zeta));
            const real_t c = rsqrt(1 + t * t);
            const elem_t se = scaled(gamma, c * t / g), sce = conjugate(se);  // s e, with e = gamma / g
            rotate_row(p0, q0, c, se, sce);
            rotate_row(p1, q1, c, se, sce);
            store_rows(ap, a_rows, p0, p1);
            store_rows(aq, a_rows, q0, q1);
            if (want_vectors) rotate(v + p * cols, v + q * cols, v_rows, c, se, sce);
          }
        }
        __syncthreads();
      }
      converged = !__syncthreads_or(rotated);
    }

    // Singular values: the column norms, ranked in descending order (ties by column index).
    for (int j = warp; j < cols; j += warps) {
      real_t sum = 0;
      for (int i = lane; i < rows; i += 32) sum += squared_magnitude(a[j * rows + i]);
      sum = warp_sum(sum);
      if (lane == 0) norms[j] = sqrt(sum);
    }
    __syncthreads();
    if (tid == 0) {
      // A column whose norm is at the round-off of the largest (NumPy's matrix_rank tolerance,
      // rows * eps * the largest) has no direction Jacobi resolves: left as a/norm, such columns
      // of U were orthogonal only to about 1e-2 in float32. They count as zero, and U is completed
      // there; its singular value stays the column norm.
      real_t largest_norm = 0;
      for (int k = 0; k < cols; ++k) largest_norm = fmax(largest_norm, norms[k]);
      zero_norm = fmax(kTinyNorm, largest_norm * real_t(rows) * kEpsilon);
    }
    __syncthreads();
    for (int j = tid; j < cols; j += blockDim.x) {
      const real_t nj = norms[j];
      int rank = 0;
      for (int k = 0; k < cols; ++k) rank += norms[k] > nj || (norms[k] == nj && k < j);
      rank_of[j] = rank;
      S[z * cols + rank] = ldexp(nj, exponent);
      if (nj > zero_norm) atomicAdd(&nonzero_count, 1);
      if (!isfinite(nj)) not_finite = 1;
    }
    __syncthreads();
    // Non-convergence and non-finite input both hand the matrix to the fallback routine.
    if (tid == 0) status[z] = converged && !not_finite ? 0 : 1;
    if (want_vectors) {
      elem_t* uz = U + z * rows * u_cols;
      elem_t* vz = V + z * cols * cols;
      for (int idx = tid; idx < rows * cols; idx += blockDim.x) {
        const int i = idx % rows, j = idx / rows;
        const real_t nj = norms[j];
        uz[rank_of[j] * rows + i] = nj > zero_norm ? scaled(a[idx], 1 / nj) : elem_t(real_t(0));
      }
      for (int idx = tid; idx < cols * cols; idx += blockDim.x) vz[rank_of[idx / cols] * cols + idx % cols] = v[idx];
      __syncthreads();
      // The columns after the nonzero ones: the unit vector least covered by the columns so far,
      // orthogonalized twice against them (classical Gram-Schmidt, repeated) and normalized.
      for (int col = nonzero_count; col < u_cols; ++col) {
        for (int k = tid; k < rows; k += blockDim.x) {
          real_t covered = 0;
          for (int j = 0; j < col; ++j) covered += squared_magnitude(uz[j * rows + k]);
          residual[k] = 1 - covered;
        }
        __syncthreads();
        int best = 0;
        for (int k = 1; k < rows; ++k)
          if (residual[k] > residual[best]) best = k;
        for (int i = tid; i < rows; i += blockDim.x) {
          elem_t x = elem_t(i == best ? real_t(1) : real_t(0));
          for (int j = 0; j < col; ++j) x = x - uz[j * rows + i] * conjugate(uz[j * rows + best]);
          column[i] = x;
        }
        __syncthreads();
        for (int j = warp; j < col; j += warps) {
          elem_t d = elem_t(real_t(0));
          for (int i = lane; i < rows; i += 32) d = d + conjugate(uz[j * rows + i]) * column[i];
          d = warp_sum(d);
          if (lane == 0) coefficient[j] = d;
        }
        __syncthreads();
        for (int i = tid; i < rows; i += blockDim.x) {
          elem_t x = column[i];
          for (int j = 0; j < col; ++j) x = x - uz[j * rows + i] * coefficient[j];
          column[i] = x;
        }
        __syncthreads();
        if (warp == 0) {
          real_t sum = 0;
          for (int i = lane; i < rows; i += 32) sum += squared_magnitude(column[i]);
          sum = warp_sum(sum);
          if (lane == 0) column_norm = sqrt(sum);
        }
        __syncthreads();
        for (int i = tid; i < rows; i += blockDim.x) uz[col * rows + i] = scaled(column[i], 1 / column_norm);
        __syncthreads();
      }
    }
    __syncthreads();  // the next matrix overwrites the shared arrays
  }
}
