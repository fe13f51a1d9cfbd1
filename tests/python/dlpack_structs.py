"""DLPack's C structs (dlpack/dlpack.h, ABI 1.x) in ctypes, for the tests: reading the capsules
cuarray produces, and producing capsules cuarray must consume or refuse, with a deleter that
counts its calls."""
import ctypes

kDLCPU, kDLCUDA, kDLCUDAHost, kDLOpenCL, kDLCUDAManaged = 1, 2, 3, 4, 13
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
READ_ONLY, IS_COPIED = 1, 2


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", LEGACY_DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                                     ("deleter", VERSIONED_DELETER), ("flags", ctypes.c_uint64),
                                     ("dl_tensor", DLTensor)]

VERSIONED_NAME, LEGACY_NAME = b"dltensor_versioned", b"dltensor"

_new = ctypes.pythonapi.PyCapsule_New
_new.restype, _new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype, _get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def capsule_name(capsule):
    return _get_name(capsule).decode()


def read_capsule(capsule):
    """(managed struct, DLTensor) of an unconsumed capsule; the capsule still owns them."""
    name = _get_name(capsule)
    pointer = _get_pointer(capsule, name)
    struct = DLManagedTensorVersioned if name == VERSIONED_NAME else DLManagedTensor
    managed = struct.from_address(pointer)
    return managed, managed.dl_tensor


def tensor_shape(t):
    return tuple(t.shape[i] for i in range(t.ndim))


def tensor_strides(t):
    if t.ndim == 0:
        return ()
    return None if not t.strides else tuple(t.strides[i] for i in range(t.ndim))


class FakeTensor:
    """A managed tensor made here, as another library would hand it over: its deleter counts calls.

    Keep the object alive while its capsule may be consumed: it owns the memory the capsule points to.
    """

    def __init__(self, *, versioned=True, device=(kDLCUDA, 0), dtype=(kDLFloat, 32, 1), shape=(3,),
                 strides=None, data=0, version=(1, 0), flags=0):
        self.deleter_calls = 0
        self.versioned = versioned
        self._shape = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self._strides = None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
        if versioned:
            self.managed = DLManagedTensorVersioned()
            self.managed.version = DLPackVersion(*version)
            self.managed.flags = flags
            self._deleter = VERSIONED_DELETER(self._delete)
        else:
            self.managed = DLManagedTensor()
            self._deleter = LEGACY_DELETER(self._delete)
        self.managed.deleter = self._deleter
        t = self.managed.dl_tensor
        t.data = data
        t.device = DLDevice(*device)
        t.ndim = len(shape)
        t.dtype = DLDataType(*dtype)
        t.shape = self._shape
        t.strides = self._strides
        t.byte_offset = 0

    def _delete(self, _pointer):
        self.deleter_calls += 1

    def capsule(self):
        return _new(ctypes.addressof(self.managed), VERSIONED_NAME if self.versioned else LEGACY_NAME, None)


class FakeProducer:
    """An object with __dlpack__ and __dlpack_device__ that records what it was asked."""

    def __init__(self, tensor, device, *, refuse_max_version=False):
        self.tensor, self.device, self.refuse_max_version = tensor, device, refuse_max_version
        self.requests = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, **kwargs):
        self.requests.append(kwargs)
        if self.refuse_max_version and "max_version" in kwargs:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        return self.tensor.capsule()
