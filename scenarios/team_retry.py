"""team_retry - a team's own retry code, in the shape of the seed articles'
agent: per-tool policies, delay_for(), a RetryBudget per client and
classify_error().  herd runs it through herd_adapters.team (doc/plugins.md):

    [tool search_web]
    plugin = python:herd_adapters:team
    plugin.module = team_retry
    plugin.tool = search_web
"""
import random
import time
from collections import namedtuple

RetryPolicy = namedtuple("RetryPolicy", "attempts base cap jitter idempotent")

TOOL_POLICIES = {
    "search_web": RetryPolicy(attempts=5, base=0.5, cap=8.0, jitter=True, idempotent=True),
    "create_ticket": RetryPolicy(attempts=3, base=1.0, cap=10.0, jitter=True, idempotent=False),
    "send_email": RetryPolicy(attempts=1, base=0.5, cap=8.0, jitter=True, idempotent=False),
    "delete_record": RetryPolicy(attempts=2, base=1.0, cap=5.0, jitter=True, idempotent=True),
    # the same search with the jitter switched off (a one-word change in review)
    "search_web_no_jitter": RetryPolicy(attempts=5, base=0.5, cap=8.0, jitter=False, idempotent=True),
}


def delay_for(attempt, base, cap, jitter):
    """Sleep before retry `attempt` (0 first): full jitter over a capped
    exponential."""
    ceiling = min(cap, base * 2 ** attempt)
    return random.uniform(0, ceiling) if jitter else ceiling


class RetryBudget:
    """At most `max_retries` retries per `window_s` seconds per client."""

    def __init__(self, max_retries=20, window_s=60.0):
        self.max_retries = max_retries
        self.window_s = window_s
        self.spent = []

    def try_acquire(self):
        now = time.monotonic()
        self.spent = [t for t in self.spent if now - t < self.window_s]
        if len(self.spent) >= self.max_retries:
            return False
        self.spent.append(now)
        return True


def classify_error(exc, idempotent):
    """'retry', 'fatal', or 'unknown' (a timeout of a call that is not
    idempotent: it may have happened, so it is never retried)."""
    if isinstance(exc, TimeoutError):
        return "retry" if idempotent else "unknown"
    if isinstance(exc, (ConnectionRefusedError, ConnectionResetError)):
        return "retry"
    status = getattr(exc, "status", None)
    if status in (408, 409, 429, 500, 502, 503, 504, 529):
        return "retry"
    if status is not None:
        return "fatal"
    return "retry"
