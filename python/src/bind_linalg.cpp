// numpy.linalg's decompositions and solvers (cuarray/linalg.hpp). Arguments arrive as cuarray
// arrays; cuarray/linalg/_decompositions.py and _solvers.py convert them and build NumPy's
// namedtuples.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string_view.h>

#include <string>

#include "bindings.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

// The results a routine was not asked for are default NDArrays (0-d, no buffer): None.
nb::object wrap_optional(NDArray&& a) {
  return a.buffer() || a.ndim() > 0 ? wrap(std::move(a)) : nb::none();
}

}  // namespace

void bind_linalg(nb::module_& m) {
  nb::module_ la = m.def_submodule("linalg", "numpy.linalg's decompositions and solvers on cuSOLVER");
  la.def("cholesky", [](nb::handle a, bool upper) { return wrap(linalg::cholesky(array_of(a), upper)); });
  la.def("qr", [](nb::handle a, std::string_view mode) {
    std::optional<linalg::QrMode> parsed = linalg::qr_mode_from_name(mode);
    if (!parsed) throw_error(ErrorKind::Value, "Unrecognized mode '" + std::string(mode) + "'");
    linalg::QrResult r = linalg::qr(array_of(a), *parsed);
    return nb::make_tuple(wrap(std::move(r.first)), wrap_optional(std::move(r.second)));
  });
  la.def("eigh", [](nb::handle a, std::string_view uplo, bool compute_vectors) {
    if (uplo != "L" && uplo != "U") throw_error(ErrorKind::Value, "UPLO argument must be 'L' or 'U'");
    linalg::EigResult r = linalg::eigh(array_of(a), uplo[0], compute_vectors);
    return nb::make_tuple(wrap(std::move(r.eigenvalues)), wrap_optional(std::move(r.eigenvectors)));
  });
  la.def("eig", [](nb::handle a, bool compute_vectors, bool real_when_all_real) {
    linalg::EigResult r = linalg::eig(array_of(a), compute_vectors, real_when_all_real);
    return nb::make_tuple(wrap(std::move(r.eigenvalues)), wrap_optional(std::move(r.eigenvectors)));
  });
  la.def("svd", [](nb::handle a, bool full_matrices, bool compute_uv, bool hermitian) {
    linalg::SvdResult r = linalg::svd(array_of(a), full_matrices, compute_uv, hermitian);
    return nb::make_tuple(wrap_optional(std::move(r.u)), wrap(std::move(r.s)), wrap_optional(std::move(r.vh)));
  });
  la.def("inv", [](nb::handle a, bool raise_singular) { return wrap(linalg::inv(array_of(a), raise_singular)); },
         nb::arg("a"), nb::arg("raise_singular") = true);
  la.def("solve", [](nb::handle a, nb::handle b) { return wrap(linalg::solve(array_of(a), array_of(b))); });
  la.def("det", [](nb::handle a) { return wrap(linalg::det(array_of(a))); });
  la.def("slogdet", [](nb::handle a) {
    linalg::SlogdetResult r = linalg::slogdet(array_of(a));
    return nb::make_tuple(wrap(std::move(r.sign)), wrap(std::move(r.logabsdet)));
  });
  la.def("pinv", [](nb::handle a, nb::handle rcond, bool hermitian) {
    return wrap(linalg::pinv(array_of(a), array_of(rcond), hermitian));
  });
  la.def("lstsq", [](nb::handle a, nb::handle b, std::optional<double> rcond) {
    linalg::LstsqResult r = linalg::lstsq(array_of(a), array_of(b), rcond);
    return nb::make_tuple(wrap(std::move(r.x)), wrap(std::move(r.residuals)), r.rank, wrap(std::move(r.s)));
  }, nb::arg("a"), nb::arg("b"), nb::arg("rcond").none());
  la.def("set_error_checks", &linalg::set_error_checks);
  la.def("error_checks", &linalg::error_checks);
  la.def("force_routine", [](std::string_view operation, std::string_view routine) {
    linalg::force_routine(operation, routine);
  });
}

}  // namespace cuarray::py
