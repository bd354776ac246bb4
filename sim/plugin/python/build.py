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
ffi.embedding_api("""
int herdpy_configure(const char *argument, const char *dir, const char *adir, const char *keys, uint64_t *h,
                     uint32_t *nu, char *err, size_t n);
int herdpy_call_start(uint64_t cfg, uint64_t *client, uint64_t *call, double now, uint32_t tool, double deadline);
int herdpy_admit(uint64_t cfg, uint64_t client, uint64_t call, double now, uint32_t attempts);
void herdpy_decide(uint64_t cfg, uint64_t client, uint64_t call, double now, uint32_t attempts, uint32_t retries,
                   uint32_t tool, int outcome, int cls, double retry_after, const double *u, uint32_t nu, int *action,
                   int *reason, double *delay, char *why, size_t n);
void herdpy_finish(uint64_t cfg, uint64_t client, uint64_t call, double now);
void herdpy_client_free(uint64_t cfg, uint64_t client);
void herdpy_release(uint64_t cfg);
""")
with open(os.path.join(here, "adapter.c")) as f:
    ffi.set_source("herd_python", f.read(), include_dirs=[policy], extra_compile_args=["-std=c11", "-O2"])
with open(os.path.join(here, "runtime.py")) as f:
    ffi.embedding_init_code(f.read())
tmp = os.path.join(out, "python-adapter")
os.makedirs(os.path.join(out, "python"), exist_ok=True)
ffi.compile(tmpdir=tmp, target=os.path.join(out, "herd-python.so"), verbose=False)
shutil.copy(os.path.join(here, "herd_adapters.py"), os.path.join(out, "python", "herd_adapters.py"))
