#include "ops/linalg/einsum/einsum_planner.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "cuarray/errors.hpp"

namespace cuarray::einsum_detail {
namespace {

// Costs are doubles: NumPy's are Python ints, exact here up to 2^53 flops.
double size_of_set(LabelSet set, const EinsumExpression& e) {
  double n = 1;
  for (; set; set &= set - 1) n *= static_cast<double>(e.sizes[std::countr_zero(set)]);
  return n;
}

double flop_count(LabelSet contraction, bool inner, size_t num_terms, const EinsumExpression& e) {
  double factor = static_cast<double>(std::max<size_t>(1, num_terms - 1)) + (inner ? 1 : 0);
  return size_of_set(contraction, e) * factor;
}

// numpy's _find_contraction: the new term's labels (those still needed elsewhere), the other
// terms with the new one appended, the labels summed away and all labels involved.
struct Contraction {
  LabelSet result = 0;
  std::vector<LabelSet> remaining;
  LabelSet removed = 0;
  LabelSet involved = 0;
};

Contraction find_contraction(const std::vector<int64_t>& positions, const std::vector<LabelSet>& inputs, LabelSet output) {
  Contraction c;
  LabelSet keep = output;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (std::find(positions.begin(), positions.end(), static_cast<int64_t>(i)) != positions.end()) {
      c.involved |= inputs[i];
    } else {
      c.remaining.push_back(inputs[i]);
      keep |= inputs[i];
    }
  }
  c.result = keep & c.involved;
  c.removed = c.involved & ~c.result;
  c.remaining.push_back(c.result);
  return c;
}

// One candidate of the greedy search: NumPy's (sort key, positions, input sets after it).
struct Candidate {
  double neg_removed_size;
  double cost;
  int64_t x, y;
  std::vector<LabelSet> after;
  bool better_than(const Candidate& o) const {
    return neg_removed_size != o.neg_removed_size ? neg_removed_size < o.neg_removed_size : cost < o.cost;
  }
};

std::optional<Candidate> possible_contraction(int64_t x, int64_t y, const std::vector<LabelSet>& inputs,
                                              LabelSet output, const EinsumExpression& e, double memory_limit,
                                              double path_cost, double naive_cost) {
  Contraction c = find_contraction({x, y}, inputs, output);
  const double new_size = size_of_set(c.result, e);
  if (new_size > memory_limit) return std::nullopt;
  const double removed = size_of_set(inputs[x], e) + size_of_set(inputs[y], e) - new_size;
  const double cost = flop_count(c.involved, c.removed != 0, 2, e);
  if (path_cost + cost > naive_cost) return std::nullopt;
  return Candidate{-removed, cost, x, y, std::move(c.remaining)};
}

// numpy's _update_other_results: renumber the candidates that do not touch `best`.
std::vector<Candidate> update_other_results(std::vector<Candidate>& results, const Candidate& best) {
  const int64_t bx = best.x, by = best.y;
  std::vector<Candidate> kept;
  for (Candidate& r : results) {
    if (r.x == bx || r.x == by || r.y == bx || r.y == by) continue;
    const int64_t x = r.x, y = r.y;
    r.after.erase(r.after.begin() + (by - (by > x) - (by > y)));
    r.after.erase(r.after.begin() + (bx - (bx > x) - (bx > y)));
    r.after.insert(r.after.end() - 1, best.after.back());
    r.x = x - (x > bx) - (x > by);
    r.y = y - (y > bx) - (y > by);
    kept.push_back(std::move(r));
  }
  return kept;
}

std::vector<int64_t> all_positions(size_t n) {
  std::vector<int64_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  return p;
}

std::string sorted_by_size(LabelSet set, const EinsumExpression& e) {
  std::string labels;
  for (; set; set &= set - 1) labels += kEinsumSymbols[std::countr_zero(set)];
  // NumPy sorts (size, label) pairs; label order is ASCII, which kEinsumSymbols already is.
  std::stable_sort(labels.begin(), labels.end(), [&](char a, char b) { return e.size_of(a) < e.size_of(b); });
  return labels;
}

// Python's ','.join (empty terms keep their commas).
std::string join(const std::vector<std::string>& terms) {
  std::string s;
  for (size_t i = 0; i < terms.size(); ++i) s += (i ? "," : "") + terms[i];
  return s;
}

std::string format(const char* fmt, auto... args) {
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

}  // namespace

Path greedy_path(const std::vector<LabelSet>& initial, LabelSet output, const EinsumExpression& e,
                 double memory_limit) {
  if (initial.size() == 1) return {{0}};
  if (initial.size() == 2) return {{0, 1}};
  std::vector<LabelSet> inputs = initial;
  const int64_t n = static_cast<int64_t>(inputs.size());
  Contraction all = find_contraction(all_positions(n), inputs, output);
  const double naive_cost = flop_count(all.involved, all.removed != 0, n, e);

  std::vector<Candidate> known;
  double path_cost = 0;
  Path path;
  auto consider = [&](int64_t x, int64_t y) {
    if (auto c = possible_contraction(x, y, inputs, output, e, memory_limit, path_cost, naive_cost))
      known.push_back(std::move(*c));
  };
  for (int64_t iteration = 0; iteration < n - 1; ++iteration) {
    const int64_t count = static_cast<int64_t>(inputs.size());
    if (iteration == 0) {
      for (int64_t x = 0; x < count; ++x)
        for (int64_t y = x + 1; y < count; ++y)
          if (inputs[x] & inputs[y]) consider(x, y);
    } else {  // only pairs with the newest term are new
      for (int64_t x = 0; x < count - 1; ++x)
        if (inputs[x] & inputs[count - 1]) consider(x, count - 1);
    }
    if (known.empty()) {  // nothing shares a label: outer products too
      for (int64_t x = 0; x < count; ++x)
        for (int64_t y = x + 1; y < count; ++y) consider(x, y);
      if (known.empty()) {
        path.push_back(all_positions(count));
        break;
      }
    }
    size_t best_index = 0;
    for (size_t i = 1; i < known.size(); ++i)
      if (known[i].better_than(known[best_index])) best_index = i;
    Candidate best = known[best_index];
    known = update_other_results(known, best);
    inputs = best.after;
    path.push_back({best.x, best.y});
    path_cost += best.cost;
  }
  return path;
}

Path optimal_path(const std::vector<LabelSet>& inputs, LabelSet output, const EinsumExpression& e, double memory_limit) {
  struct Partial {
    double cost;
    Path positions;
    std::vector<LabelSet> remaining;
  };
  auto cheapest = [](const std::vector<Partial>& results) {
    const Partial* best = &results.front();
    for (const Partial& r : results)
      if (r.cost < best->cost) best = &r;
    return best->positions;
  };
  const int64_t n = static_cast<int64_t>(inputs.size());
  std::vector<Partial> full{{0, {}, inputs}};
  for (int64_t iteration = 0; iteration < n - 1; ++iteration) {
    std::vector<Partial> next;
    const int64_t count = n - iteration;
    for (const Partial& current : full) {
      for (int64_t x = 0; x < count; ++x) {
        for (int64_t y = x + 1; y < count; ++y) {
          Contraction c = find_contraction({x, y}, current.remaining, output);
          if (size_of_set(c.result, e) > memory_limit) continue;
          Path positions = current.positions;
          positions.push_back({x, y});
          next.push_back({current.cost + flop_count(c.involved, c.removed != 0, 2, e), std::move(positions),
                          std::move(c.remaining)});
        }
      }
    }
    if (next.empty()) {
      Path path = cheapest(full);
      path.push_back(all_positions(count));
      return path;
    }
    full = std::move(next);
  }
  return cheapest(full);
}

EinsumPath plan_einsum(const EinsumExpression& e, const EinsumOptimize& optimize, bool with_report) {
  const size_t n = e.inputs.size();
  std::vector<LabelSet> input_sets;
  for (const std::string& term : e.inputs) input_sets.push_back(label_set(term));
  const LabelSet output_set = label_set(e.output);
  const LabelSet indices = std::accumulate(input_sets.begin(), input_sets.end(), LabelSet{0}, std::bit_or<>());

  double max_size = static_cast<double>(e.size_of(e.output));
  for (const std::string& term : e.inputs) max_size = std::max(max_size, static_cast<double>(e.size_of(term)));
  const double memory_limit = optimize.memory_limit ? static_cast<double>(*optimize.memory_limit) : max_size;

  using Kind = EinsumOptimize::Kind;
  EinsumPath result;
  if (optimize.kind == Kind::Explicit) {
    result.path = optimize.path;
  } else if (optimize.kind == Kind::None || n <= 2 || indices == output_set) {
    result.path = {all_positions(n)};
  } else if (optimize.kind == Kind::Greedy) {
    result.path = greedy_path(input_sets, output_set, e, memory_limit);
  } else {
    result.path = optimal_path(input_sets, output_set, e, memory_limit);
  }

  std::vector<std::string> terms = e.inputs;
  for (size_t step = 0; step < result.path.size(); ++step) {
    EinsumContraction c;
    c.positions = result.path[step];
    std::sort(c.positions.begin(), c.positions.end(), std::greater<>());
    // Popped one by one, as NumPy's list.pop: a repeated position takes the next term.
    for (size_t i = 0; i < c.positions.size(); ++i)
      if (c.positions[i] < 0 || c.positions[i] >= static_cast<int64_t>(terms.size() - i))
        throw_error(ErrorKind::Index, "pop index out of range");
    Contraction found = find_contraction(c.positions, input_sets, output_set);
    input_sets = found.remaining;
    c.flops = flop_count(found.involved, found.removed != 0, c.positions.size(), e);
    c.scaling = std::popcount(found.involved);
    c.result_size = static_cast<int64_t>(size_of_set(found.result, e));
    std::vector<std::string> taken;
    for (int64_t p : c.positions) {
      taken.push_back(terms[p]);
      terms.erase(terms.begin() + p);
    }
    std::string result_term = step + 1 == result.path.size() ? e.output : sorted_by_size(found.result, e);
    terms.push_back(result_term);
    c.equation = join(taken) + "->" + result_term;
    c.remaining = terms;
    result.contractions.push_back(std::move(c));
  }
  if (terms.size() != 1)
    throw std::runtime_error("Invalid einsum_path is specified: " + std::to_string(terms.size() - 1) +
                             " more operands has to be contracted.");

  result.input_subscripts = e.input_subscripts();
  result.output_subscript = e.output;
  if (!with_report) return result;
  size_t label_total = 0;
  for (const std::string& term : e.inputs) label_total += std::popcount(label_set(term));
  const bool inner_product = label_total > static_cast<size_t>(std::popcount(indices));
  const double naive_cost = flop_count(indices, inner_product, n, e);
  double opt_cost = 1;
  int64_t max_scaling = 0;
  double largest = 0;
  for (const EinsumContraction& c : result.contractions) {
    opt_cost += c.flops;
    max_scaling = std::max(max_scaling, c.scaling);
    largest = std::max(largest, static_cast<double>(c.result_size));
  }
  std::string& r = result.report;
  r += "  Complete contraction:  " + result.input_subscripts + "->" + result.output_subscript + "\n";
  r += format("         Naive scaling:  %d\n", std::popcount(indices));
  r += format("     Optimized scaling:  %lld\n", static_cast<long long>(max_scaling));
  r += format("      Naive FLOP count:  %.3e\n", naive_cost);
  r += format("  Optimized FLOP count:  %.3e\n", opt_cost);
  r += format("   Theoretical speedup:  %3.3f\n", naive_cost / opt_cost);
  r += format("  Largest intermediate:  %.3e elements\n", largest);
  r += std::string(74, '-') + "\n";
  r += format("%6s %24s %40s\n", "scaling", "current", "remaining");
  r += std::string(74, '-');
  for (const EinsumContraction& c : result.contractions) {
    const std::string remaining = join(c.remaining) + "->" + result.output_subscript;
    r += '\n';
    r += format("%4lld    %24s %40s", static_cast<long long>(c.scaling), c.equation.c_str(), remaining.c_str());
  }
  return result;
}

}  // namespace cuarray::einsum_detail

namespace cuarray {

EinsumPath einsum_path(std::string_view subscripts, std::span<const Shape> shapes, const EinsumOptimize& optimize) {
  using namespace einsum_detail;
  return plan_einsum(parse_einsum(subscripts, shapes, EinsumDialect::Path), optimize);
}

}  // namespace cuarray
