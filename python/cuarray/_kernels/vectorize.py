"""cuarray.vectorize: a Python function of scalars compiled into one elementwise kernel.

The function's source is parsed (ast) and the few constructs that cannot be traced with values
standing in for arrays are rewritten into calls that can:

- ``a if c else b`` becomes ``where(c, a, b)`` (both sides are computed, as in any SIMT kernel);
- ``and``/``or``/``not`` become ``logical_and``/``logical_or``/``logical_not``;
- a chained comparison ``a < b < c`` becomes ``logical_and(a < b, b < c)``;
- ``if``/``elif``/``else`` statements and the returns inside them are predicated (_Predicate):
  both branches run, assignments keep the old value where their condition is false, returns
  record their value where they are taken first.

The rewritten function runs in a namespace where ``math``'s functions and constants, ``numpy``
and the builtins ``abs``, ``min``, ``max``, ``int``, ``float``, ``bool``, ``complex`` are cuarray's
ufuncs and casts; local variables, arithmetic, comparisons and loops with fixed trip counts are
ordinary Python that runs once, at trace time. The trace is cuarray.fuse's (_fuse._trace): each
ufunc call is written into the kernel with the loop NumPy 2 picks, so types follow NumPy's rules
for the arrays given (every argument is made an array first, as numpy.vectorize does).

What cannot be compiled (a ``while`` on an element's value, a loop under an ``if``, a call to an
unknown function, indexing, a ``math`` function without a ufunc) raises TypeError naming the
reason; nothing falls back to running the function on the host.
"""
import ast
import builtins
import inspect
import math
import textwrap
import types

import numpy as _np

from .. import _core
from . import fuse as _fuse
from .._ufunc import ufuncs as _ufuncs
from .._creation.creation import asarray

__all__ = ["vectorize"]


class _Rewrite(ast.NodeTransformer):
    """The value-dependent constructs of Python expressions as calls of elementwise functions."""

    @staticmethod
    def _call(name, args):
        return ast.Call(func=ast.Attribute(value=ast.Name(id="__cuarray_vectorize__", ctx=ast.Load()),
                                           attr=name, ctx=ast.Load()), args=args, keywords=[])

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return self._call("where", [node.test, node.body, node.orelse])

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        name = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        result = node.values[0]
        for value in node.values[1:]:
            result = self._call(name, [result, value])
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return self._call("logical_not", [node.operand])
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1:
            return node
        operands = [node.left] + node.comparators
        parts = [ast.Compare(left=operands[k], ops=[op], comparators=[operands[k + 1]])
                 for k, op in enumerate(node.ops)]
        result = parts[0]
        for part in parts[1:]:
            result = self._call("logical_and", [result, part])
        return result


class _CannotCompile(Exception):
    """A construct the rewrite cannot express; vectorize reports it as a TypeError."""


def _helper(name, args):
    return _Rewrite._call(name, args)


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _assign(target, value):
    return ast.Assign(targets=[_name(target, store=True)], value=value, lineno=0)


class _Predicate:
    """``if`` statements and returns as predicated straight-line code. Both branches of an
    ``if`` run; an assignment under a condition keeps the old value where the condition is false
    (``x = where(c, new, x)``); a return under a condition records its value where the condition
    holds and no earlier return happened. This is what a SIMT kernel does with a branch on an
    element's value."""

    RET, DONE = "__cuarray_ret__", "__cuarray_done__"

    def __init__(self, params):
        self.bound = set(params)
        self.count = 0
        self.returns = False  # a return has been recorded (DONE and RET exist)

    def _and(self, a, b):
        if a is None or b is None:
            return b if a is None else a
        return _helper("logical_and", [a, b])

    def _active(self, pred):
        """Where a statement under `pred` takes effect: pred, and no return taken yet."""
        return self._and(pred, _helper("logical_not", [_name(self.DONE)]) if self.returns else None)

    def _store(self, target, value, pred, out):
        active = self._active(pred)
        if active is None or target not in self.bound:
            out.append(_assign(target, value))
        else:
            out.append(_assign(target, _helper("where", [active, value, _name(target)])))
        self.bound.add(target)

    def block(self, stmts, pred, out):
        for stmt in stmts:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                self._store(stmt.targets[0].id, stmt.value, pred, out)
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                value = ast.BinOp(left=_name(stmt.target.id), op=stmt.op, right=stmt.value)
                self._store(stmt.target.id, value, pred, out)
            elif isinstance(stmt, ast.If):
                cond = "__cuarray_cond%d__" % self.count
                self.count += 1
                out.append(_assign(cond, stmt.test))
                self.block(stmt.body, self._and(pred, _name(cond)), out)
                self.block(stmt.orelse, self._and(pred, _helper("logical_not", [_name(cond)])), out)
            elif isinstance(stmt, ast.Return):
                if stmt.value is None or isinstance(stmt.value, ast.Tuple):
                    raise _CannotCompile("a return of nothing or of a tuple inside an if statement")
                active = self._active(pred)
                if not self.returns:
                    out.append(_assign(self.RET, stmt.value))
                    out.append(_assign(self.DONE, ast.Constant(True) if pred is None else pred))
                    self.returns = True
                else:
                    out.append(_assign(self.RET, _helper("where", [active, stmt.value, _name(self.RET)])))
                    out.append(_assign(self.DONE, _helper("logical_or", [_name(self.DONE), active])))
                if pred is None:
                    return  # what follows an unconditional return never runs
            elif isinstance(stmt, (ast.Expr, ast.Pass)):
                out.append(stmt)
            elif pred is None and not self.returns and not any(isinstance(n, (ast.If, ast.Return))
                                                               for n in ast.walk(stmt)):
                out.append(stmt)  # loops with fixed trip counts and the like run while tracing
            else:
                raise _CannotCompile("a %s under an if statement or after a conditional return"
                                     % type(stmt).__name__.lower())


