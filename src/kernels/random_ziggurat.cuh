// Float64 normals by NumPy's 256-layer ziggurat (Marsaglia and Tsang, "The Ziggurat Method for
// Generating Random Variables", 2000; NumPy's random_standard_normal in distributions.c). The
// tables come from the host (ops/random/ziggurat.cpp). One 64-bit word gives a value 99.3% of the
// time by a table lookup, a multiply and a compare; the wedges and the tail beyond r (the rest)
// draw further words from `more`. Box-Muller's FP64 log, sqrt and sincospi cost about ten times the
// FP64 work, which kept the float64 fill far below the memory's write rate.
namespace cuarray {

struct alignas(16) ZigguratLayer {
  unsigned long long k;  // |x| below the next layer's edge: inside the rectangle, accept
  double w;              // x = (52 random bits) * w
};

constexpr double kZigguratR = 3.6541528853610088;  // the base layer's edge
constexpr double kZigguratInvR = 1.0 / 3.6541528853610088;

// `layers` may live in shared memory (the fast path reads it); `f` holds exp(-x_i^2 / 2), read
// only on the slow path.
__device__ __forceinline__ double ziggurat_normal(unsigned long long r, RandomStream& more,
                                                  const ZigguratLayer* layers, const double* f) {
  for (;;) {
    const int idx = static_cast<int>(r & 0xff);
    r >>= 8;
    const unsigned long long rabs = (r >> 1) & 0x000fffffffffffffull;
    const ZigguratLayer layer = layers[idx];
    const double x = (r & 1) ? -(static_cast<double>(rabs) * layer.w) : static_cast<double>(rabs) * layer.w;
    if (rabs < layer.k) return x;
    if (idx == 0) {
      // The tail beyond r (Marsaglia's method); 1 - U keeps the logarithm finite.
      for (;;) {
        const double xx = -kZigguratInvR * log1p(-more.next_double());
        const double yy = -log1p(-more.next_double());
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(kZigguratR + xx) : kZigguratR + xx;
      }
    }
    if ((f[idx - 1] - f[idx]) * more.next_double() + f[idx] < exp(-0.5 * x * x)) return x;
    r = more.next_u64();
  }
}

}  // namespace cuarray
