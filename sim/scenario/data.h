/*
 * data.h - the data files a scenario names (empirical distributions,
 * arrival traces, capacity timelines) and the distributions that need the
 * data store (empirical, mixture).  Internal to sim/scenario, except
 * scn_data() and scn_data_print_files(), declared in scenario.h.
 *
 * One store per process, for the scenario loaded last: scn_load starts a
 * new one (scn_data_begin) and every file is read once (files are
 * interned by path and form), however many points, variants or threads
 * use it.  Relative paths resolve against the directory of the scenario
 * file.
 */
#ifndef HERD_DATA_H
#define HERD_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "../spec/dist.h"
#include "../spec/table.h"

#define SCN_DATA_MAX_ROWS 1000000        /* rows of one data file */
#define SCN_DATA_MAX_BYTES (64L << 20)   /* size of one data file */
#define SCN_DATA_MAX_FILES 64            /* distinct data files of a scenario */
#define SPEC_MIX_MAX 8                   /* components of a mixture */

/* Starts a new store for the scenario at scenario_path (NULL: paths
 * resolve against the working directory). */
void scn_data_begin(const char *scenario_path);

/* Parses a distribution value: those of dist_parse, plus empirical(FILE)
 * and mixture(P1: D1, ...), which read files and add entries to the store.
 * Returns NULL, or a message written into buf (*from_file: 1 when it is
 * about a data file, which it then names with its line). */
const char *scn_parse_dist(const char *value, dist *out, char *buf, size_t n, int *from_file);

/* "FILE:LINE" of row `row` (from 0) of the data file of store entry idx
 * (capacity timelines keep their row lines), into where[0..n): 0, or -1
 * with only the file (or "the data file") when the line is not known. */
int scn_data_row_origin(uint32_t idx, uint32_t row, char *where, size_t n);

/* Reads a data file of `kind` (SPEC_DATA_TRACE or SPEC_DATA_CAPACITY) into
 * the store: *idx receives its entry.  Returns NULL or a message in buf
 * ("FILE:LINE: column ...: expected ..."). */
const char *scn_load_data(const char *file, spec_data_kind kind, uint32_t *idx, char *buf, size_t n);

/* The folder of the scenario being read ("." for none): where relative
 * data files and plugins are found. */
const char *scn_data_dir(void);

#endif
