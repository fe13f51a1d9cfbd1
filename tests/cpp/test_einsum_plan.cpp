// einsum's host side, no GPU needed: the subscript parser (ellipsis, implicit output, repeated
// labels, broadcasting of size-1 labels) with both of NumPy's error dialects, and the planner's
// paths and reports against numpy.einsum_path's, character for character
// (fixtures/einsum_paths.inc, written by tools/gen_einsum_path_cases.py).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuarray/einsum.hpp"
#include "cuarray/errors.hpp"
#include "expect_error.hpp"
#include "ops/linalg/einsum/einsum_planner.hpp"
#include "ops/linalg/einsum/einsum_subscripts.hpp"

using namespace cuarray;
using namespace cuarray::einsum_detail;
using cuarray::test::expect_error;

namespace {

struct PathCase {
  const char* subscripts;
  std::vector<Shape> shapes;
  const char* mode;
  int64_t memory_limit;
  const char* path;    // Python's repr of path[1:]
  const char* report;  // "" where '...' makes NumPy's labels vary
};

const PathCase kPathCases[] = {
#include "fixtures/einsum_paths.inc"
};

std::string path_repr(const std::vector<std::vector<int64_t>>& path) {
  std::string s = "[";
  for (size_t i = 0; i < path.size(); ++i) {
    s += i ? ", (" : "(";
    for (size_t j = 0; j < path[i].size(); ++j) s += (j ? ", " : "") + std::to_string(path[i][j]);
    s += path[i].size() == 1 ? ",)" : ")";
  }
  return s + "]";
}

EinsumExpression parse(const char* subscripts, std::vector<Shape> shapes, EinsumDialect dialect) {
  return parse_einsum(subscripts, shapes, dialect);
}

}  // namespace

TEST(EinsumPlan, PathsAndReportsMatchNumPy) {
  for (const PathCase& c : kPathCases) {
    EinsumOptimize optimize;
    optimize.kind = std::string(c.mode) == "greedy" ? EinsumOptimize::Kind::Greedy : EinsumOptimize::Kind::Optimal;
    if (c.memory_limit >= 0) optimize.memory_limit = c.memory_limit;
    EinsumPath p = einsum_path(c.subscripts, c.shapes, optimize);
    EXPECT_EQ(path_repr(p.path), c.path) << c.subscripts << " " << c.mode << " " << c.memory_limit;
    if (*c.report) EXPECT_EQ(p.report, c.report) << c.subscripts << " " << c.mode;
  }
}

TEST(EinsumPlan, ExplicitPathIsFollowed) {
  std::vector<Shape> shapes{{5, 2}, {2, 3}, {3, 4}};
  EinsumOptimize given{EinsumOptimize::Kind::Explicit, std::nullopt, {{0, 1}, {0, 1}}};
  EinsumPath p = einsum_path("ij,jk,kl->il", shapes, given);
  EXPECT_EQ(path_repr(p.path), "[(0, 1), (0, 1)]");
  ASSERT_EQ(p.contractions.size(), 2u);
  // Positions are popped largest first; an intermediate's labels sort by (size, label), as NumPy's.
  EXPECT_EQ(p.contractions[0].equation, "jk,ij->ki");
  EXPECT_EQ(p.contractions[1].equation, "ki,kl->il");
  EinsumOptimize short_path{EinsumOptimize::Kind::Explicit, std::nullopt, {{0, 1}}};
  try {
    einsum_path("ij,jk,kl->il", shapes, short_path);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "Invalid einsum_path is specified: 1 more operands has to be contracted.");
  }
  EinsumOptimize bad_position{EinsumOptimize::Kind::Explicit, std::nullopt, {{0, 7}, {0, 1}}};
  expect_error(ErrorKind::Index, "pop index out of range", [&] { einsum_path("ij,jk,kl->il", shapes, bad_position); });
}

TEST(EinsumPlan, OptimizeNoneIsOneContraction) {
  std::vector<Shape> shapes{{5, 2}, {2, 3}, {3, 4}};
  EinsumPath p = einsum_path("ij,jk,kl->il", shapes, {});
  EXPECT_EQ(path_repr(p.path), "[(0, 1, 2)]");
  EXPECT_EQ(p.contractions[0].equation, "kl,jk,ij->il");
}

