"""Composite operations of cuarray.random (choice, permutation, shuffle, bytes, multinomial,
multivariate_normal, dirichlet, ...): the other part of issue 16 replaces this placeholder.

RandomState and Generator inherit these mixins; they draw only through the classes' NumPy-named
methods and ``_random_bits(shape, dtype)``.
"""


class LegacyComposites:
    """RandomState's composite operations (placeholder)."""


class GeneratorComposites:
    """Generator's composite operations (placeholder)."""
