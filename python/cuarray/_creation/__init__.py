"""Array creation and host<->device conversion; arrays from files, buffers and text; vander and
mask_indices; window functions."""
