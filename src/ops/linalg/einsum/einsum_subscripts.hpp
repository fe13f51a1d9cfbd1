// The einsum subscript grammar: "ij,jk->ik", implicit output, '...' ellipsis, repeated labels.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/shape.hpp"

namespace cuarray::einsum_detail {

// NumPy's labels, in its order: einsum_symbols = 'A..Za..z'.
inline constexpr std::string_view kEinsumSymbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
inline constexpr int kNumLabels = 52;

// Position of a label in kEinsumSymbols, or -1.
int label_index(char c);

// A set of labels as a bit mask over kEinsumSymbols.
using LabelSet = uint64_t;
LabelSet label_set(std::string_view term);

// Which of NumPy's two parsers an error message comes from: optimize=False runs c_einsum (C
// messages; ellipsis dims the output leaves out are an error), anything else einsum_path's
// Python parser (its messages; such dims are summed).
enum class EinsumDialect : uint8_t { CEinsum, Path };

// A parsed expression: one label per operand dimension, every '...' replaced by labels that the
// subscripts do not use (the same trailing ones for every operand, so ellipsis dims line up from
// the right as NumPy's do), and the size of every label (a dim of 1 broadcasts against others).
struct EinsumExpression {
  std::vector<std::string> inputs;
  std::string output;
  std::array<int64_t, kNumLabels> sizes{};  // 0 for unused labels

  int64_t size_of(char label) const { return sizes[label_index(label)]; }
  int64_t size_of(std::string_view term) const;  // product of the term's label sizes
  std::string input_subscripts() const;          // "ij,jk"
};

// Parses `subscripts` for operands of the given shapes. Throws ValueError with the dialect's
// messages for every malformed subscript, wrong label count or size mismatch.
EinsumExpression parse_einsum(std::string_view subscripts, std::span<const Shape> shapes, EinsumDialect dialect);

}  // namespace cuarray::einsum_detail
