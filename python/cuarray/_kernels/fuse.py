"""cuarray.fuse: traces a function over cuarray arrays and scalars, once per signature, and runs the
ufunc calls it makes as one ElementwiseKernel, or as one ReductionKernel when it ends in a
reduction (docs/user_kernels.md, "fuse"). Each ufunc call is written into the kernel from the
ufunc table's own loop expression, with the loop NumPy 2 picks (ufunc.resolve_dtypes, weak Python
scalars included), so results and dtypes are the unfused function's. What cannot be fused runs
the function unfused."""
import functools
import re
import threading
import warnings

import numpy as _np

from .. import _core
from .user_kernels import ElementwiseKernel, ReductionKernel


class FusionFallbackWarning(UserWarning):
    """A fused function ran unfused for one signature (given once per signature)."""


class _Unfusable(Exception):
    """Raised while tracing by what fuse cannot express; the function then runs unfused."""


_WEAK = {int: int, float: float, complex: complex}  # Python scalars are weak (NEP 50); bool is not
_PY_DTYPE = {bool: _np.dtype(bool), int: _np.dtype(_np.int64), float: _np.dtype(_np.float64),
             complex: _np.dtype(_np.complex128)}
_SAMPLE = {int: 0, float: 0.0, complex: 0j}  # np.result_type treats Python values as weak


def _ctype(dtype):
    return _core._kernel_type_name(dtype)


