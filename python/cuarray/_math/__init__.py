"""NumPy's mathematical functions beyond the ufuncs: products and einsum, comparisons over whole
arrays, polynomials, convolution, finite differences and integrals, and the small compositions."""