def _predicated(node):
    """node (a FunctionDef) with its if statements predicated, when it has any."""
    if not any(isinstance(n, ast.If) for n in ast.walk(node)):
        return node
    args = node.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    predicate = _Predicate(params)
    body = []
    predicate.block(node.body, None, body)
    if predicate.returns:
        body.append(ast.Return(value=_name(_Predicate.RET)))
    node.body = body
    return node


def _traced(*args):
    return any(isinstance(a, _fuse._Var) for a in args)


def _cast(python_type, dtype):
    def cast(value=0, *args):
        if isinstance(value, _fuse._Var) and not args:
            return value.astype(dtype)
        return python_type(value, *args)
    return cast


def _extremum(ufunc, python_builtin):
    def pick(*args, **kwargs):
        if kwargs or len(args) < 2 or not _traced(*args):
            return python_builtin(*args, **kwargs)
        result = args[0]
        for a in args[1:]:
            result = ufunc(result, a)
        return result
    return pick


def _math_function(name, ufunc):
    """math.<name> as its ufunc on traced values; on plain numbers (constants of the function)
    math's own, evaluated once while tracing."""
    host = getattr(math, name)

    def call(*args):
        return ufunc(*args) if _traced(*args) else host(*args)
    call.__name__ = name
    return call


def _math_log(x, base=None):
    if not _traced(x, base):
        return math.log(x) if base is None else math.log(x, base)
    return _ufuncs.log(x) if base is None else _ufuncs.log(x) / _math_log(base)


# math's functions as ufuncs (math.pow is power: NumPy's types, not always float64).
_MATH_UFUNCS = {
    "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
    "atan2": "arctan2", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "exp": "exp", "exp2": "exp2", "expm1": "expm1",
    "log10": "log10", "log2": "log2", "log1p": "log1p", "sqrt": "sqrt", "cbrt": "cbrt", "pow": "power",
    "fabs": "fabs", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "hypot": "hypot",
    "copysign": "copysign", "fmod": "fmod", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
    "degrees": "degrees", "radians": "radians", "ldexp": "ldexp", "nextafter": "nextafter",
}
_MATH_CONSTANTS = ("pi", "e", "tau", "inf", "nan")


class _Unsupported:
    """A math function with no ufunc: calling it while tracing is a compile error."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise _fuse._Unfusable("math.%s has no elementwise GPU equivalent" % self.name)


def _math_namespace():
    ns = types.SimpleNamespace()
    for name in dir(math):
        if not name.startswith("_"):
            setattr(ns, name, _Unsupported(name))
    for name, ufunc in _MATH_UFUNCS.items():
        if hasattr(math, name):  # exp2 and cbrt arrived in Python 3.11
            setattr(ns, name, _math_function(name, _core.ufuncs[ufunc]))
    ns.log = _math_log
    for name in _MATH_CONSTANTS:
        setattr(ns, name, getattr(math, name))
    return ns


def _helpers():
    """The calls the rewrite inserts; on constants alone, Python's own operations."""
    import cuarray

    def where(c, a, b):
        if not _traced(c, a, b):
            return a if c else b
        return cuarray.where(c, a, b)

    def logical(ufunc, python):
        return lambda *args: ufunc(*args) if _traced(*args) else python(*args)
    return types.SimpleNamespace(where=where, logical_and=logical(_ufuncs.logical_and, lambda a, b: a and b),
                                 logical_or=logical(_ufuncs.logical_or, lambda a, b: a or b),
                                 logical_not=logical(_ufuncs.logical_not, lambda a: not a))


def _lambda_node(func, source):
    """The lambda of func in its source lines: the longest expression from each `lambda` that
    parses, whose parameters are func's; the source must hold exactly one such lambda."""
    code = func.__code__
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = {}
    start = source.find("lambda")
    while start >= 0:
        for end in range(len(source), start, -1):
            try:
                expr = ast.parse(source[start:end].strip(), mode="eval").body
            except SyntaxError:
                continue
            if isinstance(expr, ast.Lambda) and [a.arg for a in expr.args.args + expr.args.kwonlyargs] == params:
                found[ast.dump(expr)] = expr
            break
        start = source.find("lambda", start + 1)
    if len(found) != 1:
        raise TypeError("cuarray.vectorize cannot tell which lambda of its source line to compile; use a def")
    node = next(iter(found.values()))
    return ast.FunctionDef(name="__cuarray_lambda__", args=node.args, body=[ast.Return(value=node.body)],
                           decorator_list=[], returns=None, type_comment=None, type_params=[])


