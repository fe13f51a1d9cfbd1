// The two passes around the int8 tensor-core GEMMs of wide integer products
// (src/ops/linalg/products/digit_gemm.cpp).
//
// The generated part defines, before this fragment: elem_t (the unsigned integer of the operands'
// width), acc_t (uint32_t, or uint64_t for 8-byte elements), W (bytes per element), kBias
// (0x80..80, W bytes), and for the planes kernel kInAlongRows / kOutAlongRows (which matrix axis a
// warp walks when it reads x / writes the planes: the one with unit stride, so both are coalesced).

// The int8 digits d_i = byte_i(x + kBias) ^ 0x80 (= byte_i(x + kBias) - 128) of a stack of
// (rows, cols) matrices x, written in one pass: digit i of x[z, r, c] goes to
// out[z * out_batch + r * out_row + c * out_col + i * out_digit] (out_digit may be negative: high
// digit first). A block of 32 x 8 threads moves a 32 x 32 tile through shared memory, so a
// transposing layout (B's planes are k-contiguous while B is n-contiguous) reads and writes whole
// sectors.
extern "C" __global__ void __launch_bounds__(256)
    cuarray_digit_planes(const elem_t* x, int8_t* out, int64_t rows, int64_t cols, int64_t batch, int64_t x_batch,
                         int64_t x_row, int64_t x_col, int64_t out_batch, int64_t out_row, int64_t out_col,
                         int64_t out_digit) {
  __shared__ elem_t tile[32][33];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const int64_t c0 = static_cast<int64_t>(blockIdx.x) * 32;
  for (int64_t z = blockIdx.z; z < batch; z += gridDim.z) {
    for (int64_t r0 = static_cast<int64_t>(blockIdx.y) * 32; r0 < rows; r0 += static_cast<int64_t>(gridDim.y) * 32) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int r = kInAlongRows ? tx : ty + 8 * j, c = kInAlongRows ? ty + 8 * j : tx;
        if (r0 + r < rows && c0 + c < cols) tile[r][c] = x[z * x_batch + (r0 + r) * x_row + (c0 + c) * x_col];
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int r = kOutAlongRows ? tx : ty + 8 * j, c = kOutAlongRows ? ty + 8 * j : tx;
        if (r0 + r < rows && c0 + c < cols) {
          const elem_t y = static_cast<elem_t>(tile[r][c] + kBias);  // wraps, as the identity needs
          int8_t* o = out + z * out_batch + (r0 + r) * out_row + (c0 + c) * out_col;
#pragma unroll
          for (int i = 0; i < W; ++i) o[i * out_digit] = static_cast<int8_t>(static_cast<uint8_t>(y >> (8 * i)) ^ 0x80);
        }
      }
      __syncthreads();  // the tile is refilled for the next rows
    }
  }
}

// out[e] = sum_s sums[s][e] * 256^s modulo 2^(8 W), from the W int32 GEMM results (each exact, so
// widening it with its sign and wrapping the sum in unsigned arithmetic is NumPy's wraparound).
extern "C" __global__ void __launch_bounds__(256)
    cuarray_digit_sums(const int32_t* sums, elem_t* out, int64_t count) {
  for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    acc_t total = 0;
#pragma unroll
    for (int s = 0; s < W; ++s) total += static_cast<acc_t>(static_cast<int64_t>(sums[s * count + e])) << (8 * s);
    out[e] = static_cast<elem_t>(total);
  }
}
