/*
 * classes.h - private to libherdpolicy (not installed): hp_classify and
 * hp_retryable inline, for the library's own per-outcome paths (the
 * client API observes and decides on every reply), where the exported
 * functions would cost a call each.  classify.c defines the exported
 * ones through these, so there is one definition of each rule.
 */
#ifndef HERD_POLICY_CLASSES_H
#define HERD_POLICY_CLASSES_H

#include <stdint.h>

#include "herdpolicy.h"

/* Outcomes HP_OUTCOME_UNKNOWN (-4) .. 599, offset by CLASS_TABLE_LO: each
 * entry is its class XOR HP_CLASS_UNKNOWN, so that the unlisted ones (zero)
 * are HP_CLASS_UNKNOWN.  Defined in classify.c; in the library's namespace
 * for the static library, hidden from the shared one's exports. */
#define CLASS_TABLE_LO (-4)
#define CLASS_TABLE_N 604
extern const uint8_t hp__class_table[CLASS_TABLE_N] __attribute__((visibility("hidden")));

static inline hp_class classify_inline(int outcome)
{
    if (outcome >= 200 && outcome <= 299)
        return HP_CLASS_OK;
    unsigned i = (unsigned)outcome - (unsigned)CLASS_TABLE_LO;
    return i < CLASS_TABLE_N ? (hp_class)(hp__class_table[i] ^ HP_CLASS_UNKNOWN) : HP_CLASS_UNKNOWN;
}

/* The class list that a policy retries without retry_also/retry_only. */
static inline bool retryable_by_table(const hp_policy *p, hp_class c)
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

static inline bool retryable_inline(const hp_policy *p, hp_class c)
{
    if ((unsigned)c >= HP_CLASS_COUNT || c == HP_CLASS_OK)
        return false;
    if (!retryable_by_table(p, c) && !(p->retry_also & (1u << c)))
        return false;
    return p->retry_only == 0 || (p->retry_only & (1u << c)) != 0;
}

#endif
