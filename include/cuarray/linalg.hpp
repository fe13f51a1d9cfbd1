// numpy.linalg's decompositions and solvers on cuSOLVER (docs/linalg_solvers.md).
//
// Every function takes a stack of matrices (..., M, N) as NumPy 2 does, size-0 ones included, and
// computes in the input's precision: bool and integers in float64, float32/float64/complex64/
// complex128 as they are; float16 is refused as NumPy refuses it (TypeError "array type float16 is
// unsupported in linalg"). Results are C-contiguous, with NumPy's shapes and dtypes. Work is queued
// on the current stream; the host waits only to read cuSOLVER's status words (see error_checks()).
//
// Errors are NumPy's: ErrorKind::LinAlg (numpy.linalg.LinAlgError) for an input of fewer than two
// dimensions ("1-dimensional array given. Array must be at least two-dimensional"), a non-square
// matrix where one is needed ("Last 2 dimensions of the array must be square"), a singular matrix
// (inv, solve: "Singular matrix"), one that is not positive definite (cholesky), and a failed
// iteration ("SVD did not converge", "Eigenvalues did not converge").
#pragma once
#include <optional>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray::linalg {

// ---- decompositions ----
// numpy.linalg.cholesky(a, upper=upper): L with a = L @ L^H (or U with a = U^H @ U), reading only
// the lower (upper) triangle of a.
NDArray cholesky(const NDArray& a, bool upper = false);

enum class QrMode { Reduced, Complete, R, Raw };
std::optional<QrMode> qr_mode_from_name(std::string_view name);  // "reduced", "complete", "r", "raw"
// numpy.linalg.qr: (Q, R) for Reduced/Complete, (R, empty) for R, (h, tau) for Raw, where h is
// (..., N, M) with the Householder reflectors below its transposed diagonal, as LAPACK leaves them.
struct QrResult {
  NDArray first, second;
};
QrResult qr(const NDArray& a, QrMode mode = QrMode::Reduced);

// numpy.linalg.eigh / eigvalsh: eigenvalues ascending (the real dtype), eigenvectors as columns.
// uplo is 'L' or 'U' (ValueError otherwise). eigenvectors is empty when !compute_vectors.
struct EigResult {
  NDArray eigenvalues, eigenvectors;
};
EigResult eigh(const NDArray& a, char uplo = 'L', bool compute_vectors = true);
// numpy.linalg.eig / eigvals: complex results (NumPy 2.5's rule). With real_when_all_real, a real
// input whose eigenvalues are all real gives real ones (the rule of NumPy 2.0-2.4; deciding it reads
// the eigenvalues on the host, as unpacking a real input's eigenvectors does anyway).
EigResult eig(const NDArray& a, bool compute_vectors = true, bool real_when_all_real = false);

// numpy.linalg.svd: U (..., M, M or K), S (..., K) descending in the real dtype, Vh (..., N or K, N),
// K = min(M, N); U and Vh are empty when !compute_uv.
struct SvdResult {
  NDArray u, s, vh;
};
// hermitian: a is taken as Hermitian and factored through eigh, as NumPy does (U from the
// eigenvectors ordered by |w| descending, Vh carrying w's signs).
SvdResult svd(const NDArray& a, bool full_matrices = true, bool compute_uv = true, bool hermitian = false);

// ---- solvers and determinants ----
// raise_singular=false leaves a singular matrix's inverse as the inf/NaN the solve gives (what
// numpy.linalg.cond relies on) instead of raising LinAlgError.
NDArray inv(const NDArray& a, bool raise_singular = true);
// numpy.linalg.solve: b is a vector stack (..., M) only when it is 1-D (NumPy 2); otherwise
// (..., M, K), its batch dimensions broadcast with a's.
NDArray solve(const NDArray& a, const NDArray& b);
NDArray det(const NDArray& a);
struct SlogdetResult {
  NDArray sign, logabsdet;
};
SlogdetResult slogdet(const NDArray& a);

// ---- least squares (SVD and cuBLAS products) ----
// numpy.linalg.pinv: singular values at or below rcond * max(s) count as zero; rcond broadcasts
// against the stack's batch dimensions. An empty matrix gives an empty (..., N, M) of a's dtype.
NDArray pinv(const NDArray& a, const NDArray& rcond, bool hermitian = false);
// numpy.linalg.lstsq for 2-D a and 1-D or 2-D b: (x, residuals, rank, s). rcond defaults to the
// computing precision's eps * max(M, N). residuals are the squared 2-norms of each column of
// b - a x when rank == N < M, else empty. Reads the rank on the host.
struct LstsqResult {
  NDArray x, residuals;
  int64_t rank;
  NDArray s;
};
LstsqResult lstsq(const NDArray& a, const NDArray& b, std::optional<double> rcond = std::nullopt);

// ---- checks of cuSOLVER's status words ----
// On by default: a routine that can fail on the data (a singular or indefinite matrix, a
// non-converging iteration) copies its status words to pinned host memory and waits for an event
// behind them on the current stream (never for the whole device) before it returns, and raises
// NumPy's LinAlgError. Off (set_error_checks(false), or CUARRAY_LINALG_ERROR_CHECKS=0 at start),
// nothing waits and such results hold inf/NaN, as CuPy's do.
void set_error_checks(bool enabled);
bool error_checks();

// ---- routine choice (docs/linalg_solvers.md) ----
// The cuSOLVER routine each operation uses is chosen from a table by dtype, size and stack count.
// force_routine(operation, routine) overrides the table for one operation ("svd": "gesvd",
// "gesvdj", "gesvdp", "gesvdj_batched"; "eigh": "syevd", "syev_batched"; "lu" (inv, solve, det, slogdet):
// "getrf", "getrf_batched") so benchmarks can time every
// candidate; an empty routine restores the table. ValueError for a name it does not know.
void force_routine(std::string_view operation, std::string_view routine);

}  // namespace cuarray::linalg
