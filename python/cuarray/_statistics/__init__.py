"""Reductions and scans over the C++ engines, and the statistics built on them: average, cov and
corrcoef, histograms."""
