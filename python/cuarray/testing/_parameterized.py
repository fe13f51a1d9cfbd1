"""CuPy's test-class parameters (cupy.testing.product, product_dict, parameterize): each dict of
parameters becomes attributes of the test class's instances, one run of every test per dict.

A unittest.TestCase subclass is copied once per dict, as CuPy does: the copies, named
`<Class>_param_<i>_{<parameters>}`, are put in the class's module and the decorator returns None,
so that only the copies are collected. Any other class gets a parametrized autouse pytest fixture
that sets the attributes, so pytest's ids name the parameters."""
import itertools
import sys
import unittest

import numpy


def product(parameter):
    """Every combination of a dict of lists: {'a': [1, 2], 'b': [3]} -> [{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]."""
    keys = sorted(parameter)
    return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k] for k in keys))]


def product_dict(*parameters):
    """Every combination of one dict from each list of dicts, merged."""
    return [{k: v for d in dicts for k, v in d.items()} for dicts in itertools.product(*parameters)]


def _short(value):
    if isinstance(value, type):
        return value.__name__
    if isinstance(value, numpy.dtype):
        return value.name
    return repr(value)


def _describe(parameters):
    return ", ".join(f"{k}={_short(v)}" for k, v in parameters.items())


def parameterize(*params, _ids=True):
    """A class decorator: the class's tests run once with each dict of params as attributes."""
    def decorate(cls):
        if issubclass(cls, unittest.TestCase):
            module = sys.modules[cls.__module__]
            for i, parameters in enumerate(params):
                name = f"{cls.__name__}_param_{i}" + (f"_{{{_describe(parameters)}}}" if _ids else "")
                setattr(module, name, type(name, (cls,), {**parameters, "__module__": cls.__module__,
                                                          "__qualname__": name}))
            return None
        import pytest

        def set_parameters(self, request):
            for key, value in request.param.items():
                setattr(self, key, value)
        # One fixture per decorator, so that stacked parameterize decorators multiply.
        fixture_name = f"_cuarray_parameters_{sum(n.startswith('_cuarray_parameters_') for n in dir(cls))}"
        set_parameters.__name__ = fixture_name
        ids = [_describe(p) for p in params] if _ids else None
        setattr(cls, fixture_name, pytest.fixture(autouse=True, params=list(params), ids=ids)(set_parameters))
        return cls
    return decorate
