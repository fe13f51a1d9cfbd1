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
