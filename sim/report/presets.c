/*
 * presets.c - `herd presets`: the client-library presets of the policy
 * library as a Markdown table, each sleep formula written out with the
 * preset's numbers from its policy (so the table cannot drift from the
 * data), then the sources and notes.
 */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "../policy/herdpolicy.h"

/* "min(B * M^n, CAP)" (or without the cap when there is none), into out. */
static void ceiling_text(const hp_policy *p, char *out, size_t n)
{
    double m = p->multiplier >= 1.0 ? p->multiplier : 2.0;
    if (p->cap_s >= 1e9)
        snprintf(out, n, "%g x %g^n", p->base_s, m);
    else
        snprintf(out, n, "min(%g x %g^n, %g)", p->base_s, m, p->cap_s);
}

/* The sleep before retry n, as a formula with the preset's numbers. */
static void sleep_text(const hp_policy *p, char *out, size_t n)
{
    char c[96], pre[16] = "";
    double f = p->jitter_f, m = p->multiplier >= 1.0 ? p->multiplier : 2.0;
    ceiling_text(p, c, sizeof c);
    if (p->first_retry_zero)
        snprintf(pre, sizeof pre, "0, then ");
    if (p->strategy == HP_IMMEDIATE) {
        snprintf(out, n, "0");
        return;
    }
    switch (p->jitter) {
    case HP_JITTER_FULL:
        snprintf(out, n, "%sU(0, %s)", pre, c);
        return;
    case HP_JITTER_PROPORTIONAL:
        snprintf(out, n, "%s%s x U(%g, 1]", pre, c, 1 - f);
        return;
    case HP_JITTER_SYMMETRIC:
        snprintf(out, n, "%s%s x U(%g, %g)", pre, c, 1 - f, 1 + f);
        return;
    case HP_JITTER_ADDITIVE:
        if (p->jitter_before_cap && p->cap_s < 1e9)
            snprintf(out, n, "%smin(%g x %g^n + U(0, %g), %g)", pre, p->base_s, m, f, p->cap_s);
        else
            snprintf(out, n, "%s%s + U(0, %g)", pre, c, f);
        return;
    case HP_JITTER_FLOOR:
        snprintf(out, n, "%sU(%g, clamp(%g x %g^n, %g, %g))", pre, f, p->base_s, m, f, p->cap_s);
        return;
    default:
        break;
    }
    switch (p->strategy) {
    case HP_CONSTANT:
        snprintf(out, n, "%s%g", pre, p->base_s < p->cap_s ? p->base_s : p->cap_s);
        break;
    case HP_FULL_JITTER:
        snprintf(out, n, "%sU(0, %s)", pre, c);
        break;
    case HP_EQUAL_JITTER:
        snprintf(out, n, "%sU(c/2, c), c = %s", pre, c);
        break;
    default:
        snprintf(out, n, "%s%s", pre, c);
        break;
    }
}

static void attempts_text(const hp_library_preset *lp, char *out, size_t n)
{
    const hp_policy *p = &lp->policy;
    if (lp->two_layers)
        snprintf(out, n, "%u x %u = %u", p->max_attempts, lp->inner.max_attempts,
                 p->max_attempts * lp->inner.max_attempts);
    else if (p->max_attempts == 0)
        snprintf(out, n, "until the deadline");
    else
        snprintf(out, n, "%u", p->max_attempts);
}

static void deadline_text(const hp_policy *p, char *out, size_t n)
{
    if (!(p->budget_s > 0))
        snprintf(out, n, "none");
    else if (p->budget_mode == HP_BUDGET_AT_FAILURE)
        snprintf(out, n, "%g s, checked when an attempt fails", p->budget_s);
    else
        snprintf(out, n, "%g s, sleeps included", p->budget_s);
}

int rep_print_presets(FILE *f)
{
    fprintf(f, "Client-library presets: `preset = NAME` in [retry], [tool NAME] or [layer NAME]; the "
               "section's own keys override any field. Sleeps in seconds, n = 0 before the first retry, "
               "U(a, b) uniform.\n\n");
    fprintf(f, "| preset | models | attempts | sleep before retry n | retried | Retry-After | deadline |\n"
               "|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < hp_library_preset_count(); i++) {
        const hp_library_preset *lp = hp_library_preset_at(i);
        char att[64], sl[160], dl[64];
        attempts_text(lp, att, sizeof att);
        sleep_text(&lp->policy, sl, sizeof sl);
        deadline_text(&lp->policy, dl, sizeof dl);
        if (lp->two_layers) {
            char in[160];
            sleep_text(&lp->inner, in, sizeof in);
            size_t u = strlen(sl);
            snprintf(sl + u, sizeof sl - u, "; SDK: %s", in);
        }
        fprintf(f, "| `%s` | %s | %s | %s | %s | %s | %s |\n", lp->name, lp->library, att, sl, lp->retried,
                lp->retry_after, dl);
    }
    fprintf(f, "\nSources (read at the version given):\n\n| preset | repository | file | version | notes |\n"
               "|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < hp_library_preset_count(); i++) {
        const hp_library_preset *lp = hp_library_preset_at(i);
        fprintf(f, "| `%s` | %s | %s | %s | %s |\n", lp->name, lp->repo, lp->file, lp->version, lp->notes);
    }
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
