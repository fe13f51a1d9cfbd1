"""The wrapper of a test that fills some of its arguments itself (the array module, a dtype, an
order): it keeps the test's name and docstring, and its signature loses those parameters, so that
pytest looks for no fixture of those names and the other fixtures still reach the test."""
import functools
import inspect
import sys
import unittest


def fills(impl, *names):
    """A decorator for a wrapper of impl that passes impl the keyword arguments `names`."""
    def decorate(wrapper):
        functools.update_wrapper(wrapper, impl)
        signature = inspect.signature(impl)
        # A set __signature__ also stops inspect.signature (and so pytest) from unwrapping to impl.
        wrapper.__signature__ = signature.replace(
            parameters=[p for p in signature.parameters.values() if p.name not in names])
        return wrapper
    return decorate


def skip_exceptions():
    """The exceptions that skip a test: unittest's, and pytest's where pytest is running."""
    outcomes = sys.modules.get("_pytest.outcomes")
    return (unittest.SkipTest,) + ((outcomes.Skipped,) if outcomes is not None else ())
