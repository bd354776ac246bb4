"""herd_adapters - herd's shipped Python retry adapters (doc/plugins.md).

A scenario names a factory: `plugin = python:MODULE:OBJECT`, with MODULE
found beside the scenario or here.  herd calls OBJECT(**keys) once, with
every `plugin.KEY = value` of the section as a string keyword argument
(an unexpected key is refused), and drives the object it returns:

    uniforms              uniforms per decision (default 1; at most 8): the
                          module-level `random` functions return them
    new_client()          optional: a client's state (once per client and run)
    start(client, now, tool)            a call starts: returns its state
    admit(client, call, now, attempts)  optional: False refuses the attempt
    decide(client, call, outcome)       after each attempt: ('done',),
                          ('retry', SECONDS) or ('give_up', REASON) with
                          REASON one of attempts, non_retryable,
                          unknown_outcome, budget, retry_limited, retry_after
    finish(client, call, now)           optional: the call is over

`outcome` has now, attempts (counted so far, this one included), retries,
tool, status (the HTTP status, or None), cls (herd's class name: ok,
server, rate_limited, timeout, connection, ...), retry_after (seconds or
None) and exc: None on a 2xx, else the exception a Python client would
have seen (exception_for).  time.time / monotonic return `now`.

Shipped here, each a few lines over the library it drives:
    team       the seed team's shape: delay_for, RetryBudget, classify_error
               and per-tool policies, from a module of theirs
    tenacity   a real tenacity.Retrying, driven step by step through iter()
    urllib3    a real urllib3 Retry: is_retry(), increment(), get_backoff_time()
"""
import importlib


class HTTPStatusError(Exception):
    """A reply with a status that is not 2xx (as requests' raise_for_status)."""

    def __init__(self, status, retry_after=None):
        super().__init__("HTTP %d" % status)
        self.status = status
        self.retry_after = retry_after


class AttemptTimeout(TimeoutError):
    """No reply within the attempt's timeout: the outcome is unknown."""


class UnknownError(Exception):
    """Any other failure."""


def exception_for(outcome, cls, retry_after):
    """The exception a Python client sees for herd's outcome (a status, or
    -1 timeout, -2 connection refused, -3 connection reset, -4 unknown)."""
    if outcome > 0:
        return HTTPStatusError(outcome, retry_after)
    if outcome == -1:
        return AttemptTimeout("attempt timed out")
    if outcome == -2:
        return ConnectionRefusedError("connection refused")
    if outcome == -3:
        return ConnectionResetError("connection reset")
    return UnknownError("unknown error")


def _load(spec):
    """MODULE:NAME -> the object."""
    mod, _, name = spec.partition(":")
    return getattr(importlib.import_module(mod), name) if name else importlib.import_module(mod)


class team:
    """The seed team's retry module, in the order of its with_retry():
    classify_error(exc, idempotent) -> 'retry' | 'fatal' | 'unknown'
    (unknown: a timeout of a call that is not idempotent, never retried),
    then the tool's attempts, then the client's RetryBudget
    (try_acquire()), then delay_for(retry, base, cap, jitter).

        [tool search_web]
        plugin = python:herd_adapters:team
        plugin.module = team_retry
        plugin.tool = search_web
    """

    def __init__(self, module, tool):
        self.m = importlib.import_module(module)
        if tool not in self.m.TOOL_POLICIES:
            raise KeyError("tool %r is not in %s.TOOL_POLICIES (%s)" % (tool, module, ", ".join(self.m.TOOL_POLICIES)))
        self.p = self.m.TOOL_POLICIES[tool]
        self.uniforms = 1

    def new_client(self):
        return self.m.RetryBudget()

    def start(self, budget, now, tool):
        return None

    def decide(self, budget, call, o):
        if o.exc is None:
            return ("done",)
        kind = self.m.classify_error(o.exc, self.p.idempotent)
        if kind == "unknown":
            return ("give_up", "unknown_outcome")
        if kind != "retry":
            return ("give_up", "non_retryable")
        if o.attempts >= self.p.attempts:
            return ("give_up", "attempts")
        if not budget.try_acquire():
            return ("give_up", "retry_limited")
        return ("retry", self.m.delay_for(o.retries, self.p.base, self.p.cap, self.p.jitter))


