/*
 * loader.h - retry plugins (herdpolicy/plugin.h) loaded, checked and
 * configured: dlopen outside libherdpolicy, which stays pure.  Between
 * the policy library and the scenario: sim/scenario validates and
 * compiles `plugin` keys through it, the model runs what it loaded, herd
 * plugin check tests one.
 */
#ifndef HERD_PLUGIN_LOADER_H
#define HERD_PLUGIN_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "../policy/herdpolicy/plugin.h"

#define HPL_ERR_MAX 512
#define HPL_SPEC_MAX 512

/* One configured plugin: the descriptor and its configuration block, read
 * only once loaded (shared by every job that uses it).  Lives until
 * hpl_unload_all. */
typedef struct hpl_instance {
    const hp_plugin *desc;
    void *config;               /* desc->config_size bytes (at least 1) */
    uint32_t n_uniforms;        /* per decision, as configure left it */
    char spec[HPL_SPEC_MAX];    /* as written: PATH.so or python:MODULE:OBJECT */
    char path[HPL_SPEC_MAX];    /* the shared object opened */
    char dir[HPL_SPEC_MAX];     /* the scenario's folder */
    char *keys;                 /* "KEY=VALUE\n" lines, as configured */
    void *dl;
} hpl_instance;

/* Loads spec (a shared object's path, relative to dir when not absolute,
 * or python:MODULE:OBJECT for the Python adapter), checks it (the
 * handshake, hp_plugin_check; the undefined symbols, hpl_scan_symbols),
 * and configures it with keys ("KEY=VALUE\n" lines; every key must be
 * read by the plugin).  The same (spec, dir, keys) gives the same
 * instance.  Returns it, or NULL with a one-line message in err (the key
 * at fault first when it is a plugin.KEY). */
const hpl_instance *hpl_load(const char *spec, const char *dir, const char *keys, char err[static HPL_ERR_MAX]);

/* Scans the dynamic symbol table of the ELF shared object at path for
 * undefined symbols the determinism contract forbids (clocks, random
 * functions, thread creation).  0 when none, 1 with the first into err,
 * -1 when the file is not a readable 64-bit ELF (err says why). */
int hpl_scan_symbols(const char *path, char err[static HPL_ERR_MAX]);

/* The Python adapter's path into out: $HERD_PYTHON_PLUGIN, else beside
 * the executable (build/herd-python.so in the source tree) or
 * <exe dir>/../lib/herd/herd-python.so installed.  0, or -1 with err. */
int hpl_python_adapter(char out[static HPL_SPEC_MAX], char err[static HPL_ERR_MAX]);

/* 1 if some loaded instance's plugin is not reentrant (its jobs then run
 * one at a time). */
int hpl_any_not_reentrant(void);

/* Releases every instance (at exit). */
void hpl_unload_all(void);

#endif
