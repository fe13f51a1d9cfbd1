"""cupy.RawKernel and cupy.RawModule: user CUDA code compiled and launched as it is.

The work is C++ (include/cuarray/raw_kernel.hpp): compiling through cuarray's disk cache, loading
once per device, converting the arguments and launching on cuarray's launch path. This file checks
the constructor arguments as CuPy does and picks the current device's kernel.
"""
from .. import _core

_BACKENDS = ("nvrtc", "nvcc")


def _check_common(backend, jitify):
    if backend not in _BACKENDS:
        raise ValueError(f"Invalid backend {backend}")
    if jitify:
        raise NotImplementedError(
            "jitify=True is not supported by cuarray: Jitify's header preprocessing is not available; "
            "NVRTC already finds the CUDA toolkit's headers, so compile without jitify")


class RawModule:
    """User CUDA C++ code (``code=``) or a compiled file (``path=``: .cubin, .ptx, .fatbin; a .cu file
    is compiled like ``code``). Compiled on first use on each device, through cuarray's caches."""

    def __init__(self, *, code=None, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("Exactly one of `code` and `path` keyword arguments must be given.")
        if isinstance(code, bytes):
            code = code.decode("UTF-8")
        if isinstance(path, bytes):
            path = path.decode("UTF-8")
        options = tuple(options)
        if name_expressions is not None:
            if code is None:
                raise ValueError("need CUDA C++ code for the requested kernels")
            if backend != "nvrtc":
                raise ValueError("only nvrtc supports retrieving the mangled names for the given name expressions")
            if not any("-std=c++" in option for option in options):
                raise ValueError("need to specify C++ standard for compiling template code")
            name_expressions = tuple(name_expressions)
        if jitify and code is None:
            raise ValueError("Jitify does not support precompiled objects")
        _check_common(backend, jitify)
        self.code = code
        self.file_path = path
        self.options = options
        self.backend = backend
        # cuComplex.h is among the toolkit headers NVRTC is given, so code using it compiles as it
        # is; CuPy's translation to Thrust's complex computes the same values.
        self.translate_cucomplex = translate_cucomplex
        self.enable_cooperative_groups = enable_cooperative_groups
        self.name_expressions = name_expressions
        self.jitify = jitify
        if code is not None:
            self._module = _core._RawModule.from_source(code, list(options), backend, enable_cooperative_groups,
                                                        list(name_expressions or ()))
        else:
            self._module = _core._RawModule.from_file(path, list(options), backend, enable_cooperative_groups)

    def compile(self, log_stream=None):
        """Compiles (or finds in the caches) and loads the module on the current device."""
        self._module.compile()

    def get_function(self, name):
        """The kernel `name`: one of the name expressions, else an ``extern "C"`` name."""
        kernel = RawKernel.__new__(RawKernel)
        kernel._init_from(self, name)
        kernel._function()  # compiled and looked up now: a wrong name fails here, as in CuPy
        return kernel

    def get_global(self, name):
        """A uint8 cuarray array over the bytes of the module's ``__device__``/``__constant__``
        variable `name` on the current device; ``.view(dtype)`` gives it its type."""
        return self._module.get_global(name)


class RawKernel:
    """A user ``__global__`` function from CUDA C++ source, launched as ``kernel(grid, block, args)``."""

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False, *,
                 enable_cooperative_groups=False, jitify=False):
        module = RawModule(code=code, options=options, backend=backend, translate_cucomplex=translate_cucomplex,
                           enable_cooperative_groups=enable_cooperative_groups, jitify=jitify)
        self._init_from(module, name)

    def _init_from(self, module, name):
        self._raw_module = module
        self.code = module.code
        self.name = name
        self.options = module.options
        self.backend = module.backend
        self.translate_cucomplex = module.translate_cucomplex
        self.enable_cooperative_groups = module.enable_cooperative_groups
        self.jitify = module.jitify
        self.file_path = module.file_path
        self.name_expressions = module.name_expressions
        self._functions = {}  # by device

    def _function(self):
        device = _core.get_current_device()
        f = self._functions.get(device)
        if f is None:
            f = self._functions[device] = self._raw_module._module.get_function(self.name)
        return f

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        """Launches on `stream` (default: the current stream) with `shared_mem` bytes of dynamic
        shared memory; grid and block are ints or tuples of up to three."""
        if stream is None:
            self._function().launch(grid, block, args, shared_mem)
        else:
            with stream:
                self._function().launch(grid, block, args, shared_mem)

    def compile(self, log_stream=None):
        """Compiles (or finds in the caches) and loads the kernel on the current device."""
        self._function()

    @property
    def kernel(self):
        return self._function()

    @property
    def attributes(self):
        """cuFuncGetAttribute's values under CuPy's names."""
        return self._function().attributes()

    max_threads_per_block = property(lambda self: self.attributes["max_threads_per_block"])
    shared_size_bytes = property(lambda self: self.attributes["shared_size_bytes"])
    const_size_bytes = property(lambda self: self.attributes["const_size_bytes"])
    local_size_bytes = property(lambda self: self.attributes["local_size_bytes"])
    num_regs = property(lambda self: self.attributes["num_regs"])
    ptx_version = property(lambda self: self.attributes["ptx_version"])
    binary_version = property(lambda self: self.attributes["binary_version"])
    cache_mode_ca = property(lambda self: self.attributes["cache_mode_ca"])

    @property
    def max_dynamic_shared_size_bytes(self):
        return self.attributes["max_dynamic_shared_size_bytes"]

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, bytes):
        self._function().set_max_dynamic_shared_size_bytes(bytes)

    @property
    def preferred_shared_memory_carveout(self):
        return self.attributes["preferred_shared_memory_carveout"]

    @preferred_shared_memory_carveout.setter
    def preferred_shared_memory_carveout(self, percent):
        self._function().set_preferred_shared_memory_carveout(percent)
