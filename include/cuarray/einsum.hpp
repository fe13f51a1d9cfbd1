// numpy.einsum and numpy.einsum_path: Einstein summation over any number of operands, planned
// pairwise (NumPy's greedy and optimal paths) and run as batched GEMMs, reductions and views.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// einsum's optimize= argument.
struct EinsumOptimize {
  enum class Kind : uint8_t {
    None,      // optimize=False: NumPy's c_einsum rules and messages, one contraction of all operands
    Greedy,    // optimize=True or 'greedy'
    Optimal,   // 'optimal': every order, the cheapest (factorial in the operand count)
    Explicit,  // ['einsum_path', (i, j), ...]: the contractions given
  };
  Kind kind = Kind::None;
  // ('greedy', limit) / ('optimal', limit): the largest intermediate, in elements; nullopt is
  // NumPy's default, the largest input or output.
  std::optional<int64_t> memory_limit;
  std::vector<std::vector<int64_t>> path;  // Explicit only: operand positions of each contraction
};

// One contraction of a path: the positions it takes from the operand list (largest first, the
// order they are popped), NumPy's equation for it ("jk,ij->ik") and the terms left afterwards
// (the new one last).
struct EinsumContraction {
  std::vector<int64_t> positions;
  std::string equation;
  std::vector<std::string> remaining;
  int64_t scaling = 0;          // the number of distinct labels it touches
  double flops = 0;             // NumPy's flop count for it
  int64_t result_size = 0;      // elements of its result
};

// numpy.einsum_path's two results: `path` as NumPy gives it after 'einsum_path' (each entry one
// contraction's positions, as chosen or as given) and the report string, character for character.
struct EinsumPath {
  std::vector<std::vector<int64_t>> path;
  std::vector<EinsumContraction> contractions;
  std::string input_subscripts;  // "ij,jk" with every '...' expanded to labels
  std::string output_subscript;
  std::string report;
};

// numpy.einsum_path(subscripts, *operands, optimize=...) from the operands' shapes alone. Throws
// ValueError with NumPy's messages for bad subscripts or shapes, TypeError for a path it does not
// understand, ValueError for an explicit path that leaves operands uncontracted.
EinsumPath einsum_path(std::string_view subscripts, std::span<const Shape> shapes,
                       const EinsumOptimize& optimize = {EinsumOptimize::Kind::Greedy, std::nullopt, {}});

struct EinsumOptions {
  std::optional<DType> dtype;          // dtype=: every product and sum runs in it
  Casting casting = Casting::Safe;     // casting=, for the operands to the result dtype (and into out)
  Order order = Order::K;              // order=: the result's memory order
  const NDArray* out = nullptr;        // out=: the result is written into it and it is returned
  EinsumOptimize optimize;             // optimize=
};

// numpy.einsum(subscripts, *operands, ...). The result dtype is NumPy's: the promotion of the
// operands' dtypes, or dtype=; integers wrap around as NumPy's do. A single operand whose
// result needs no sum and no cast is returned as a view (a transpose, a diagonal), as NumPy
// does. Errors are NumPy's: ValueError for subscripts and shapes (c_einsum's messages for
// optimize=None, einsum_path's otherwise), TypeError for a cast that `casting` forbids.
NDArray einsum(std::string_view subscripts, std::span<const NDArray> operands, const EinsumOptions& options = {});

}  // namespace cuarray
