"""NVRTC compile errors and the compile entry point used by RawKernel and the tests."""
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
        f.write(f"NVRTC compilation of {self.name} failed:\n{self._msg}\n{self.source}\n")


def compile_to_cubin(source, name="kernel", arch="sm_90"):
    """CUDA C++ to CUBIN for `arch`; needs NVRTC but no GPU."""
    return _core.compile_to_cubin(source, name, arch)
