/*
 * shed.h - the server's two ways of not doing work: deadline-aware
 * dropping ([server] drop_expired) and priority shedding ([server]
 * shed_sheddable_above with [clients] / [tool] priority).
 *
 * Deadlines travel as gRPC's grpc-timeout does: an attempt carries what is
 * left of its timeout when it is sent (min(attempt_timeout_s, the budget
 * left), less the time it waited for the client host's sender), and the
 * server takes its deadline as its arrival plus that.  The server's
 * deadline is therefore the client's plus the request's one-way transit:
 * never earlier, so an attempt the server skips is one its client has
 * already timed out on (it answers nothing: nobody waits).  The carried
 * value is a float rounded up, so the rounding can only make the server's
 * deadline later, never earlier.  herd drive sends it as the header
 * X-Herd-Deadline (seconds left, see doc/server.md); herd serve reads it
 * with shed_parse_deadline.
 *
 * Shedding: while the share of busy workers, busy / workers, is above the
 * threshold, an arriving sheddable attempt is answered 503 at once; a
 * critical one goes on to a worker or the queue as usual.  With no worker
 * at all (a capacity timeline at 0), the share counts as 1.
 *
 * Everything here is pure: O(1), no state, no allocation.
 */
#ifndef HERD_SHED_H
#define HERD_SHED_H

#include <stdbool.h>
#include <stdint.h>

/* What an attempt carries: timeout_s (the client's timer, started when the
 * attempt was admitted; INFINITY: none) less `elapsed` (the time from then
 * until it leaves the client), rounded up to a float; INFINITY for no
 * timeout.  Zero or negative: its deadline passed before it left. */
float shed_carried(double timeout_s, double elapsed);

/* True if an attempt that arrived at `arrived` carrying `carried` has
 * reached its deadline at now (now >= arrived + carried). */
static inline bool shed_expired(double arrived, float carried, double now)
{
    return now >= arrived + (double)carried;
}

/* True if a sheddable attempt arriving now is shed: busy of `workers`
 * workers is a share above `above` (in (0, 1]; a share of 1 without
 * workers). */
bool shed_rejects(double above, uint32_t busy, uint32_t workers);

/* herd serve's reading of an X-Herd-Deadline header value: a decimal
 * number of seconds left (digits with an optional fraction, at most 1e9;
 * no sign, exponent, spaces or other text).  Returns 0 with *left_s set,
 * or -1 (malformed: the request is served as one without a deadline).
 * NULL is -1. */
int shed_parse_deadline(const char *value, double *left_s);

/* herd serve's reading of an X-Herd-Priority header value: "critical" 0,
 * "sheddable" 1, anything else (or NULL) -1 (served as critical). */
int shed_parse_priority(const char *value);

#endif
