"""CUDA graphs made by stream capture (CuPy's cupy.cuda.graph.Graph): ``stream.begin_capture()``,
the work, then ``graph = stream.end_capture()``; ``graph.launch()`` replays the work. The graph
keeps the memory cuarray allocated for the captured work, so arrays made during the capture stay
valid for every replay (docs/graphs.md)."""
from .memory import _stream_ptr


class Graph:
    """An instantiated CUDA graph; made only by ``Stream.end_capture()``."""
    __slots__ = ("_handle",)

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("currently this class cannot be initiated by the user and must be created via "
                                  "stream capture")

    @classmethod
    def _of(cls, handle):
        graph = cls.__new__(cls)
        graph._handle = handle
        return graph

    def launch(self, stream=None):
        """Replays the captured work on ``stream`` (the current stream when None)."""
        self._handle.launch(_stream_ptr(stream))

    def upload(self, stream=None):
        """Uploads the graph's work to the device ahead of its first launch on ``stream``."""
        self._handle.upload(_stream_ptr(stream))