class tenacity:
    """A tenacity.Retrying from the team's code (factory = MODULE:FUNCTION,
    called once), driven through Retrying.iter() without sleeping: the
    attempt's outcome is set on a RetryCallState (a result on 2xx, else the
    exception), and iter() answers DoSleep (retry after it), the result
    (done), RetryError (stopped: attempts) or the exception (not retried).

        [retry]
        plugin = python:herd_adapters:tenacity
        plugin.factory = team_tenacity:retrying
    """

    def __init__(self, factory):
        import tenacity as t
        self.t = t
        self.r = _load(factory)()
        self.uniforms = 1

    def start(self, client, now, tool):
        self.r.begin()  # its statistics (not read by any decision), as Retrying.__iter__ does
        return self.t.RetryCallState(self.r, fn=None, args=(), kwargs={})

    def decide(self, client, rs, o):
        t = self.t
        if o.exc is None:
            rs.set_result(o.status)
        else:
            rs.set_exception((type(o.exc), o.exc, None))
        try:
            do = self.r.iter(rs)
        except t.RetryError:
            return ("give_up", "attempts")
        except BaseException:
            return ("give_up", "attempts" if self.r.reraise and self.r.stop(rs) else "non_retryable")
        if isinstance(do, t.DoSleep):
            rs.prepare_for_next_attempt()
            return ("retry", float(do))
        return ("done",)


class urllib3:
    """urllib3's Retry (keys: total, backoff_factor, status_forcelist as
    a list of statuses, respect_retry_after_header, method): a status
    outside is_retry() is the answer (done on 2xx, else given up); a
    failure goes through increment() (MaxRetryError: attempts; re-raised:
    not retried), and the sleep is the Retry-After it honours, else
    get_backoff_time().

        [retry]
        plugin = python:herd_adapters:urllib3
        plugin.total = 4
        plugin.backoff_factor = 0.5
        plugin.status_forcelist = 429, 500, 502, 503, 504
    """

    def __init__(self, total="3", backoff_factor="0", status_forcelist="", respect_retry_after_header="true",
                 method="GET"):
        from urllib3.util.retry import Retry
        from urllib3 import exceptions, response
        self.x = exceptions
        self.response = response
        self.method = method
        forcelist = [int(s) for s in status_forcelist.replace(",", " ").split()]
        self.base = Retry(total=int(total), backoff_factor=float(backoff_factor), status_forcelist=forcelist,
                          respect_retry_after_header=respect_retry_after_header == "true", raise_on_status=True)
        self.uniforms = 0

    def start(self, client, now, tool):
        return [self.base.new()]

    def decide(self, client, call, o):
        x = self.x
        r = call[0]
        resp = error = None
        if o.status is not None:
            headers = {} if o.retry_after is None else {"Retry-After": "%d" % round(o.retry_after)}
            if not r.is_retry(self.method, o.status, "Retry-After" in headers):
                return ("done",) if o.exc is None else ("give_up", "non_retryable")
            resp = self.response.HTTPResponse(body=b"", headers=headers, status=o.status, preload_content=False)
        elif isinstance(o.exc, TimeoutError):
            error = x.ReadTimeoutError(None, "/", "read timed out")
        elif isinstance(o.exc, ConnectionRefusedError):
            error = x.NewConnectionError(None, "connection refused")
        else:
            error = x.ProtocolError("connection aborted", o.exc)
        try:
            r = r.increment(method=self.method, url="/", response=resp, error=error)
        except x.MaxRetryError:
            return ("give_up", "attempts")
        except BaseException:
            return ("give_up", "non_retryable")
        call[0] = r
        ra = r.get_retry_after(resp) if resp is not None and r.respect_retry_after_header else None
        return ("retry", ra if ra is not None else r.get_backoff_time())
