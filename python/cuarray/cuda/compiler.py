"""NVRTC compile errors, the compile entry point used by RawKernel and the tests, and CuPy's older
compile_with_cache."""
import warnings

from .. import _core


class CompileException(Exception):
    """A kernel NVRTC rejected: the message is the compiler log; `source` is the code compiled."""

    def __init__(self, msg, source="", name="", options=()):
        super().__init__(msg)
        self._msg = msg
        self.source = source
        self.name = name
        self.options = options

    def __reduce__(self):
        return type(self), (self._msg, self.source, self.name, self.options)

    def dump(self, f):
        """CuPy's report: the log, the name, the options and the source with line numbers."""
        lines = self.source.split("\n")
        digits = len(str(len(lines)))
        f.write(f"NVRTC compilation error: {self}\n-----\nName: {self.name}\n")
        f.write(f"Options: {' '.join(self.options)}\nCUDA source:\n")
        for number, line in enumerate(lines, 1):
            f.write(f"{number:0{digits}d} {line.rstrip()}\n")
        f.write("-----\n")
        f.flush()


def compile_to_cubin(source, name="kernel", arch="sm_90"):
    """CUDA C++ to CUBIN for `arch`; needs NVRTC but no GPU."""
    return _core.compile_to_cubin(source, name, arch)


def compile_with_cache(source, options=(), arch=None, cache_dir=None, extra_source=None, backend="nvrtc", *,
                       enable_cooperative_groups=False, name_expressions=None, log_stream=None, jitify=False):
    """CuPy's older entry point, deprecated there since v10 and still in programs written for it:
    `source` compiled now for the current device (through cuarray's caches) as a module whose
    get_function(name) gives an ``extern "C"`` kernel or a name expression's. `arch`, `cache_dir`
    and `extra_source` are accepted and unused: cuarray compiles for the device it runs on and keeps
    its own caches."""
    warnings.warn("compile_with_cache is deprecated, as in CuPy: use cuarray.RawModule or cuarray.RawKernel",
                  DeprecationWarning, stacklevel=2)
    from .._kernels.raw_kernel import RawModule
    module = RawModule(code=source, options=tuple(options), backend=backend,
                       enable_cooperative_groups=enable_cooperative_groups, name_expressions=name_expressions,
                       jitify=jitify)
    module.compile(log_stream)
    return module
