"""Selections, index functions (take, choose, put, ...) and index tricks (mgrid, r_, ...)."""
