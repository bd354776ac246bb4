# runtime.py - the Python half of herd's Python adapter (herd-python.so),
# run by cffi when the adapter's interpreter starts (embedding_init_code).
#
# It defines the herdpy_* functions adapter.c calls, keeps the Python
# objects of every configuration, client and call in a table (herd owns
# the memory: its blocks hold only the handles), and holds the code under
# test to herd's determinism contract:
#   - the module-level functions of `random` draw from the uniforms herd
#     passes to the decision (random(), uniform(), expovariate(), ...; a
#     draw beyond the configuration's `uniforms`, or an integer draw, is an
#     error that stops the run);
#   - time.time, time.monotonic and time.perf_counter (and their _ns
#     forms) return herd's simulated now; time.sleep is an error (return
#     the delay instead).
# The protocol of a configured object and the shipped adapters are in
# herd_adapters.py (imported from python/ beside the shared object).
import importlib
import math
import random as _random
import sys
import time as _time

from herd_python import ffi, lib

_CLASSES = ("ok", "rate_limited", "server", "not_implemented", "bad_request", "auth", "not_found", "timeout",
            "connection", "unknown", "conflict", "request_timeout", "overloaded")
_REASONS = {"none": 0, "attempts": 1, "non_retryable": 2, "unknown_outcome": 3, "budget": 4, "retry_limited": 5,
            "retry_after": 6}
_DONE, _RETRY, _GIVE_UP = 0, 1, 2


class ContractError(Exception):
    """The code under test broke herd's determinism contract."""


class _Feed(_random.Random):
    """random() returns herd's uniforms, in order; nothing else draws."""

    def __init__(self):
        super().__init__(0)
        self.u = ()
        self.i = 0

    def random(self):
        if self.i >= len(self.u):
            raise ContractError("the code drew more than the %d uniform(s) per decision its configuration declares "
                                "(set `uniforms` on the object)" % len(self.u))
        v = self.u[self.i]
        self.i += 1
        return v

    def getrandbits(self, k):
        raise ContractError("an integer draw (randint, choice, getrandbits): only random() and the float draws "
                            "built on it are fed from herd's uniforms")

    def seed(self, *a, **kw):
        if hasattr(self, "u"):
            raise ContractError("random.seed: herd owns the random numbers")
        super().seed(0)


_feed = _Feed()
for _name in ("random", "uniform", "triangular", "randint", "choice", "randrange", "sample", "shuffle", "choices",
              "normalvariate", "gauss", "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate",
              "betavariate", "paretovariate", "weibullvariate", "getrandbits", "randbytes", "seed"):
    if hasattr(_random, _name):
        setattr(_random, _name, getattr(_feed, _name))
_random._inst = _feed

_now = [0.0]


def _clock():
    return _now[0]


def _clock_ns():
    return int(_now[0] * 1e9)


def _no_sleep(s):
    raise ContractError("time.sleep(%r) inside a decision: return the delay instead" % (s,))


for _name in ("time", "monotonic", "perf_counter"):
    setattr(_time, _name, _clock)
    setattr(_time, _name + "_ns", _clock_ns)
_time.sleep = _no_sleep

_objects = {}
_next = [1]


def _keep(obj):
    h = _next[0]
    _next[0] += 1
    _objects[h] = obj
    return h


def _text(buf, n, msg):
    b = msg.encode("utf-8", "replace").replace(b"\n", b" ")[: max(0, n - 1)]
    ffi.memmove(buf, b + b"\0", len(b) + 1)


def _why(e):
    return "%s: %s" % (type(e).__name__, e)


class _Config:
    def __init__(self, obj, n):
        self.obj = obj
        self.n = n
        self.pending = None  # an error outside decide, reported by the next decide


