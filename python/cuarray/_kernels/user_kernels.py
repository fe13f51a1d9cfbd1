"""cuarray.ElementwiseKernel and cuarray.ReductionKernel: CuPy's classes over the C++ user kernels
(cuarray/user_kernels.hpp), which parse the parameters, bind the types and run the bodies on the
elementwise and reduction engines."""
import operator

from .. import _core


class ElementwiseKernel:
    """User-defined elementwise kernel, as ``cupy.ElementwiseKernel``.

    ``in_params``/``out_params`` are CuPy's parameter lists (``'float32 x, T y, raw T z'``);
    ``operation`` is the loop body, which sees the parameters by name, ``i`` (the C-order index)
    and ``_ind.size()``; ``loop_prep``/``after_loop`` run per thread before and after the loop.
    """

    def __init__(self, in_params, out_params, operation, name='kernel', reduce_dims=True, preamble='',
                 no_return=False, return_tuple=False, options=(), loop_prep='', after_loop=''):
        self._kernel = _core._ElementwiseKernel(in_params, out_params, operation, name, bool(reduce_dims),
                                                preamble, [str(o) for o in options], loop_prep, after_loop)
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.name = self.__name__ = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.nin = self._kernel.nin
        self.nout = self._kernel.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, size=None, block_size=None, stream=None, **kwargs):
        """Runs the kernel: inputs, then optionally every output. ``size`` is the loop size
        when every array is raw; ``block_size`` is accepted as CuPy's (the engine picks the
        block); ``stream`` runs the kernel on that stream instead of the current one."""
        if kwargs:
            raise TypeError('Wrong arguments %s' % kwargs)
        if block_size is not None and block_size <= 0:
            raise ValueError('block_size must be greater than zero')
        size = None if size is None or size == -1 else operator.index(size)  # CuPy's default is -1
        if stream is None:
            outs = self._kernel(args, size)
        else:
            with stream:
                outs = self._kernel(args, size)
        if self.no_return:
            return None
        if not self.return_tuple and self.nout == 1:
            return outs[0]
        return tuple(outs)


class ReductionKernel:
    """User-defined reduction kernel, as ``cupy.ReductionKernel``: ``map_expr`` over the inputs,
    ``reduce_expr`` over ``a`` and ``b`` (of ``reduce_type``, seen as ``_type_reduce``),
    ``post_map_expr`` assigning the output from ``a``, starting from ``identity``."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name='reduce_kernel', reduce_type=None, reduce_dims=True, preamble='', options=()):
        self._kernel = _core._ReductionKernel(
            in_params, out_params, map_expr, reduce_expr, post_map_expr,
            None if identity is None else str(identity), name, reduce_type, bool(reduce_dims), preamble,
            [str(o) for o in options])
        self.in_params = in_params
        self.out_params = out_params
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.name = self.__name__ = name
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)
        self.nin = self._kernel.nin
        self.nout = self._kernel.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None, **kwargs):
        """Reduces the inputs over ``axis`` (all axes by default); the output may be given as the
        last positional argument or as ``out=``; ``stream`` runs it on that stream."""
        if kwargs:
            raise TypeError('Wrong arguments %s' % kwargs)
        if len(args) != self.nin and len(args) != self.nargs:
            raise TypeError('Wrong number of arguments for %s' % self.name)
        if len(args) == self.nargs:
            if out is not None:
                raise ValueError("cannot specify 'out' as both a positional and keyword argument")
            out = args[-1]
            args = args[:-1]
        if stream is None:
            return self._kernel(args, out, axis, bool(keepdims))
        with stream:
            return self._kernel(args, out, axis, bool(keepdims))
