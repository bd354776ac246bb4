/*
 * mpi.c - jobs handed out to MPI ranks (herd-mpi only; see experiment.h).
 *
 * Rank 0 coordinates: every other rank asks for work, runs it, and sends
 * its results back with the next request, so ranks that get cheap jobs
 * simply take more of them (dynamic load balancing).  Work goes out in
 * guided chunks (what is left / (4 x workers), 1 to 64 jobs), so one round
 * trip serves many small jobs and the last ones still spread evenly.  Every rank has built the same plan from the same scenario, so
 * only job indices and results cross the wire.  Results are stored by job
 * index, so the outputs rank 0 writes are those of a single process.
 *
 * Messages (MPI_BYTE): worker -> 0, tag MSG_UP: a byte (0 ready, 1 result
 * records follow to the end, 2 a job failed, then its u64 index); 0 ->
 * worker, tag MSG_DOWN: up to 64 u64 job indices, or UINT64_MAX: stop.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../report/partial.h"
#include "experiment.h"

enum { MSG_UP = 1, MSG_DOWN = 2 };
enum { UP_READY = 0, UP_RESULT = 1, UP_FAILED = 2 };
#define MAX_CHUNK 64

/* Guided self-scheduling: a chunk of what is left divided by four times
 * the workers, between 1 and MAX_CHUNK jobs, so one round trip serves
 * many small jobs early on and the last jobs still spread evenly. */
static size_t chunk_of(size_t left, int workers)
{
    size_t c = left / (4 * (size_t)workers);
    return c < 1 ? 1 : c > MAX_CHUNK ? MAX_CHUNK : c;
}

static int coordinate(const size_t *todo, size_t ntodo, model_results *results, uint64_t *seeds, int size,
                      char *err, size_t errlen)
{
    size_t next = 0;
    int active = size - 1, failed = 0;
    while (active > 0) {
        MPI_Status st;
        int count;
        MPI_Probe(MPI_ANY_SOURCE, MSG_UP, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        uint8_t *msg = herd_malloc_array(count > 0 ? (size_t)count : 1, 1);
        if (!msg) {
            snprintf(err, errlen, "out of memory receiving results");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Recv(msg, count, MPI_BYTE, st.MPI_SOURCE, MSG_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (count >= 1 && msg[0] == UP_RESULT) { /* records until the end of the message */
            size_t at = 1;
            while (at < (size_t)count && !failed) {
                uint64_t j, seed;
                model_results r;
                if (rep_get_result(msg, (size_t)count, &at, &j, &seed, &r) != 0 || j >= SIZE_MAX) {
                    snprintf(err, errlen, "rank %d sent a malformed result", st.MPI_SOURCE);
                    failed = 1;
                } else {
                    model_results_free(&results[j]);
                    results[j] = r;
                    seeds[j] = seed;
                }
            }
        } else if (count >= 1 && msg[0] == UP_FAILED) {
            uint64_t j = 0;
            if (count >= 9)
                memcpy(&j, msg + 1, 8);
            snprintf(err, errlen, "job %llu failed on rank %d (out of memory, or its timeseries outgrew its budget)",
                     (unsigned long long)j, st.MPI_SOURCE);
            failed = 1;
        }
        herd_free(msg);
        uint64_t jobs[MAX_CHUNK];
        size_t n = 0;
        if (!failed && next < ntodo)
            for (size_t c = chunk_of(ntodo - next, size - 1); n < c && next < ntodo;)
                jobs[n++] = todo[next++];
        if (n == 0) {
            jobs[0] = UINT64_MAX; /* stop */
            n = 1;
            active--;
        }
        MPI_Send(jobs, (int)(8 * n), MPI_BYTE, st.MPI_SOURCE, MSG_DOWN, MPI_COMM_WORLD);
    }
    return failed ? -1 : 0;
}

static int work(int (*run)(void *ctx, size_t j), void *ctx, model_results *results, uint64_t *seeds)
{
    uint8_t ready = UP_READY;
    MPI_Send(&ready, 1, MPI_BYTE, 0, MSG_UP, MPI_COMM_WORLD);
    for (;;) {
        uint64_t jobs[MAX_CHUNK];
        MPI_Status st;
        int count;
        MPI_Recv(jobs, (int)sizeof jobs, MPI_BYTE, 0, MSG_DOWN, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        size_t n = (size_t)count / 8;
        if (n == 0 || jobs[0] == UINT64_MAX)
            return 0;
        rep_buf m = {0};
        uint8_t kind = UP_RESULT;
        rep_put_bytes(&m, &kind, 1);
        int ok = 1;
        uint64_t bad = 0;
        for (size_t k = 0; k < n; k++) {
            if (ok && run(ctx, (size_t)jobs[k]) == 0) {
                rep_put_result(&m, jobs[k], seeds[jobs[k]], &results[jobs[k]]);
            } else if (ok) {
                ok = 0;
                bad = jobs[k];
            }
            model_results_free(&results[jobs[k]]);
        }
        if (!ok || m.oom || m.len > (size_t)INT32_MAX) {
            uint8_t f[9] = {UP_FAILED};
            memcpy(f + 1, &bad, 8);
            MPI_Send(f, 9, MPI_BYTE, 0, MSG_UP, MPI_COMM_WORLD);
        } else {
            MPI_Send(m.p, (int)m.len, MPI_BYTE, 0, MSG_UP, MPI_COMM_WORLD);
        }
        rep_buf_free(&m);
    }
}

int exp_mpi_jobs(const size_t *todo, size_t ntodo, int (*run)(void *ctx, size_t j), void *ctx,
                 model_results *results, uint64_t *seeds, int *root, char *err, size_t errlen)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *root = rank == 0;
    if (size == 1) { /* alone: run everything here */
        for (size_t i = 0; i < ntodo; i++)
            if (run(ctx, todo[i]) != 0)
                return -1;
        return 0;
    }
    if (rank == 0)
        return coordinate(todo, ntodo, results, seeds, size, err, errlen);
    return work(run, ctx, results, seeds);
}