def _function_node(func):
    """The def or lambda of func, parsed from its source."""
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError) as e:
        raise TypeError("cuarray.vectorize needs the source of %r to compile it" % (func,)) from e
    if func.__name__ == "<lambda>":
        return _lambda_node(func, source)
    defs = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == func.__name__]
    if not defs:
        raise TypeError("cuarray.vectorize could not find the definition of %s in its source" % func.__name__)
    node = defs[0]
    node.decorator_list = []
    return node


def _compile(func):
    """func rewritten (see the module's docstring) and bound in the tracing namespace."""
    try:
        node = _predicated(_Rewrite().visit(_function_node(func)))
    except _CannotCompile as reason:
        raise TypeError("cuarray.vectorize cannot compile %s into a kernel: %s" % (func.__name__, reason)) from None
    module = ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[]))
    math_ns, helpers = _math_namespace(), _helpers()
    import cuarray
    namespace = dict(func.__globals__)
    if func.__closure__:  # free variables become globals of the recompiled function (their values now)
        for name, cell in zip(func.__code__.co_freevars, func.__closure__):
            namespace[name] = cell.cell_contents
    math_functions = {getattr(math, n): getattr(math_ns, n) for n in dir(math)
                      if not n.startswith("_") and callable(getattr(math, n))}
    for name, value in list(namespace.items()):
        if value is math:
            namespace[name] = math_ns
        elif value is _np:
            namespace[name] = cuarray
        elif callable(value) and not isinstance(value, type):
            try:
                replacement = math_functions.get(value)
            except TypeError:  # unhashable
                replacement = None
            if replacement is not None:
                namespace[name] = replacement
    namespace.update(abs=builtins.abs, min=_extremum(_ufuncs.minimum, builtins.min),
                     max=_extremum(_ufuncs.maximum, builtins.max), int=_cast(int, _np.int64),
                     float=_cast(float, _np.float64), bool=_cast(bool, _np.bool_),
                     complex=_cast(complex, _np.complex128), __cuarray_vectorize__=helpers)
    exec(compile(module, inspect.getsourcefile(func) or "<vectorize>", "exec"), namespace)  # noqa: S102
    compiled = namespace[node.name]
    compiled.__defaults__ = func.__defaults__
    return compiled


class vectorize:
    """``cupy.vectorize``: the function, applied elementwise with broadcasting, as one kernel.

    ``otypes`` casts the outputs (a string of type codes or a list of dtypes). ``excluded``,
    ``cache`` and ``signature`` are not supported (NotImplementedError, as in CuPy).
    """

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if excluded is not None:
            raise NotImplementedError("cuarray.vectorize does not support `excluded` option currently")
        if cache:
            raise NotImplementedError("cuarray.vectorize does not support `cache` option currently")
        if signature is not None:
            raise NotImplementedError("cuarray.vectorize does not support `signature` option currently")
        self.pyfunc = pyfunc
        self.otypes = otypes if otypes is None or isinstance(otypes, str) else \
            "".join(_np.dtype(t).char for t in otypes)
        self.excluded, self.cache, self.signature = excluded, cache, signature
        self.__doc__ = pyfunc.__doc__ if doc is None else doc
        self.__name__ = getattr(pyfunc, "__name__", "vectorized")
        self._compiled = None
        self._plans = {}

    def kernel(self, *args):
        """The ElementwiseKernel these arguments (cuarray or NumPy arrays) run; nothing runs."""
        hosts = [a if isinstance(a, (_core.ndarray, _np.ndarray)) else _np.asarray(a) for a in args]
        key = _fuse._signature(hosts, (_core.ndarray, _np.ndarray))
        return self._plan_for_key(key).kernel

    def _plan_for_key(self, key):
        if key not in self._plans:
            if self._compiled is None:
                self._compiled = _compile(self.pyfunc)
            name = _fuse._kernel_name("vectorize_" + self.__name__.strip("<>"))
            try:
                self._plans[key] = _fuse._trace(self._compiled, key, name)
            except _fuse._Unfusable as reason:
                raise TypeError("cuarray.vectorize cannot compile %s into a kernel: %s"
                                % (self.__name__, reason)) from None
            except (TypeError, AttributeError, NameError) as e:
                raise TypeError("cuarray.vectorize cannot compile %s into a kernel: %s: %s"
                                % (self.__name__, type(e).__name__, e)) from e
        return self._plans[key]

    def __call__(self, *args):
        if not args:
            raise TypeError("vectorize needs at least one argument")
        arrays = [asarray(a) for a in args]  # numpy.vectorize makes every argument an array
        outs = self._plan_for_key(_fuse._signature(arrays))(arrays)
        if self.otypes:
            if isinstance(outs, tuple):
                return tuple(o.astype(t, copy=False) for o, t in zip(outs, self.otypes))
            return outs.astype(self.otypes[0], copy=False)
        return outs
