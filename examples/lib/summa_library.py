"""What every library of `summa-compile --emit=lib` shares, loaded with
ctypes (standard library only): the descriptor its `summa_program` or
`summa_generator` returns, the handle `<prefix>Init` makes of it, errors
through `<prefix>LastError`, `<prefix>Finalize`, and the rank this process
is (`summaRtWorldRank`). The C API is summa/Runtime/SummaModel.h."""

import ctypes
import sys

I64 = ctypes.c_int64
HANDLE = ctypes.c_void_p


class Library:
    """One loaded library: `descriptor` names the function returning its
    descriptor, `prefix` its calls (summaModel, summaGenerator),
    `signatures` {call suffix: (argtypes, restype)} the other calls, each
    taking the handle first (left out of argtypes)."""

    def __init__(self, path, descriptor, prefix, signatures):
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        getattr(lib, descriptor).restype = ctypes.c_void_p
        calls = dict(signatures)
        calls["LastError"] = ([], ctypes.c_char_p)
        calls["Finalize"] = ([], None)
        for suffix, (argtypes, restype) in calls.items():
            call = getattr(lib, prefix + suffix)
            call.argtypes = [HANDLE] + list(argtypes)
            call.restype = restype
        init = getattr(lib, prefix + "Init")
        init.argtypes = [ctypes.c_void_p, I64]
        init.restype = HANDLE
        lib.summaRtWorldRank.restype = I64
        found = getattr(lib, descriptor)()
        if not found:
            sys.exit(f"error: the library {path} and the runtime library disagree")
        self.lib = lib
        self.prefix = prefix
        self.handle = init(found, -1)
        self.rank = lib.summaRtWorldRank()

    def call(self, suffix, *args):
        """`<prefix><suffix>(handle, *args)`; exits with the library's
        message where it returns a nonzero status."""
        status = getattr(self.lib, self.prefix + suffix)(self.handle, *args)
        if status != 0:
            message = getattr(self.lib, self.prefix + "LastError")(self.handle)
            sys.exit("error: " + message.decode())

    def finalize(self):
        getattr(self.lib, self.prefix + "Finalize")(self.handle)
