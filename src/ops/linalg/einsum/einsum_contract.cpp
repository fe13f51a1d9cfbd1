#include "ops/linalg/einsum/einsum_contract.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "cuarray/products.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray::einsum_detail {
namespace {

bool has(LabelSet set, char label) { return set >> label_index(label) & 1; }

// The positions of `labels` in `within` (each present once).
std::vector<int64_t> positions(std::string_view labels, std::string_view within) {
  std::vector<int64_t> p;
  for (char c : labels) p.push_back(static_cast<int64_t>(within.find(c)));
  return p;
}

// x's distinct labels that are in `keep`, in x's order.
std::string labels_kept(std::string_view labels, LabelSet keep) {
  std::string kept;
  for (char c : labels)
    if (has(keep, c) && kept.find(c) == std::string::npos) kept += c;
  return kept;
}

int64_t product(const Shape& shape, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

}  // namespace

NDArray reduce_to(const LabeledArray& x, std::string_view out) {
  // Repeated labels: one dim whose stride is the sum of theirs walks the diagonal.
  std::string distinct;
  Shape shape;
  Strides strides;
  for (size_t d = 0; d < x.labels.size(); ++d) {
    size_t at = distinct.find(x.labels[d]);
    if (at == std::string::npos) {
      distinct += x.labels[d];
      shape.push_back(x.array.shape()[d]);
      strides.push_back(x.array.strides()[d]);
    } else {
      strides[at] += x.array.strides()[d];
    }
  }
  NDArray v = distinct.size() == x.labels.size() ? x.array : x.array.view_as(shape, strides, x.array.raw_data());
  const LabelSet keep = label_set(out);
  Axes summed;
  std::string left;
  for (size_t d = 0; d < distinct.size(); ++d) {
    if (has(keep, distinct[d])) left += distinct[d];
    else summed.push_back(static_cast<int64_t>(d));
  }
  if (!summed.empty()) {
    static const Reduction& sum = *Reduction::find("sum");
    v = reduce(sum, v, std::span<const int64_t>(summed.data(), summed.size()), v.dtype());
  }
  if (left == out) return v;
  std::vector<int64_t> perm = positions(out, left);
  return v.transpose(perm);
}

NDArray contract_pair(const LabeledArray& a, const LabeledArray& b, std::string_view out) {
  const LabelSet in_a = label_set(a.labels), in_b = label_set(b.labels), in_out = label_set(out);
  // Labels only one operand has and the result drops are summed before the product.
  const std::string ka = labels_kept(a.labels, in_b | in_out), kb = labels_kept(b.labels, in_a | in_out);
  NDArray ra = reduce_to(a, ka), rb = reduce_to(b, kb);
  const LabelSet kept_a = label_set(ka), kept_b = label_set(kb);
  const LabelSet summed = kept_a & kept_b & ~in_out;

  if (!summed) {
    // Outer and Hadamard products: both in out's label order, unit dims where a label is absent.
    auto in_out_order = [&](const NDArray& r, const std::string& labels) {
      std::string ordered;
      for (char c : out)
        if (labels.find(c) != std::string::npos) ordered += c;
      NDArray t = ordered == labels ? r : r.transpose(positions(ordered, labels));
      const LabelSet present = label_set(ordered);
      Shape shape;
      for (size_t i = 0, j = 0; i < out.size(); ++i) shape.push_back(has(present, out[i]) ? t.shape()[j++] : 1);
      return t.reshape(shape);
    };
    return multiply(in_out_order(ra, ka), in_out_order(rb, kb));
  }

  // (batch..., M, K) @ (batch..., K, N): batch and kept labels in out's order, the rows from the
  // operand whose kept labels come first in out so that the product is already laid out as out.
  const LabelSet batch = kept_a & kept_b & in_out;
  std::string batch_labels, rows_a, cols_b, sum_labels;
  for (char c : out) {
    if (has(batch, c)) batch_labels += c;
    else if (has(kept_a, c)) rows_a += c;
    else if (has(kept_b, c)) cols_b += c;
  }
  for (char c : ka)
    if (has(summed, c)) sum_labels += c;
  const bool swap = !rows_a.empty() && !cols_b.empty() && out.find(cols_b[0]) < out.find(rows_a[0]);
  const NDArray& left = swap ? rb : ra;
  const NDArray& right = swap ? ra : rb;
  const std::string& left_labels = swap ? kb : ka;
  const std::string& right_labels = swap ? ka : kb;
  const std::string& rows = swap ? cols_b : rows_a;
  const std::string& cols = swap ? rows_a : cols_b;

  // A summed label of size 1 in one operand broadcasts against the other's.
  std::array<int64_t, kNumLabels> sum_size{};
  for (char c : sum_labels)
    sum_size[label_index(c)] = std::max(ra.shape()[ka.find(c)], rb.shape()[kb.find(c)]);
  auto matrix = [&](const NDArray& r, const std::string& labels, const std::string& g0, const std::string& g1) {
    const std::string order = batch_labels + g0 + g1;
    NDArray t = r.transpose(positions(order, labels));
    const size_t nb = batch_labels.size();
    Shape full = t.shape();
    for (size_t i = nb; i < full.size(); ++i)
      if (has(summed, order[i])) full[i] = sum_size[label_index(order[i])];
    if (full != t.shape()) t = t.broadcast_to(full);
    Shape grouped(t.shape().begin(), t.shape().begin() + nb);
    grouped.push_back(product(t.shape(), nb, nb + g0.size()));
    grouped.push_back(product(t.shape(), nb + g0.size(), t.shape().size()));
    return t.reshape(grouped);
  };
  NDArray p = matmul(matrix(left, left_labels, rows, sum_labels), matrix(right, right_labels, sum_labels, cols));

  // Split M and N back into their labels' dims (a view of the contiguous product).
  Shape split(p.shape().begin(), p.shape().end() - 2);
  for (char c : rows) split.push_back(left.shape()[left_labels.find(c)]);
  for (char c : cols) split.push_back(right.shape()[right_labels.find(c)]);
  NDArray r = p.reshape(split);
  const std::string produced = batch_labels + rows + cols;
  return produced == out ? r : r.transpose(positions(out, produced));
}

}  // namespace cuarray::einsum_detail
