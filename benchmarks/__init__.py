"""Side-by-side benchmarks of cuarray, CuPy and NumPy.

Run with ``python -m benchmarks.run``; docs/benchmarks.md says what each case measures.
CuPy and cuarray are imported lazily by the harness, so any of them may be missing.
"""
