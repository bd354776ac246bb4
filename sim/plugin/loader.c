/*
 * loader.c - retry plugins loaded (dlopen), checked (the handshake, the
 * undefined symbols) and configured, once per (spec, folder, keys); see
 * loader.h.  Instances are kept in a list behind a mutex until
 * hpl_unload_all: a configuration is read only once configure returned,
 * so every job (thread) shares it.
 */
#include "loader.h"

#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>

#include "../base/alloc.h"

#define HPL_MAX_INSTANCES 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hpl_instance *loaded[HPL_MAX_INSTANCES];
static size_t nloaded;

/* ---- the undefined-symbol scan ---- */

/* What a plugin may not import: clocks, random functions, thread creation
 * (the determinism contract: time and randomness come from herd). */
static const char *const forbidden[] = {
    "rand", "rand_r", "srand", "random", "srandom", "random_r", "srandom_r", "initstate", "setstate",
    "drand48", "erand48", "lrand48", "nrand48", "mrand48", "jrand48", "srand48", "seed48", "lcong48",
    "drand48_r", "lrand48_r", "mrand48_r", "arc4random", "arc4random_uniform", "arc4random_buf",
    "getrandom", "getentropy", "clock_gettime", "clock_getres", "clock", "gettimeofday", "time", "ftime",
    "timespec_get", "times", "getrusage", "pthread_create", "thrd_create", "fork", "vfork", "clone",
    "posix_spawn", "system", "sleep", "usleep", "nanosleep", "clock_nanosleep",
};

int hpl_scan_symbols(const char *path, char err[static HPL_ERR_MAX])
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, HPL_ERR_MAX, "%s: cannot open it to read its symbols", path);
        return -1;
    }
    int rc = -1;
    char *buf = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && len < (1L << 30) && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = herd_malloc_array((size_t)len, 1)) && fread(buf, 1, (size_t)len, f) == (size_t)len) {
        const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
        if ((size_t)len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
            eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > (uint64_t)len ||
            (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > (uint64_t)len - eh->e_shoff) {
            snprintf(err, HPL_ERR_MAX, "%s: not a 64-bit ELF shared object", path);
            goto out;
        }
        const Elf64_Shdr *sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
        rc = 0;
        for (unsigned i = 0; i < eh->e_shnum && rc == 0; i++) {
            if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum)
                continue;
            const Elf64_Shdr *st = &sh[sh[i].sh_link];
            if (sh[i].sh_offset > (uint64_t)len || sh[i].sh_size > (uint64_t)len - sh[i].sh_offset ||
                st->sh_offset > (uint64_t)len || st->sh_size > (uint64_t)len - st->sh_offset) {
                snprintf(err, HPL_ERR_MAX, "%s: a section lies beyond the end of the file", path);
                rc = -1;
                break;
            }
            const Elf64_Sym *sym = (const Elf64_Sym *)(buf + sh[i].sh_offset);
            size_t nsym = sh[i].sh_size / sizeof *sym;
            const char *names = buf + st->sh_offset;
            for (size_t j = 1; j < nsym; j++) {
                if (sym[j].st_shndx != SHN_UNDEF || sym[j].st_name >= st->sh_size)
                    continue;
                const char *nm = names + sym[j].st_name;
                if (!memchr(nm, '\0', st->sh_size - sym[j].st_name))
                    continue;
                for (size_t k = 0; k < sizeof forbidden / sizeof forbidden[0]; k++)
                    if (!strcmp(nm, forbidden[k])) {
                        snprintf(err, HPL_ERR_MAX,
                                 "%s imports %s: a plugin takes time only from now_s and randomness only from the "
                                 "uniforms herd passes, and starts no thread (herdpolicy/plugin.h)",
                                 path, nm);
                        rc = 1;
                        break;
                    }
                if (rc)
                    break;
            }
        }
    } else {
        snprintf(err, HPL_ERR_MAX, "%s: cannot read it", path);
    }
out:
    herd_free(buf);
    fclose(f);
    return rc;
}

/* ---- the Python adapter ---- */

