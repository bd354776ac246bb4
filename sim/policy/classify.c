/*
 * classify.c - herd policy library: which failures are worth retrying.
 *
 * Maps an attempt's outcome (HTTP status or HP_OUTCOME_* transport error) to
 * a failure class, and says whether a policy retries a
 * class at all.  hp_classify() is total: every int, including codes outside
 * 100..599, lands in exactly one class, HP_CLASS_UNKNOWN for anything not
 * listed.  Timeouts count as retryable here; refusing them (on_timeout,
 * non-idempotent operations without a key) is hp_decide_result()'s job.
 */
#include "herdpolicy.h"

#include <stddef.h>

/* Table indexed by hp_class. */
static const char *const class_names[HP_CLASS_COUNT] = {
    "ok",          "rate_limited", "server",  "not_implemented", "bad_request",
    "auth",        "not_found",    "timeout", "connection",      "unknown",
    "conflict",    "request_timeout", "overloaded",
};

const char *hp_class_name(hp_class c)
{
    if ((unsigned)c >= HP_CLASS_COUNT)
        return NULL;
    return class_names[c];
}

hp_class hp_classify(int outcome)
{
    if (outcome >= 200 && outcome <= 299)
        return HP_CLASS_OK;
    switch (outcome) {
    case 429:
        return HP_CLASS_RATE_LIMITED;
    case 500:
    case 502:
    case 503:
    case 504:
        return HP_CLASS_SERVER;
    case 501:
        return HP_CLASS_NOT_IMPLEMENTED;
    case 400:
    case 422:
        return HP_CLASS_BAD_REQUEST;
    case 401:
    case 402:
    case 403:
        return HP_CLASS_AUTH;
    case 404:
        return HP_CLASS_NOT_FOUND;
    case 409:
        return HP_CLASS_CONFLICT;
    case 408:
        return HP_CLASS_REQUEST_TIMEOUT;
    case 529:
        return HP_CLASS_OVERLOADED;
    case HP_OUTCOME_TIMEOUT:
        return HP_CLASS_TIMEOUT;
    case HP_OUTCOME_CONN_REFUSED:
    case HP_OUTCOME_CONN_RESET:
        return HP_CLASS_CONNECTION;
    default:
        return HP_CLASS_UNKNOWN;
    }
}

static bool table_retryable(const hp_policy *p, hp_class c)
{
    switch (c) {
    case HP_CLASS_RATE_LIMITED:
    case HP_CLASS_SERVER:
    case HP_CLASS_TIMEOUT:
    case HP_CLASS_CONNECTION:
    case HP_CLASS_CONFLICT:
    case HP_CLASS_REQUEST_TIMEOUT:
    case HP_CLASS_OVERLOADED:
        return true;
    case HP_CLASS_UNKNOWN:
        return p->unknown == HP_UNKNOWN_RETRY;
    case HP_CLASS_OK:
    case HP_CLASS_NOT_IMPLEMENTED:
    case HP_CLASS_BAD_REQUEST:
    case HP_CLASS_AUTH:
    case HP_CLASS_NOT_FOUND:
    case HP_CLASS_COUNT:
    default:
        return false;
    }
}

bool hp_retryable(const hp_policy *p, hp_class c)
{
    if ((unsigned)c >= HP_CLASS_COUNT || c == HP_CLASS_OK)
        return false;
    if (!table_retryable(p, c) && !(p->retry_also & (1u << c)))
        return false;
    return p->retry_only == 0 || (p->retry_only & (1u << c)) != 0;
}