class _Var:
    """A value while tracing: a kernel parameter or the result of one recorded operation."""

    _constant = None  # the Python or NumPy value of a constant in the function's code
    __array_ufunc__ = None  # NumPy scalars and arrays defer to our operators (np.float32(2) * x)

    def __init__(self, graph, name, dtype, ndim, weak=None):
        self._graph, self._name, self.dtype, self.ndim, self._weak = graph, name, dtype, ndim, weak
        self._reduced = False

    # What only the arrays' values or shapes decide cannot be traced.
    def __bool__(self):
        raise _Unfusable('the function branches on an array value')

    def __getattr__(self, name):
        if name.startswith('__'):  # protocols (__array__, ...) stay absent
            raise AttributeError(name)
        raise _Unfusable('attribute %r of a traced array' % name)

    def __getitem__(self, key):
        raise _Unfusable('indexing a traced array')

    def __setitem__(self, key, value):
        raise _Unfusable('assigning into a traced array')

    def astype(self, dtype, order='K', casting=None, subok=None, copy=True):
        return self._graph.cast(self, _np.dtype(dtype))

    def _reduce(self, kind, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        if dtype is not None or out is not None or kwargs:
            raise _Unfusable('%s with dtype=, out=, initial= or where=' % kind)
        return self._graph.reduce(self, kind, axis, keepdims)

    def sum(self, *args, **kwargs):
        return self._reduce('sum', *args, **kwargs)

    def prod(self, *args, **kwargs):
        return self._reduce('prod', *args, **kwargs)

    def max(self, axis=None, out=None, keepdims=False, **kwargs):
        return self._reduce('max', axis, None, out, keepdims, **kwargs)

    def min(self, axis=None, out=None, keepdims=False, **kwargs):
        return self._reduce('min', axis, None, out, keepdims, **kwargs)

    def any(self, axis=None, out=None, keepdims=False, **kwargs):
        return self._reduce('any', axis, None, out, keepdims, **kwargs)

    def all(self, axis=None, out=None, keepdims=False, **kwargs):
        return self._reduce('all', axis, None, out, keepdims, **kwargs)


def _operator(ufunc_name, reflected=False):
    def op(self, *others):
        args = (others[0], self) if reflected else (self,) + others
        return self._graph.call(_core.ufuncs[ufunc_name], args)
    return op


def _in_place(self, other):
    raise _Unfusable('an in-place operator (the caller\'s array would be written)')


for _dunder, _ufunc in {'add': 'add', 'sub': 'subtract', 'mul': 'multiply', 'truediv': 'divide',
                        'floordiv': 'floor_divide', 'mod': 'remainder', 'pow': 'power', 'and': 'bitwise_and',
                        'or': 'bitwise_or', 'xor': 'bitwise_xor', 'lshift': 'left_shift',
                        'rshift': 'right_shift', 'divmod': 'divmod'}.items():
    setattr(_Var, '__%s__' % _dunder, _operator(_ufunc))
    setattr(_Var, '__r%s__' % _dunder, _operator(_ufunc, reflected=True))
    setattr(_Var, '__i%s__' % _dunder, _in_place)
for _dunder, _ufunc in {'lt': 'less', 'le': 'less_equal', 'gt': 'greater', 'ge': 'greater_equal',
                        'eq': 'equal', 'ne': 'not_equal', 'neg': 'negative', 'pos': 'positive',
                        'abs': 'absolute', 'invert': 'invert'}.items():
    setattr(_Var, '__%s__' % _dunder, _operator(_ufunc))
_Var.__hash__ = object.__hash__


# The kernel's starting value, whether NumPy's reduction has an identity (without one, an empty
# reduction raises), the table ufunc that combines two partial results, and the result dtype of a
# reduction of `dtype` (NumPy's). max/min start from the type's extremes, as cuarray's own do.
def _sum_dtype(dtype):
    if dtype.kind == 'b':
        return _np.dtype(_np.int64)
    if dtype.kind in 'iu' and dtype.itemsize < 8:
        return _np.dtype(_np.int64 if dtype.kind == 'i' else _np.uint64)
    return dtype


_REDUCTIONS = {
    'sum': ('0', True, 'add', _sum_dtype),
    'prod': ('1', True, 'multiply', _sum_dtype),
    'max': ('cuarray::lowest<acc_t>()', False, 'maximum', lambda d: d),
    'min': ('cuarray::highest<acc_t>()', False, 'minimum', lambda d: d),
    'any': ('false', True, 'logical_or', lambda d: _np.dtype(bool)),
    'all': ('true', True, 'logical_and', lambda d: _np.dtype(bool)),
}


class _Graph:
    """The recorded operations: C++ statements over the parameters, one device function per
    distinct ufunc loop (the table's expression), and at most one reduction, at the end."""

    def __init__(self):
        self.params = []       # (_Var, argument index)
        self.functions = {}    # (ufunc name, loop dtypes) -> device function name
        self.lines = []        # statements, in order
        self.deps = {}         # value name -> names it reads
        self.int_checks = []   # (argument index, integer loop dtype, no negative values)
        self.reduction = None
        self._count = 0

    def _fresh(self, dtype, ndim, reads, expr):
        name = '_v%d' % self._count
        self._count += 1
        self.lines.append('%s %s = %s;' % (_ctype(dtype), name, expr))
        self.deps[name] = reads
        return _Var(self, name, dtype, ndim)

    def param(self, index, dtype, ndim, weak):
        v = _Var(self, '_a%d' % index, dtype, ndim, weak)
        self.params.append((v, index))
        self.deps[v._name] = ()
        return v

    def _operand(self, x):
        if isinstance(x, _Var):
            if x._graph is not self:
                raise _Unfusable('a value traced by another fused function')
            if x._reduced:
                raise _Unfusable('an operation after the reduction')
            return x
        return self._constant(x)

    def _constant(self, x):
        """A Python (weak) or NumPy scalar in the function's code, written as an exact literal."""
        if type(x) is bool or isinstance(x, _np.bool_):
            v = _Var(self, 'true' if x else 'false', _np.dtype(bool), 0)
        elif type(x) is int and -2**63 <= x < 2**63:
            v = _Var(self, '((long long)%dLL)' % x, _PY_DTYPE[int], 0, int)
        elif type(x) is float:
            v = _Var(self, '__longlong_as_double(%dLL)' % _np.float64(x).view(_np.int64), _PY_DTYPE[float], 0, float)
        elif isinstance(x, _np.generic) and x.dtype.kind in 'iuf':
            literal = ('((long long)%dLL)' % x if x.dtype.kind == 'i' else '((unsigned long long)%dULL)' % x
                       if x.dtype.kind == 'u' else '__longlong_as_double(%dLL)' % _np.float64(x).view(_np.int64))
            v = _Var(self, 'cuarray_cast<%s>(%s)' % (_ctype(x.dtype), literal), x.dtype, 0)
        else:
            raise _Unfusable('a %s constant' % type(x).__name__)
        v._constant = (x,)
        self.deps[v._name] = ()
        return v

    def _function(self, ufunc, loop):
        key = (ufunc.__name__, tuple(loop))
        name = self.functions.get(key)
        if name is None:
            name = self.functions[key] = '_fuse_%s_%d' % (ufunc.__name__, len(self.functions))
        return name

    def call(self, ufunc, args, kwargs=None):
        if kwargs or len(args) != ufunc.nin:
            raise _Unfusable('%s with keywords or outputs' % ufunc.__name__)
        vs = [self._operand(a) for a in args]
        if all(v._weak for v in vs):
            raise _Unfusable('a ufunc over Python scalars only')
        loop = ufunc.resolve_dtypes(tuple(_WEAK[v._weak] if v._weak else v.dtype for v in vs) + (None,) * ufunc.nout)
        for k, v in enumerate(vs):
            if v._weak is int and loop[k].kind in 'iu':
                if v._constant:  # NumPy's OverflowError or ValueError come from the unfused run
                    value = v._constant[0]
                    info = _np.iinfo(loop[k])
                    if not info.min <= value <= info.max or (ufunc.__name__ == 'power' and k == 1 and value < 0):
                        raise _Unfusable('a Python int out of its loop\'s range')
                    continue
                index = next(i for p, i in self.params if p is v)
                self.int_checks.append((index, loop[k], ufunc.__name__ == 'power' and k == 1))
        fn = self._function(ufunc, loop)
        ndim = max(v.ndim for v in vs)
        outs = []
        for k in range(ufunc.nout):
            name = '_v%d' % self._count
            self._count += 1
            self.lines.append('%s %s;' % (_ctype(loop[ufunc.nin + k]), name))
            self.deps[name] = tuple(v._name for v in vs)
            outs.append(_Var(self, name, loop[ufunc.nin + k], ndim))
        casts = ['cuarray_cast<%s>(%s)' % (_ctype(loop[k]), v._name) for k, v in enumerate(vs)]
        self.lines.append('%s(%s);' % (fn, ', '.join(casts + [o._name for o in outs])))
        return outs[0] if ufunc.nout == 1 else tuple(outs)

    def cast(self, x, dtype):
        v = self._operand(x)
        return self._fresh(dtype, v.ndim, (v._name,), 'cuarray_cast<%s>(%s)' % (_ctype(dtype), v._name))

    def where(self, condition, x, y):
        c, a, b = (self._operand(v) for v in (condition, x, y))
        dtype = _np.result_type(*(_SAMPLE[v._weak] if v._weak else v.dtype for v in (a, b)))
        t = _ctype(dtype)
        return self._fresh(dtype, max(c.ndim, a.ndim, b.ndim), (c._name, a._name, b._name),
                           'cuarray_cast<bool>(%s) ? cuarray_cast<%s>(%s) : cuarray_cast<%s>(%s)'
                           % (c._name, t, a._name, t, b._name))

    def reduce(self, x, kind, axis, keepdims):
        v = self._operand(x)
        if v._weak:
            raise _Unfusable('a reduction of a Python scalar')
        self.reduction = (v, kind, axis, bool(keepdims))
        out = _Var(self, v._name, _REDUCTIONS[kind][3](v.dtype), v.ndim)
        out._reduced = True
        return out

    def used_params(self, outputs):
        """The parameters the outputs read (an unused array must not broadcast the result)."""
        seen, stack = set(), [o._name for o in outputs]
        while stack:
            name = stack.pop()
            if name not in seen:
                seen.add(name)
                stack.extend(self.deps[name])
        return [(p, i) for p, i in self.params if p._name in seen]

    def preamble(self):
        """One device function per ufunc loop: the table's expression over in0.., out0.."""
        parts = []
        for (ufunc_name, loop), fn in self.functions.items():
            ufunc = _core.ufuncs[ufunc_name]
            names = ['in%d' % k for k in range(ufunc.nin)] + ['out%d' % k for k in range(ufunc.nout)]
            decls = ['const %s in%d' % (_ctype(loop[k]), k) for k in range(ufunc.nin)]
            decls += ['%s& out%d' % (_ctype(loop[ufunc.nin + k]), k) for k in range(ufunc.nout)]
            typedefs = ''.join('typedef %s %s_t; ' % (_ctype(t), n) for t, n in zip(loop, names))
            parts.append('__device__ __forceinline__ void %s(%s) {\n  %s\n  %s\n}\n'
                         % (fn, ', '.join(decls), typedefs, ufunc._loop_expr(loop)))
        return ''.join(parts)


def _param_list(params):
    return ', '.join('%s %s' % (p.dtype.name, p._name) for p, _ in params)


class _Plan:
    """A traced signature: the kernel, which arguments it takes, and the scalar checks NumPy's
    value-based errors need (a Python int out of its loop's range, a negative integer power)."""

    def __init__(self, kernel, arg_indices, int_checks, reduction=None, has_identity=True):
        self.kernel, self.arg_indices, self.int_checks, self.reduction = kernel, arg_indices, int_checks, reduction
        self.has_identity = has_identity

    def runs_fused(self, args):
        if not self.has_identity and any(getattr(args[i], 'size', 1) == 0 for i in self.arg_indices):
            return False  # an empty max/min: NumPy's ValueError, from the unfused run
        for index, dtype, no_negative in self.int_checks:
            value = args[index]
            info = _np.iinfo(dtype)
            if not info.min <= value <= info.max or (no_negative and value < 0):
                return False
        return True

    def __call__(self, args):
        inputs = [args[i] for i in self.arg_indices]
        if self.reduction is None:
            return self.kernel(*inputs)
        axis, keepdims = self.reduction
        return self.kernel(*inputs, axis=axis, keepdims=keepdims)


def _kernel_name(name):
    return re.sub(r'\W', '_', name) if re.match(r'[A-Za-z_]', name) else 'fused_' + re.sub(r'\W', '_', name)


def _build(graph, result, name):
    """The kernel for what the trace returned (a value or a tuple of values)."""
    outputs = result if isinstance(result, tuple) else (result,)
    outputs = [graph._operand(o) if not getattr(o, '_reduced', False) else o for o in outputs]
    if not outputs:
        raise _Unfusable('the function returns nothing')
    reduced = [o for o in outputs if o._reduced]
    if reduced and len(outputs) > 1:
        raise _Unfusable('a reduction returned with other values')
    if graph.reduction is not None and not reduced:
        raise _Unfusable('a reduction whose result is not returned')
    used = graph.used_params(outputs)
    if not any(not isinstance(p, _ScalarParam) for p, _ in used):
        raise _Unfusable('no array argument reaches the result')
    in_params = _param_list(used)
    body = '\n'.join(graph.lines)
    indices = [i for _, i in used]
    if not reduced:
        out_params = ', '.join('%s _o%d' % (o.dtype.name, k) for k, o in enumerate(outputs))
        assign = '\n'.join('_o%d = %s;' % (k, o._name) for k, o in enumerate(outputs))
        kernel = ElementwiseKernel(in_params, out_params, body + '\n' + assign, name,
                                   preamble=graph.preamble(), return_tuple=isinstance(result, tuple))
        return _Plan(kernel, indices, graph.int_checks)
    value, kind, axis, keepdims = graph.reduction
    identity, has_identity, combine, result_dtype = _REDUCTIONS[kind]
    out = result_dtype(value.dtype)
    # float16 sums and products accumulate in float32, as cuarray's own reductions do.
    reduce_dtype = _np.dtype(_np.float32) if out == _np.float16 and kind in ('sum', 'prod') else out
    args = ', '.join(p._name for p, _ in used)
    decls = ', '.join('const %s %s' % (_ctype(p.dtype), p._name) for p, _ in used)
    rt = _ctype(reduce_dtype)
    map_fn = '__device__ __forceinline__ %s _fuse_map(%s) {\n%s\nreturn cuarray_cast<%s>(%s);\n}\n' % (
        rt, decls, body, rt, value._name)
    combine_fn = graph._function(_core.ufuncs[combine], (reduce_dtype,) * 3)
    kernel = ReductionKernel(in_params, '%s _o0' % out.name, '_fuse_map(%s)' % args, '_fuse_combine_r(a, b)',
                             '_o0 = cuarray_cast<%s>(a)' % _ctype(out), identity, name,
                             rt.replace('cuarray::', ''),  # reduce_type is a C type, in CuPy's names
                             preamble=graph.preamble() + map_fn +
                             '__device__ __forceinline__ %s _fuse_combine_r(const %s a, const %s b) '
                             '{ %s r; %s(a, b, r); return r; }\n' % (rt, rt, rt, rt, combine_fn))
    return _Plan(kernel, indices, graph.int_checks, (axis, keepdims), has_identity)


class _ScalarParam(_Var):
    """A Python or NumPy scalar argument, passed to the kernel by value."""


def _signature(args, arrays=(_core.ndarray,)):
    """The cache key of a call: each argument's dtype and ndim (arrays) or scalar type; None when
    an argument is neither (the function then runs unfused)."""
    key = []
    for a in args:
        if isinstance(a, arrays):
            key.append(('a', a.dtype, a.ndim))
        elif type(a) in _PY_DTYPE:
            if type(a) is int and not -2**63 <= a < 2**63:
                return None
            key.append(('s', type(a)))
        elif isinstance(a, _np.generic) and a.dtype.kind in 'biufc':
            key.append(('n', a.dtype))
        else:
            return None
    return tuple(key)


_TRACING = []  # the graphs being traced (a fused function may call another)
_TRACE_LOCK = threading.RLock()  # one trace installs and restores the hooks at a time


def _trace_hook(original, dispatch):
    """`original` (a ufunc's __call__ or a cuarray function), sending traced values to `dispatch`."""
    @functools.wraps(original)
    def hooked(*args, **kwargs):
        if _TRACING and any(isinstance(a, _Var) for a in args):
            return dispatch(*args, **kwargs)
        return original(*args, **kwargs)
    return hooked


def _graph_of(args):
    return next(a for a in args if isinstance(a, _Var))._graph


def _hooks():
    import cuarray  # loaded by now: fuse is called through it
    hooks = [(_core.ufunc, '__call__', lambda self, *a, **k: _graph_of(a).call(self, a, k))]
    for kind in _REDUCTIONS:
        for name in {'max': ('max', 'amax'), 'min': ('min', 'amin')}.get(kind, (kind,)):
            hooks.append((cuarray, name, lambda a, *rest, _kind=kind, **k: getattr(a, _kind)(*rest, **k)))
    hooks.append((cuarray, 'where', lambda c, x=None, y=None: _graph_of((c, x, y)).where(c, x, y)))
    return hooks


def _trace(func, signature, name):
    graph = _Graph()
    traced = []
    for index, key in enumerate(signature):
        if key[0] == 'a':
            traced.append(graph.param(index, key[1], key[2], None))
        else:
            dtype = _PY_DTYPE[key[1]] if key[0] == 's' else key[1]
            v = graph.param(index, dtype, 0, _WEAK.get(key[1]) if key[0] == 's' else None)
            v.__class__ = _ScalarParam
            traced.append(v)
    # The ufuncs and cuarray's reductions and where() see traced values only while a trace runs;
    # other calls (other threads included) go to the originals.
    with _TRACE_LOCK:
        hooks = _hooks() if not _TRACING else []  # a nested trace finds them installed
        saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in hooks]
        for (owner, attr, original), (_, _, dispatch) in zip(saved, hooks):
            setattr(owner, attr, _trace_hook(original, dispatch))
        _TRACING.append(graph)
        try:
            result = func(*traced)
        finally:
            _TRACING.pop()
            for owner, attr, original in saved:
                setattr(owner, attr, original)
    return _build(graph, result, name)