@ffi.def_extern()
def herdpy_configure(argument, folder, adir, keys, h, nu, err, n):
    try:
        arg = ffi.string(argument).decode()
        mod, sep, name = arg.partition(":")
        if not mod or not sep or not name:
            raise ValueError("expected python:MODULE:OBJECT, got python:%s" % arg)
        for d in (ffi.string(adir).decode(), ffi.string(folder).decode()):
            if d not in sys.path:
                sys.path.insert(0, d)
        kwargs = {}
        for line in ffi.string(keys).decode().split("\n"):
            if line:
                k, _, v = line.partition("=")
                kwargs[k] = v
        factory = getattr(importlib.import_module(mod), name)
        _now[0] = 0.0
        obj = factory(**kwargs)
        uniforms = int(getattr(obj, "uniforms", 1))
        if not 0 <= uniforms <= nu[0]:
            raise ValueError("uniforms = %d: expected 0 to %d" % (uniforms, nu[0]))
        for m in ("start", "decide"):
            if not callable(getattr(obj, m, None)):
                raise TypeError("%s:%s gives %r, which has no %s() (see herd_adapters.py)" % (mod, name, obj, m))
        nu[0] = uniforms
        h[0] = _keep(_Config(obj, uniforms))
        return 0
    except BaseException as e:  # the message goes to herd, which refuses the scenario
        _text(err, n, "python:%s: %s" % (ffi.string(argument).decode(), _why(e)))
        return -1


@ffi.def_extern()
def herdpy_call_start(cfg, client, call, now, tool, deadline):
    c = _objects[cfg]
    try:
        _now[0] = now
        if client[0] == 0:
            new = getattr(c.obj, "new_client", None)
            client[0] = _keep(new() if new else None)
        call[0] = _keep(c.obj.start(_objects[client[0]], now, tool))
    except BaseException as e:
        c.pending = c.pending or "start: " + _why(e)
        call[0] = 0
    return 0


@ffi.def_extern()
def herdpy_admit(cfg, client, call, now, attempts):
    c = _objects[cfg]
    admit = getattr(c.obj, "admit", None)
    if admit is None or c.pending:
        return 1
    try:
        _now[0] = now
        return 1 if admit(_objects.get(client), _objects.get(call), now, attempts) else 0
    except BaseException as e:
        c.pending = "admit: " + _why(e)
        return 1


class Outcome:
    """What one attempt ended with, as the code under test sees it."""

    __slots__ = ("now", "attempts", "retries", "tool", "status", "exc", "cls", "retry_after")

    def __repr__(self):
        return "Outcome(status=%r, cls=%r, attempts=%r)" % (self.status, self.cls, self.attempts)


_exceptions = [None]


def _exception(outcome, cls, retry_after):
    if _exceptions[0] is None:
        import herd_adapters
        _exceptions[0] = herd_adapters.exception_for
    return _exceptions[0](outcome, cls, retry_after)


@ffi.def_extern()
def herdpy_decide(cfg, client, call, now, attempts, retries, tool, outcome, cls, retry_after, u, nu, action, reason,
                  delay, why, n):
    c = _objects[cfg]
    try:
        if c.pending:
            raise ContractError(c.pending)
        _now[0] = now
        _feed.u = tuple(u[i] for i in range(nu))
        _feed.i = 0
        o = Outcome()
        o.now, o.attempts, o.retries, o.tool = now, attempts, retries, tool
        o.cls = _CLASSES[cls] if 0 <= cls < len(_CLASSES) else "unknown"
        o.retry_after = retry_after if retry_after >= 0 else None
        o.status = outcome if outcome > 0 else None
        o.exc = None if o.cls == "ok" else _exception(outcome, o.cls, o.retry_after)
        d = c.obj.decide(_objects.get(client), _objects.get(call), o)
        kind = d[0]
        if kind == "done":
            action[0] = _DONE
        elif kind == "retry":
            action[0] = _RETRY
            delay[0] = float(d[1])
        elif kind == "give_up":
            action[0] = _GIVE_UP
            reason[0] = _REASONS[d[1]] if len(d) > 1 else 0
        else:
            raise ValueError("decide returned %r; expected ('done',), ('retry', SECONDS) or ('give_up', REASON)"
                             % (d,))
    except BaseException as e:
        action[0] = -1
        _text(why, n, _why(e))


@ffi.def_extern()
def herdpy_finish(cfg, client, call, now):
    c = _objects[cfg]
    try:
        fin = getattr(c.obj, "finish", None)
        if fin is not None and call:
            _now[0] = now
            fin(_objects.get(client), _objects.get(call), now)
    except BaseException as e:
        c.pending = c.pending or "finish: " + _why(e)
    _objects.pop(call, None)


@ffi.def_extern()
def herdpy_client_free(cfg, client):
    _objects.pop(client, None)


@ffi.def_extern()
def herdpy_release(cfg):
    _objects.pop(cfg, None)