TEST(EinsumParse, ImplicitOutputAndEllipsis) {
  for (EinsumDialect d : {EinsumDialect::CEinsum, EinsumDialect::Path}) {
    EinsumExpression e = parse("ij,jk", {{2, 3}, {3, 4}}, d);
    EXPECT_EQ(e.output, "ik");
    EXPECT_EQ(e.size_of('j'), 3);
    EXPECT_EQ(parse("ba", {{2, 3}}, d).output, "ab");
    EXPECT_EQ(parse("ii", {{3, 3}}, d).output, "");
    EXPECT_EQ(parse("Ba,a", {{2, 3}, {3}}, d).output, "B");  // upper case sorts first
    EXPECT_EQ(parse("i j , j k", {{2, 3}, {3, 4}}, d).output, "ik");
    // '...' takes the last free labels, aligned from the right across operands.
    EinsumExpression b = parse("...ij,...jk", {{5, 1, 2, 3}, {7, 3, 4}}, d);
    EXPECT_EQ(b.inputs[0], "yzij");
    EXPECT_EQ(b.inputs[1], "zjk");
    EXPECT_EQ(b.output, "yzik");
    EXPECT_EQ(b.size_of('z'), 7);  // 1 broadcasts against 7
    EXPECT_EQ(parse("...->...", {{}}, d).output, "");
    EXPECT_EQ(parse("i...->", {{2, 3}}, EinsumDialect::Path).output, "");
    EXPECT_EQ(parse("ij,jk", {{2, 1}, {3, 4}}, d).size_of('j'), 3);
  }
}

TEST(EinsumParse, CEinsumErrorsAreNumPys) {
  const EinsumDialect c = EinsumDialect::CEinsum;
  auto check = [&](const char* subscripts, std::vector<Shape> shapes, const char* message) {
    expect_error(ErrorKind::Value, message, [&] { parse(subscripts, shapes, c); });
  };
  check("ij,jk", {{2, 3}}, "more operands provided to einstein sum function than specified in the subscripts string");
  check("ij", {{2, 3}, {3, 4}}, "fewer operands provided to einstein sum function than specified in the subscripts string");
  check("ij->ii", {{2, 3}}, "einstein sum subscripts string includes output subscript 'i' multiple times");
  check("ij->k", {{2, 3}}, "einstein sum subscripts string included output subscript 'k' which never appeared in an input");
  check("i", {{2, 3}}, "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                       "provided to broadcast the extra dimensions.");
  check("ijk", {{2, 3}}, "einstein sum subscripts string contains too many subscripts for operand 0");
  check("i.j", {{2, 3}}, "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand 0");
  check("...i...", {{2, 3}}, "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand 0");
  check("ij-k", {{2, 3}}, "einstein sum subscript string does not contain proper '->' output specified");
  check("ij->->", {{2, 3}}, "invalid subscript '-' in einstein sum subscripts string, subscripts must be letters");
  check("i$", {{2, 3}}, "invalid subscript '$' in einstein sum subscripts string, subscripts must be letters");
  check("ii", {{2, 3}}, "dimensions in operand 0 for collapsing index 'i' don't match (2 != 3)");
  check("...ij", {{3}}, "einstein sum subscripts string contains too many subscripts for operand 0");
  check("ij->i,j", {{2, 3}}, "invalid subscript ',' in einstein sum subscripts string, subscripts must be letters");
  check("...i->i", {{2, 3}}, "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                             "provided to broadcast the extra dimensions.");
  try {
    parse("ij,jk->ik", {{2, 3}, {2, 3}}, c);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Value);
    EXPECT_EQ(std::string(e.what()).rfind("operands could not be broadcast together with remapped shapes", 0), 0u);
  }
}

TEST(EinsumParse, PathErrorsAreNumPys) {
  const EinsumDialect p = EinsumDialect::Path;
  auto check = [&](const char* subscripts, std::vector<Shape> shapes, const char* message) {
    expect_error(ErrorKind::Value, message, [&] { parse(subscripts, shapes, p); });
  };
  check("ij,jk", {{2, 3}}, "Number of einsum subscripts must be equal to the number of operands.");
  check("ij->ii", {{2, 3}}, "Output character i appeared more than once in the output.");
  check("ij->k", {{2, 3}}, "Output character k did not appear in the input");
  check("i", {{2, 3}}, "Einstein sum subscript i does not contain the correct number of indices for operand 0.");
  check("ij,ijk", {{2, 3}, {2, 3}}, "Einstein sum subscript j does not contain the correct number of indices for operand 1.");
  check("ij,jk->ik", {{2, 3}, {2, 3}}, "Size of label 'j' for operand 1 (3) does not match previous terms (2).");
  check("i.j", {{2, 3}}, "Invalid Ellipses.");
  check("ij-k", {{2, 3}}, "Subscripts can only contain one '->'.");
  check("ij->->", {{2, 3}}, "Subscripts can only contain one '->'.");
  check("i$", {{2, 3}}, "Character $ is not a valid symbol.");
  check("ii", {{2, 3}}, "Size of label 'i' for operand 0 (2) does not match previous terms (3).");
  check("...ij", {{3}}, "Ellipses lengths do not match.");
  check("ij->i,j", {{2, 3}}, "Output character , did not appear in the input");
}
