/*
 * fuzz_merge.c - libFuzzer harness over the shard reader and herd merge
 * (sim/report/partial.c): the input is a partial.herd file; herd merge
 * reads it as the one shard of a plan and, when it is accepted, writes the
 * plan's outputs.
 *
 *   make fuzz (build/fuzz_merge)   seeds: partial.herd files of shards
 *
 * The first byte is a switch: odd, the harness replaces the file's last 8
 * bytes by the checksum of the rest (so that mutations reach past the
 * checksum into the header, the tables and the records); even, the bytes
 * are written as they are.  Any crash, sanitizer report, leak, timeout, or
 * a refusal that is not one line, is a bug.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sim/base/alloc.h"
#include "../sim/report/partial.h"

#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char shard[64], file[96], out[64];
    if (!shard[0]) {
        snprintf(shard, sizeof shard, "/tmp/herd-fuzz-merge-%d", (int)getpid());
        snprintf(file, sizeof file, "%s/partial.herd", shard);
        snprintf(out, sizeof out, "/tmp/herd-fuzz-merge-%d.out", (int)getpid());
        mkdir(shard, 0700);
    }
    if (size == 0)
        return 0;
    int fix = data[0] & 1;
    data++;
    size--;
    uint8_t *b = herd_malloc_array(size ? size : 1, 1);
    if (!b)
        abort();
    memcpy(b, data, size);
    if (fix && size >= 8) {
        uint64_t sum = rep_fnv(REP_FNV_OFFSET, b, size - 8);
        memcpy(b + size - 8, &sum, 8);
    }
    FILE *f = fopen(file, "wb");
    if (!f || (size && fwrite(b, 1, size, f) != size))
        abort();
    fclose(f);
    herd_free(b);
    const char *dirs[1] = {shard};
    char err[4096];
    err[0] = '\0';
    int rc = rep_merge(out, dirs, 1, err, sizeof err);
    if (rc != 0 && (!err[0] || strchr(err, '\n')))
        abort(); /* a refusal says why, in one line */
    if (rc == -2) {
        struct stat st;
        if (stat(out, &st) == 0)
            abort(); /* refused: nothing written */
    }
    fuzz_clean_dir(out, 0);
    return 0;
}