int hpl_python_adapter(char out[static HPL_SPEC_MAX], char err[static HPL_ERR_MAX])
{
    const char *env = getenv("HERD_PYTHON_PLUGIN");
    if (env && *env) {
        snprintf(out, HPL_SPEC_MAX, "%s", env);
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        const char *const where[] = {"%s/build/herd-python.so", "%s/../lib/herd/herd-python.so",
                                     "%s/../build/herd-python.so"};
        for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
            char p[HPL_SPEC_MAX + PATH_MAX];
            snprintf(p, sizeof p, where[i], exe);
            if (strlen(p) < HPL_SPEC_MAX && access(p, R_OK) == 0) {
                snprintf(out, HPL_SPEC_MAX, "%s", p);
                return 0;
            }
        }
    }
    snprintf(err, HPL_ERR_MAX,
             "the Python adapter herd-python.so is not built (make python-plugin) or installed beside herd; "
             "or set HERD_PYTHON_PLUGIN to its path");
    return -1;
}

/* ---- configure: the keys through the host ---- */

typedef struct keyset {
    char *text;       /* "KEY=VALUE\n" lines, split in place */
    const char *name[64];
    const char *value[64];
    int read[64];
    uint32_t n;
} keyset;

static const char *host_get(void *ctx, const char *key)
{
    keyset *ks = ctx;
    for (uint32_t i = 0; key && i < ks->n; i++)
        if (!strcmp(ks->name[i], key)) {
            ks->read[i] = 1;
            return ks->value[i];
        }
    return NULL;
}

static const char *host_key_at(void *ctx, uint32_t i)
{
    keyset *ks = ctx;
    return i < ks->n ? ks->name[i] : NULL;
}

static int split_keys(keyset *ks, const char *keys, char err[static HPL_ERR_MAX])
{
    memset(ks, 0, sizeof *ks);
    ks->text = herd_strdup(keys ? keys : "");
    if (!ks->text) {
        snprintf(err, HPL_ERR_MAX, "out of memory");
        return -1;
    }
    for (char *line = ks->text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *eq = strchr(line, '=');
        if (!eq || ks->n == 64) {
            snprintf(err, HPL_ERR_MAX, "plugin keys: at most 64, each KEY=VALUE");
            return -1;
        }
        *eq = '\0';
        ks->name[ks->n] = line;
        ks->value[ks->n++] = eq + 1;
    }
    return 0;
}

/* ---- loading ---- */

static void instance_free(hpl_instance *in)
{
    if (!in)
        return;
    if (in->desc && in->config && in->desc->release)
        in->desc->release(in->config);
    herd_free(in->config);
    herd_free(in->keys);
    /* a C plugin is unmapped; the Python adapter stays (an embedded
     * interpreter cannot be unloaded) */
    if (in->dl && strncmp(in->spec, "python:", 7))
        dlclose(in->dl);
    herd_free(in);
}

