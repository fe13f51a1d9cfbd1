#include "ops/random/ziggurat.hpp"

#include <cmath>
#include <cstdio>

namespace cuarray::random {
namespace {

// Marsaglia and Tsang's recurrence from the base up: layer i spans [0, x_i] between f(x_i) and
// f(x_{i-1}), each of area v, where v is the base strip's area r f(r) + the tail's integral. Long
// double, rounded once to double, keeps the tables the same under any libm that rounds well.
NormalZiggurat build() {
  using LD = long double;
  const LD r = 3.6541528853610088L, m = 4503599627370496.0L;  // 2^52
  const auto f = [](LD x) { return std::exp(-0.5L * x * x); };
  const LD v = r * f(r) + std::sqrt(std::acos(-1.0L) / 2) * std::erfc(r / std::sqrt(2.0L));
  const LD q = v / f(r);
  NormalZiggurat z{};
  z.k[0] = static_cast<uint64_t>(r / q * m);
  z.k[1] = 0;  // the top layer is all wedge
  z.w[0] = static_cast<double>(q / m);
  z.w[255] = static_cast<double>(r / m);
  z.f[0] = 1;
  z.f[255] = static_cast<double>(f(r));
  LD x = r;
  for (int i = 254; i >= 1; --i) {
    const LD lower = std::sqrt(-2 * std::log(v / x + f(x)));
    z.k[i + 1] = static_cast<uint64_t>(lower / x * m);
    x = lower;
    z.f[i] = static_cast<double>(f(x));
    z.w[i] = static_cast<double>(x / m);
  }
  return z;
}

std::string hex(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

std::string source() {
  const NormalZiggurat& z = normal_ziggurat();
  std::string s = "__device__ const cuarray::ZigguratLayer kNormalZigguratLayers[256] = {";
  for (int i = 0; i < 256; ++i) s += "{" + std::to_string(z.k[i]) + "ull, " + hex(z.w[i]) + "},";
  s += "};\n__device__ const double kNormalZigguratF[256] = {";
  for (int i = 0; i < 256; ++i) s += hex(z.f[i]) + ",";
  s += "};\n";
  return s;
}

}  // namespace

const NormalZiggurat& normal_ziggurat() {
  static const NormalZiggurat z = build();
  return z;
}

const std::string& normal_ziggurat_source() {
  static const std::string s = source();
  return s;
}

}  // namespace cuarray::random
