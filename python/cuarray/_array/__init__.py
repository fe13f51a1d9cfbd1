"""The array object's Python half: ndarray methods off the hot path, ndarray.flat, DLPack and the CUDA
Array Interface, the Array API entry points, overlap tests, array-type tests, and NumPy calls on
cuarray arguments."""
