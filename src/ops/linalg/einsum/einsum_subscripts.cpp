#include "ops/linalg/einsum/einsum_subscripts.hpp"

#include <algorithm>
#include <cstdio>

#include "cuarray/errors.hpp"

namespace cuarray::einsum_detail {
namespace {

template <class... Args>
[[noreturn]] void value_error(const char* format, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, args...);
  throw_error(ErrorKind::Value, buffer);
}

std::vector<std::string> split(std::string_view s, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == separator) {
      parts.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// Labels the subscripts do not use, in NumPy's symbol order; '...' takes the last ones it needs.
std::string unused_labels(std::string_view subscripts) {
  LabelSet used = label_set(subscripts);
  std::string unused;
  for (int i = 0; i < kNumLabels; ++i)
    if (!(used >> i & 1)) unused += kEinsumSymbols[i];
  return unused;
}

std::string ellipsis_labels(const std::string& unused, int64_t count) {
  if (count > static_cast<int64_t>(unused.size()))
    value_error("too many subscripts in einsum: '...' needs %lld labels, %zu are free", static_cast<long long>(count),
                unused.size());
  return unused.substr(unused.size() - count);
}

// Labels that occur exactly once, in symbol order, without those of `skip` (NumPy's implicit output).
std::string single_labels(const std::vector<std::string>& terms, LabelSet skip) {
  std::array<int, kNumLabels> count{};
  for (const std::string& term : terms)
    for (char c : term) ++count[label_index(c)];
  std::string out;
  for (int i = 0; i < kNumLabels; ++i)
    if (count[i] == 1 && !(skip >> i & 1)) out += kEinsumSymbols[i];
  return out;
}

[[noreturn]] void broadcast_error(std::span<const Shape> shapes) {
  std::string message = "operands could not be broadcast together with remapped shapes [original->remapped]: ";
  for (const Shape& s : shapes) {
    std::string repr = shape_repr(s);
    repr.erase(std::remove(repr.begin(), repr.end(), ' '), repr.end());
    message += repr + " ";
  }
  throw_error(ErrorKind::Value, message);
}

// ---- c_einsum (optimize=False) ----

struct CTerm {
  std::string labels;     // letters only, in order; '\x01' marks where '...' stood
  bool ellipsis = false;
};

CTerm parse_c_term(std::string_view term, int iop, bool output) {
  CTerm t;
  for (size_t i = 0; i < term.size(); ++i) {
    char c = term[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (t.ellipsis || term.substr(i, 3) != "...") {
        if (output) value_error("einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in the output");
        value_error("einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand %d", iop);
      }
      t.ellipsis = true;
      t.labels += '\x01';
      i += 2;
      continue;
    }
    if (label_index(c) < 0)
      value_error("invalid subscript '%c' in einstein sum subscripts string, subscripts must be letters", c);
    t.labels += c;
  }
  return t;
}

// Merges a dim into the label's size: 1 broadcasts, anything else must agree.
bool merge_size(int64_t& size, int64_t dim) {
  if (size == 0 || size == 1) { size = dim; return true; }
  return dim == 1 || dim == size;
}

EinsumExpression parse_c_einsum(std::string_view subscripts, std::span<const Shape> shapes) {
  std::string_view input_part = subscripts, output_part;
  bool explicit_output = false;
  if (size_t arrow = subscripts.find('-'); arrow != std::string_view::npos) {
    if (arrow + 1 >= subscripts.size() || subscripts[arrow + 1] != '>')
      value_error("einstein sum subscript string does not contain proper '->' output specified");
    input_part = subscripts.substr(0, arrow);
    output_part = subscripts.substr(arrow + 2);
    explicit_output = true;
  }
  std::vector<std::string> raw_terms = split(input_part, ',');
  const int nop = static_cast<int>(shapes.size());
  // NumPy's wording: "more operands" when the string names more terms than there are operands.
  if (static_cast<int>(raw_terms.size()) > nop)
    value_error("more operands provided to einstein sum function than specified in the subscripts string");
  if (static_cast<int>(raw_terms.size()) < nop)
    value_error("fewer operands provided to einstein sum function than specified in the subscripts string");

  std::vector<CTerm> terms;
  int64_t broadcast_ndim = 0;
  for (int iop = 0; iop < nop; ++iop) {
    CTerm t = parse_c_term(raw_terms[iop], iop, false);
    const int64_t nlabels = static_cast<int64_t>(t.labels.size()) - (t.ellipsis ? 1 : 0);
    const int64_t ndim = static_cast<int64_t>(shapes[iop].size());
    if (nlabels > ndim) value_error("einstein sum subscripts string contains too many subscripts for operand %d", iop);
    if (!t.ellipsis && nlabels < ndim)
      value_error("operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided "
                  "to broadcast the extra dimensions.");
    if (t.ellipsis) broadcast_ndim = std::max(broadcast_ndim, ndim - nlabels);
    terms.push_back(std::move(t));
  }
  LabelSet input_labels = 0;
  for (const CTerm& t : terms) input_labels |= label_set(t.labels);

  CTerm out;
  if (explicit_output) {
    out = parse_c_term(output_part, -1, true);
    LabelSet seen = 0;
    for (char c : out.labels) {
      if (c == '\x01') continue;
      LabelSet bit = LabelSet{1} << label_index(c);
      if (seen & bit) value_error("einstein sum subscripts string includes output subscript '%c' multiple times", c);
      if (!(input_labels & bit))
        value_error("einstein sum subscripts string included output subscript '%c' which never appeared in an input", c);
      seen |= bit;
    }
    if (!out.ellipsis && broadcast_ndim > 0)
      value_error("output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to "
                  "broadcast the extra dimensions.");
  }

  const std::string ellipsis = ellipsis_labels(unused_labels(subscripts), broadcast_ndim);
  EinsumExpression e;
  for (int iop = 0; iop < nop; ++iop) {
    const Shape& shape = shapes[iop];
    const int64_t own = static_cast<int64_t>(shape.size()) - (static_cast<int64_t>(terms[iop].labels.size()) - 1);
    std::string term;
    for (char c : terms[iop].labels) term += c == '\x01' ? ellipsis.substr(ellipsis.size() - own) : std::string(1, c);
    for (size_t d = 0; d < term.size(); ++d) {
      // A label repeated in one operand must have one size (a diagonal); across operands 1 broadcasts.
      size_t first = term.find(term[d]);
      if (first < d && shape[first] != shape[d])
        value_error("dimensions in operand %d for collapsing index '%c' don't match (%lld != %lld)", iop, term[d],
                    static_cast<long long>(shape[first]), static_cast<long long>(shape[d]));
    }
    e.inputs.push_back(std::move(term));
  }
  for (int iop = 0; iop < nop; ++iop)
    for (size_t d = 0; d < e.inputs[iop].size(); ++d)
      if (!merge_size(e.sizes[label_index(e.inputs[iop][d])], shapes[iop][d])) broadcast_error(shapes);
  if (explicit_output) {
    for (char c : out.labels) e.output += c == '\x01' ? ellipsis : std::string(1, c);
  } else {
    e.output = ellipsis + single_labels(e.inputs, label_set(ellipsis));
  }
  return e;
}

// ---- einsum_path's parser (every optimize= but False) ----

EinsumExpression parse_path_einsum(std::string_view raw, std::span<const Shape> shapes) {
  std::string s;
  for (char c : raw)
    if (c != ' ') s += c;
  for (char c : s)
    if (std::string_view(".,->").find(c) == std::string_view::npos && label_index(c) < 0)
      value_error("Character %c is not a valid symbol.", c);
  std::string input_part = s, output_part;
  bool explicit_output = false;
  if (s.find_first_of("->") != std::string::npos) {
    size_t dashes = std::count(s.begin(), s.end(), '-'), arrows = std::count(s.begin(), s.end(), '>');
    size_t arrow = s.find("->");
    if (dashes > 1 || arrows > 1 || arrow == std::string::npos) value_error("Subscripts can only contain one '->'.");
    input_part = s.substr(0, arrow);
    output_part = s.substr(arrow + 2);
    explicit_output = true;
  }
  std::vector<std::string> terms = split(input_part, ',');
  if (terms.size() != shapes.size()) value_error("Number of einsum subscripts must be equal to the number of operands.");

  std::string out_ellipsis;
  if (s.find('.') != std::string::npos) {
    const std::string unused = unused_labels(s);
    int64_t longest = 0;
    for (size_t num = 0; num < terms.size(); ++num) {
      std::string& term = terms[num];
      if (term.find('.') == std::string::npos) continue;
      size_t at = term.find("...");
      if (std::count(term.begin(), term.end(), '.') != 3 || at == std::string::npos) value_error("Invalid Ellipses.");
      const int64_t ndim = static_cast<int64_t>(shapes[num].size());
      const int64_t count = ndim == 0 ? 0 : std::max<int64_t>(ndim, 1) - (static_cast<int64_t>(term.size()) - 3);
      longest = std::max(longest, count);
      if (count < 0) value_error("Ellipses lengths do not match.");
      term.replace(at, 3, ellipsis_labels(unused, count));
    }
    out_ellipsis = ellipsis_labels(unused, longest);
    if (explicit_output) {
      for (size_t at; (at = output_part.find("...")) != std::string::npos;) output_part.replace(at, 3, out_ellipsis);
    }
  }
  if (!explicit_output) output_part = out_ellipsis + single_labels(terms, label_set(out_ellipsis));

  std::string joined;
  for (size_t i = 0; i < terms.size(); ++i) joined += (i ? "," : "") + terms[i];
  for (char c : output_part) {
    if (std::count(output_part.begin(), output_part.end(), c) != 1)
      value_error("Output character %c appeared more than once in the output.", c);
    if (joined.find(c) == std::string::npos) value_error("Output character %c did not appear in the input", c);
  }

  EinsumExpression e;
  for (size_t tnum = 0; tnum < terms.size(); ++tnum) {
    const Shape& shape = shapes[tnum];
    if (shape.size() != terms[tnum].size()) {
      // NumPy names input_subscripts[tnum], a character of the joined string, not the term.
      const char named = tnum < joined.size() ? joined[tnum] : ' ';
      value_error("Einstein sum subscript %c does not contain the correct number of indices for operand %d.", named,
                  static_cast<int>(tnum));
    }
    for (size_t d = 0; d < shape.size(); ++d) {
      const char c = terms[tnum][d];
      int64_t& size = e.sizes[label_index(c)];
      const int64_t dim = shape[d];
      if (size != 0 && size != 1 && dim != 1 && dim != size)
        value_error("Size of label '%c' for operand %d (%lld) does not match previous terms (%lld).", c,
                    static_cast<int>(tnum), static_cast<long long>(size), static_cast<long long>(dim));
      if (size == 0 || size == 1) size = dim;
    }
  }
  // A ',' or '.' left in the output passes NumPy's text check when the input has one too; no
  // dimension can carry it.
  for (char c : output_part)
    if (label_index(c) < 0) value_error("Output character %c did not appear in the input", c);
  e.inputs = std::move(terms);
  e.output = std::move(output_part);
  return e;
}

}  // namespace

int label_index(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}

LabelSet label_set(std::string_view term) {
  LabelSet set = 0;
  for (char c : term)
    if (int i = label_index(c); i >= 0) set |= LabelSet{1} << i;
  return set;
}

int64_t EinsumExpression::size_of(std::string_view term) const {
  int64_t n = 1;
  for (char c : term) n *= size_of(c);
  return n;
}

std::string EinsumExpression::input_subscripts() const {
  std::string s;
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? "," : "") + inputs[i];
  return s;
}

EinsumExpression parse_einsum(std::string_view subscripts, std::span<const Shape> shapes, EinsumDialect dialect) {
  if (shapes.empty() && dialect == EinsumDialect::CEinsum)
    value_error("must specify the einstein sum subscripts string and at least one operand");
  return dialect == EinsumDialect::CEinsum ? parse_c_einsum(subscripts, shapes) : parse_path_einsum(subscripts, shapes);
}

}  // namespace cuarray::einsum_detail