class Fusion:
    """A function fused by ``cuarray.fuse``: called like the function; each new signature
    (argument dtypes and ndims, scalar types) is traced once and its kernel kept."""

    def __init__(self, func, kernel_name=None):
        self.func = func
        self.name = _kernel_name(kernel_name or getattr(func, '__name__', 'fused'))
        self._plans = {}
        functools.update_wrapper(self, func)

    def __repr__(self):
        return '<Fusion name=%s>' % self.name

    def _plan(self, args, arrays=(_core.ndarray,)):
        key = _signature(args, arrays)
        if key is None:
            return None
        if key not in self._plans:
            try:
                self._plans[key] = _trace(self.func, key, self.name)
            except _Unfusable as reason:
                warnings.warn('cuarray.fuse: %s runs unfused for this signature: %s' % (self.name, reason),
                              FusionFallbackWarning, stacklevel=3)
                self._plans[key] = None
            except Exception:  # pylint: disable=broad-except
                # NumPy's errors (no loop for a dtype, bool subtract, ...) are raised by the unfused run.
                self._plans[key] = None
        return self._plans[key]

    def kernel(self, *args):
        """The ElementwiseKernel or ReductionKernel these arguments run (traced if new; nothing
        runs), or None where they run unfused. NumPy arrays stand for cuarray arrays of their
        dtype and ndim (so the kernel can be inspected without a GPU)."""
        plan = self._plan(args, (_core.ndarray, _np.ndarray))
        return plan.kernel if plan is not None else None

    def __call__(self, *args):
        plan = self._plan(args)
        if plan is None or not plan.runs_fused(args):
            return self.func(*args)
        return plan(args)

    def clear_cache(self):
        self._plans.clear()


def fuse(*args, **kwargs):
    """``cupy.fuse``: ``@fuse``, ``@fuse()`` or ``@fuse(kernel_name='name')``."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    if args:
        raise TypeError('fuse() takes only the keyword argument kernel_name')
    unknown = set(kwargs) - {'kernel_name'}
    if unknown:
        raise TypeError('fuse() got an unexpected keyword argument %r' % unknown.pop())
    return lambda func: Fusion(func, kwargs.get('kernel_name'))
