"""The ufunc objects and their methods in Python: reduce, at, outer, reduceat, and out= handling."""
