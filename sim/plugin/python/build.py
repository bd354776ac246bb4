# build.py - builds herd's Python adapter, herd-python.so, with Debian's
# python3-cffi in embedding mode (run with /usr/bin/python3):
#
#   /usr/bin/python3 sim/plugin/python/build.py OUT_DIR
#
# adapter.c is the C half (the plugin descriptor), runtime.py the Python
# half (cffi's embedding init code); herd_adapters.py is copied to
# OUT_DIR/python/, where the adapter finds it.
import os
import shutil
import sys

import cffi

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.abspath(sys.argv[1])
policy = os.path.join(here, "..", "..", "policy")
ffi = cffi.FFI()
with open(os.path.join(here, "herdpy.h")) as f:
    ffi.embedding_api(f.read())

with open(os.path.join(here, "adapter.c")) as f:
    ffi.set_source("herd_python", f.read(), include_dirs=[policy, here], extra_compile_args=["-std=c11", "-O2"])
with open(os.path.join(here, "runtime.py")) as f:
    ffi.embedding_init_code(f.read())
tmp = os.path.join(out, "python-adapter")
os.makedirs(os.path.join(out, "python"), exist_ok=True)
ffi.compile(tmpdir=tmp, target=os.path.join(out, "herd-python.so"), verbose=False)
shutil.copy(os.path.join(here, "herd_adapters.py"), os.path.join(out, "python", "herd_adapters.py"))
