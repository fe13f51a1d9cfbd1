// The seed workload in C++: ones((100, 1000, 1000)); 5 * x; x * x; sum.
#include <cuarray/cuarray.hpp>

#include <cstdio>

int main() try {
  cuarray::NDArray x = cuarray::ones({100, 1000, 1000});
  cuarray::NDArray y = 5 * x;
  cuarray::NDArray z = y * y;
  double total = 0;
  z.sum().copy_to_host(&total);  // waits for the GPU
  std::printf("sum(25 * ones) = %.1f (expected %.1f)\n", total, 25.0 * 1e8);
  cuarray::NDArray rows = z.sum(1);  // shape (100, 1000)
  std::printf("z.sum(1) has %lld elements\n", static_cast<long long>(rows.size()));
  return total == 25.0 * 1e8 ? 0 : 1;
} catch (const cuarray::Error& e) {  // e.g. no GPU: the message says what is missing
  std::fprintf(stderr, "cuarray: %s\n", e.what());
  return 1;
}