static hpl_instance *load_new(const char *spec, const char *dir, const char *keys, char err[static HPL_ERR_MAX])
{
    hpl_instance *in = herd_calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, HPL_ERR_MAX, "out of memory");
        return NULL;
    }
    snprintf(in->spec, sizeof in->spec, "%s", spec);
    snprintf(in->dir, sizeof in->dir, "%s", dir && *dir ? dir : ".");
    const char *argument = "";
    int python = !strncmp(spec, "python:", 7);
    if (python) {
        argument = spec + 7;
        if (hpl_python_adapter(in->path, err) != 0)
            goto fail;
    } else if (spec[0] == '/') {
        snprintf(in->path, sizeof in->path, "%s", spec);
    } else if (snprintf(in->path, sizeof in->path, "%s/%s", in->dir, spec) >= (int)sizeof in->path) {
        snprintf(err, HPL_ERR_MAX, "the plugin's path is too long");
        goto fail;
    }
    if (access(in->path, R_OK) != 0) {
        snprintf(err, HPL_ERR_MAX, "%s: no such shared object (a plugin's path is relative to the scenario's folder)",
                 in->path);
        goto fail;
    }
    if (!python && hpl_scan_symbols(in->path, err) != 0)
        goto fail;
    /* the Python adapter exports libpython's symbols to the extension
     * modules it imports; a C plugin keeps its own */
    in->dl = dlopen(in->path, RTLD_NOW | (python ? RTLD_GLOBAL : RTLD_LOCAL));
    if (!in->dl) {
        snprintf(err, HPL_ERR_MAX, "%s", dlerror());
        goto fail;
    }
    hp_plugin_entry_fn entry;
    void *sym = dlsym(in->dl, HP_PLUGIN_ENTRY);
    if (!sym) {
        snprintf(err, HPL_ERR_MAX, "%s exports no %s (herdpolicy/plugin.h)", in->path, HP_PLUGIN_ENTRY);
        goto fail;
    }
    memcpy(&entry, &sym, sizeof entry);
    const hp_plugin *d = entry();
    char why[HPL_ERR_MAX];
    if (hp_plugin_check(d, why, sizeof why)) {
        snprintf(err, HPL_ERR_MAX, "%s: %s", in->path, why);
        goto fail;
    }
    in->desc = d;
    in->config = herd_calloc(1, d->config_size ? d->config_size : 1);
    in->keys = herd_strdup(keys ? keys : "");
    if (!in->config || !in->keys) {
        snprintf(err, HPL_ERR_MAX, "out of memory");
        goto fail;
    }
    keyset ks;
    if (split_keys(&ks, keys, err) != 0) {
        herd_free(ks.text);
        goto fail;
    }
    hp_plugin_host host = {.ctx = &ks, .get = host_get, .key_at = host_key_at, .scenario_dir = in->dir,
                           .argument = argument, .n_uniforms = d->n_uniforms};
    char msg[HPL_ERR_MAX] = "";
    if (d->configure(in->config, &host, msg, sizeof msg) != 0) {
        snprintf(err, HPL_ERR_MAX, "plugin %s: %s", d->name, *msg ? msg : "configure refused the keys (no reason given)");
        herd_free(ks.text);
        goto fail;
    }
    if (host.n_uniforms > d->n_uniforms) {
        snprintf(err, HPL_ERR_MAX, "plugin %s: configure raised n_uniforms to %u; at most the descriptor's %u", d->name,
                 host.n_uniforms, d->n_uniforms);
        herd_free(ks.text);
        goto fail;
    }
    in->n_uniforms = host.n_uniforms;
    for (uint32_t i = 0; i < ks.n; i++)
        if (!ks.read[i]) {
            snprintf(err, HPL_ERR_MAX, "plugin.%s: plugin %s does not read it (the key changes nothing)", ks.name[i],
                     d->name);
            herd_free(ks.text);
            goto fail;
        }
    herd_free(ks.text);
    return in;
fail:
    instance_free(in);
    return NULL;
}

const hpl_instance *hpl_load(const char *spec, const char *dir, const char *keys, char err[static HPL_ERR_MAX])
{
    if (!dir || !*dir)
        dir = ".";
    if (!keys)
        keys = "";
#ifdef HERD_NO_PLUGINS
    /* the fuzzers' build: a generated scenario never loads code */
    snprintf(err, HPL_ERR_MAX, "retry plugins are not loaded in this build (HERD_NO_PLUGINS)");
    return NULL;
#endif
    pthread_mutex_lock(&lock);
    hpl_instance *found = NULL;
    for (size_t i = 0; i < nloaded && !found; i++)
        if (!strcmp(loaded[i]->spec, spec) && !strcmp(loaded[i]->dir, dir) && !strcmp(loaded[i]->keys, keys))
            found = loaded[i];
    if (!found) {
        if (nloaded == HPL_MAX_INSTANCES)
            snprintf(err, HPL_ERR_MAX, "more than %d plugin configurations in one run", HPL_MAX_INSTANCES);
        else if ((found = load_new(spec, dir, keys, err))) {
            static int registered;
            if (!registered++)
                atexit(hpl_unload_all); /* the configurations released at exit */
            loaded[nloaded++] = found;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

int hpl_any_not_reentrant(void)
{
    int any = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nloaded; i++)
        any |= (loaded[i]->desc->flags & HP_PLUGIN_NOT_REENTRANT) != 0;
    pthread_mutex_unlock(&lock);
    return any;
}

void hpl_unload_all(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nloaded; i++)
        instance_free(loaded[i]);
    nloaded = 0;
    pthread_mutex_unlock(&lock);
}
