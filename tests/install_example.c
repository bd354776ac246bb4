/*
 * install_example.c - a program that uses libherdpolicy the way a service
 * would, built by tests/install.sh from an installed copy with nothing but
 * `pkg-config --cflags --libs herdpolicy`.
 *
 * It retries a call against a fake server that answers 503 twice, then 429
 * with "Retry-After: 3", then 200, with full jitter, and prints each
 * decision.  The uniform numbers come from a fixed sequence so the output
 * is exact; a real program passes its own generator's draws.
 */
#include <herdpolicy.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    hp_policy p = {.strategy = HP_FULL_JITTER, .base_s = 0.5, .cap_s = 8, .max_attempts = 5};
    const char *why = hp_policy_check(&p);
    if (why) {
        fprintf(stderr, "policy: %s\n", why);
        return 1;
    }
    const int replies[] = {503, 503, 429, 200};
    const double u[] = {0.5, 0.25, 0.75, 0.1};
    hp_state st;
    double now = 0;
    hp_state_start(&st, &p, now);
    for (int i = 0; i < 4; i++) {
        hp_on_attempt(&st);
        hp_result r = {.outcome = replies[i], .retry_after_s = -1};
        if (replies[i] == 429 && hp_parse_retry_after("3", 0, 60, &r.retry_after_s) != 0)
            return 1;
        hp_decision d = hp_decide_result(&p, &st, r, now, u[i]);
        printf("attempt %u: %d -> %s", st.attempts, replies[i],
               d.action == HP_DONE_OK ? "done" : d.action == HP_RETRY ? "retry" : "give up");
        if (d.action == HP_RETRY) {
            printf(" after %.3f s%s", d.delay_s, d.retry_after_used ? " (Retry-After)" : "");
            now += d.delay_s;
        }
        printf("\n");
        if (d.action != HP_RETRY)
            return d.action == HP_DONE_OK && strcmp(HP_VERSION, "") != 0 ? 0 : 1;
    }
    return 1;
}
