"""User kernels: ElementwiseKernel, ReductionKernel, RawKernel/RawModule, fuse, vectorize, memoize."""
