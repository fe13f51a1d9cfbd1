"""CuPy's fix_random: a test (function, method or TestCase class) runs with Python's, NumPy's and
cuarray's global random generators seeded alike every time (99, 100 and 101, CuPy's seeds), and the
generators are given back as they were afterwards."""
import functools
import random
import unittest

import numpy

import cuarray


def _seed():
    """Seeds the three generators; returns what restores them."""
    saved = random.getstate(), numpy.random.get_state(), cuarray.random.get_random_state()
    random.seed(99)
    numpy.random.seed(100)
    cuarray.random.set_random_state(cuarray.random.RandomState(101))  # a fresh one: the saved one is untouched
    return saved


def _restore(saved):
    python_state, numpy_state, cuarray_state = saved
    random.setstate(python_state)
    numpy.random.set_state(numpy_state)
    cuarray.random.set_random_state(cuarray_state)


def fix_random():
    """A decorator for a test function or a unittest.TestCase class (its setUp and tearDown)."""
    def decorator(target):
        if isinstance(target, type) and issubclass(target, unittest.TestCase):
            set_up, tear_down = target.setUp, target.tearDown

            def setUp(self):
                self._cuarray_random_states = _seed()
                set_up(self)

            def tearDown(self):
                try:
                    tear_down(self)
                finally:
                    _restore(self._cuarray_random_states)
            target.setUp, target.tearDown = setUp, tearDown
            return target

        @functools.wraps(target)
        def test_func(*args, **kwargs):
            saved = _seed()
            try:
                return target(*args, **kwargs)
            finally:
                _restore(saved)
        return test_func
    return decorator
