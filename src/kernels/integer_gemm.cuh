// Exact GEMM for bool and the integer dtypes (src/ops/linalg/products/integer_gemm.cpp), with the
// column-major arguments of cuBLAS's strided-batched GEMM (gemm_plan.hpp): C'(i, j) = sum_l
// op(A')(i, l) op(B')(l, j), i < m, j < n. NumPy's integer matmul wraps around in its own type;
// sums taken modulo 2^32 (2^64 for 64-bit types) in unsigned arithmetic have the same low bits, so
// every element is widened to acc_t (uint32_t or uint64_t) and the sum narrowed at the end. bool
// is NumPy's OR of ANDs.
//
// The generated part defines, before this fragment: elem_t, acc_t, kTransA, kTransB, kBool, and
// the tiling: a block of 256 threads computes a BM x BN tile of C' in steps of BK along l, each
// thread a TM x TN grid of it (rows tx + r * (BM / TM), columns ty + c * (BN / TN): neighbouring
// threads read neighbouring shared words and write neighbouring elements of a column of C').
extern "C" __global__ void __launch_bounds__(256)
    cuarray_integer_gemm(const elem_t* A, const elem_t* B, elem_t* C, int64_t m, int64_t n, int64_t k,
                         int64_t lda, int64_t ldb, int64_t ldc, int64_t stride_a, int64_t stride_b,
                         int64_t stride_c, int64_t batch) {
  constexpr int kThreads = 256, RX = BM / TM, RY = BN / TN;
  static_assert(RX * RY == kThreads, "one thread per TM x TN piece of the tile");
  __shared__ acc_t As[BK][BM];
  __shared__ acc_t Bs[BK][BN];
  const int tid = threadIdx.x, tx = tid % RX, ty = tid / RX;
  const int64_t tile_n = static_cast<int64_t>(blockIdx.x) * BN;
  for (int64_t z = blockIdx.z; z < batch; z += gridDim.z) {
    const elem_t* a = A + z * stride_a;
    const elem_t* b = B + z * stride_b;
    elem_t* c = C + z * stride_c;
    for (int64_t tile_m = static_cast<int64_t>(blockIdx.y) * BM; tile_m < m; tile_m += static_cast<int64_t>(gridDim.y) * BM) {
      acc_t acc[TM][TN];
#pragma unroll
      for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int s = 0; s < TN; ++s) acc[r][s] = 0;
      for (int64_t l0 = 0; l0 < k; l0 += BK) {
        // Loads walk the operand's contiguous index fastest, so a warp reads consecutive elements.
        for (int e = tid; e < BM * BK; e += kThreads) {
          const int i = kTransA ? e / BK : e % BM, l = kTransA ? e % BK : e / BM;
          const int64_t gi = tile_m + i, gl = l0 + l;
          acc_t v = 0;
          if (gi < m && gl < k) v = static_cast<acc_t>(kTransA ? a[gl + gi * lda] : a[gi + gl * lda]);
          As[l][i] = v;
        }
        for (int e = tid; e < BK * BN; e += kThreads) {
          const int l = kTransB ? e / BN : e % BK, j = kTransB ? e % BN : e / BK;
          const int64_t gl = l0 + l, gj = tile_n + j;
          acc_t v = 0;
          if (gl < k && gj < n) v = static_cast<acc_t>(kTransB ? b[gj + gl * ldb] : b[gl + gj * ldb]);
          Bs[l][j] = v;
        }
        __syncthreads();
#pragma unroll
        for (int l = 0; l < BK; ++l) {
          acc_t ra[TM], rb[TN];
#pragma unroll
          for (int r = 0; r < TM; ++r) ra[r] = As[l][tx + r * RX];
#pragma unroll
          for (int s = 0; s < TN; ++s) rb[s] = Bs[l][ty + s * RY];
#pragma unroll
          for (int r = 0; r < TM; ++r)
#pragma unroll
            for (int s = 0; s < TN; ++s) acc[r][s] = kBool ? (acc[r][s] | (ra[r] & rb[s])) : acc[r][s] + ra[r] * rb[s];
        }
        __syncthreads();
      }
#pragma unroll
      for (int r = 0; r < TM; ++r) {
        const int64_t gi = tile_m + tx + r * RX;
#pragma unroll
        for (int s = 0; s < TN; ++s) {
          const int64_t gj = tile_n + ty + s * RY;
          if (gi < m && gj < n) c[gi + gj * ldc] = static_cast<elem_t>(acc[r][s]);
        }
      }
    }
  }
}
