"""Array manipulation: joining, splitting, tiling, reshaping (manipulation), apply_along_axis,
pad, packbits/unpackbits."""
