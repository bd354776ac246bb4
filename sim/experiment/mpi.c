/*
 * mpi.c - jobs handed out to MPI ranks (herd-mpi only; see experiment.h).
 *
 * Rank 0 coordinates: every other rank asks for a job, runs it, and sends
 * its results back with the next request, so ranks that get cheap jobs
 * simply take more of them (dynamic load balancing, one job in flight per
 * rank).  Every rank has built the same plan from the same scenario, so
 * only job indices and results cross the wire.  Results are stored by job
 * index, so the outputs rank 0 writes are those of a single process.
 *
 * Messages (MPI_BYTE): worker -> 0, tag MSG_UP: a byte (0 ready, 1 a
 * result record follows, 2 job failed, then its u64 index); 0 -> worker,
 * tag MSG_DOWN: a u64 job index, or UINT64_MAX: stop.
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
        if (count >= 1 && msg[0] == UP_RESULT) {
            size_t at = 1;
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
        } else if (count >= 1 && msg[0] == UP_FAILED) {
            uint64_t j = 0;
            if (count >= 9)
                memcpy(&j, msg + 1, 8);
            snprintf(err, errlen, "job %llu failed on rank %d (out of memory, or its timeseries outgrew its budget)",
                     (unsigned long long)j, st.MPI_SOURCE);
            failed = 1;
        }
        herd_free(msg);
        uint64_t job = UINT64_MAX;
        if (!failed && next < ntodo)
            job = todo[next++];
        else
            active--;
        MPI_Send(&job, 8, MPI_BYTE, st.MPI_SOURCE, MSG_DOWN, MPI_COMM_WORLD);
    }
    return failed ? -1 : 0;
}

static int work(int (*run)(void *ctx, size_t j), void *ctx, model_results *results, uint64_t *seeds)
{
    uint8_t ready = UP_READY;
    MPI_Send(&ready, 1, MPI_BYTE, 0, MSG_UP, MPI_COMM_WORLD);
    for (;;) {
        uint64_t job;
        MPI_Recv(&job, 8, MPI_BYTE, 0, MSG_DOWN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (job == UINT64_MAX)
            return 0;
        int ok = run(ctx, (size_t)job) == 0;
        rep_buf m = {0};
        if (ok) {
            uint8_t kind = UP_RESULT;
            rep_put_bytes(&m, &kind, 1);
            rep_put_result(&m, job, seeds[job], &results[job]);
        }
        model_results_free(&results[job]);
        if (!ok || m.oom || m.len > (size_t)INT32_MAX) {
            uint8_t f[9] = {UP_FAILED};
            memcpy(f + 1, &job, 8);
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
