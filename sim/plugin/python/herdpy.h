/* herdpy.h - the Python side of the adapter (runtime.py), as cffi's
 * embedding API: build.py hands these lines to ffi.embedding_api, adapter.c
 * includes them.  Declarations only (cffi parses them). */
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
