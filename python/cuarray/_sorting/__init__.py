"""Sorting, searching, order statistics and set operations over the C++ radix sort."""
