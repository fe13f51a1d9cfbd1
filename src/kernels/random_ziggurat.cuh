// Float64 normals by NumPy's 256-layer ziggurat (Marsaglia and Tsang, "The Ziggurat Method for
// Generating Random Variables", 2000; NumPy's random_standard_normal in distributions.c). The
// tables come from the host (ops/random/ziggurat.cpp). One 64-bit word gives a value 98.5% of the
// time by a table lookup, a multiply and a compare (`ziggurat_draw`); the wedges and the tail
// beyond r (the rest) draw further words from `more` (`ziggurat_normal`). Box-Muller's FP64 log,
// sqrt and sincospi cost about ten times the FP64 work, which kept the float64 fill far below the
// memory's write rate.
namespace cuarray {

struct alignas(16) ZigguratLayer {
  unsigned long long k;  // |x| below the next layer's edge: inside the rectangle, accept
  double w;              // x = (52 random bits) * w
};

constexpr double kZigguratR = 3.6541528853610088;  // the base layer's edge
constexpr double kZigguratInvR = 1.0 / 3.6541528853610088;

// One word's candidate: bits 0-7 pick the layer, bit 8 the sign, bits 9-60 the magnitude `rabs`;
// x = +-rabs * w. `inside`: rabs lies in the layer's rectangle and x is the value.
struct ZigguratDraw {
  int idx;
  unsigned long long rabs;
  double x;
  bool inside;
};

// rabs < 2^52 becomes a double exactly by writing it into the mantissa of 2^52 and subtracting
// 2^52, and the sign goes into w's sign bit: an integer op and an FP64 add where a 64-bit
// int-to-double conversion (a quarter-rate instruction) and a negate-and-select stood. The value
// is bit for bit NumPy's (double)rabs * wi[idx], negated.
__device__ __forceinline__ ZigguratDraw ziggurat_draw(unsigned long long r, const ZigguratLayer* layers) {
  const int idx = static_cast<int>(r & 0xff);
  const unsigned long long rabs = (r >> 9) & 0x000fffffffffffffull;
  const ZigguratLayer layer = layers[idx];
  const double magnitude = __longlong_as_double(0x4330000000000000ll | static_cast<long long>(rabs)) - 0x1p52;
  const double w = __longlong_as_double(__double_as_longlong(layer.w) ^ static_cast<long long>((r & 0x100) << 55));
  return {idx, rabs, magnitude * w, rabs < layer.k};
}

// `layers` may live in shared memory (the fast path reads it); `f` holds exp(-x_i^2 / 2), read
// only on the slow path.
__device__ __forceinline__ double ziggurat_normal(unsigned long long r, RandomStream& more,
                                                  const ZigguratLayer* layers, const double* f) {
  for (;;) {
    const ZigguratDraw d = ziggurat_draw(r, layers);
    if (d.inside) return d.x;
    if (d.idx == 0) {
      // The tail beyond r (Marsaglia's method); 1 - U keeps the logarithm finite.
      for (;;) {
        const double xx = -kZigguratInvR * log1p(-more.next_double());
        const double yy = -log1p(-more.next_double());
        if (yy + yy > xx * xx) return ((d.rabs >> 8) & 1) ? -(kZigguratR + xx) : kZigguratR + xx;
      }
    }
    if ((f[d.idx - 1] - f[d.idx]) * more.next_double() + f[d.idx] < exp(-0.5 * d.x * d.x)) return d.x;
    r = more.next_u64();
  }
}

}  // namespace cuarray
