"""Checks and runs generated programs (used by the synth package tests).

Reads a JSON list of {"source": ..., "entry": ...} from stdin and writes a JSON list
with one object per program:

  status   "syntax" (ast.parse failed), "ok" (returned), "error" (uncaught
           exception), "never" (event or time budget exhausted)
  exc      the exception type name for "error" and "syntax"
  result   repr of the return value for "ok"
  stdout   what the program printed
  events   number of trace events (call, line, return, exception) in program frames

Usage: python3 run_programs.py [max_events] [timeout_seconds]
"""

import ast
import contextlib
import io
import json
import signal
import sys

MAX_EVENTS = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
TIMEOUT = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
FILENAME = "<synth>"


class Budget(BaseException):
    """Raised when a program exceeds its event or time budget."""


def on_alarm(signum, frame):
    raise Budget("time")


def run(source, entry):
    try:
        ast.parse(source)
    except SyntaxError as e:
        return {"status": "syntax", "exc": "SyntaxError", "result": str(e), "stdout": "", "events": 0}
    code = compile(source, FILENAME, "exec")
    call = compile(entry, FILENAME, "eval")
    env = {"__name__": "__synth__"}
    exec(code, env)
    events = [0]

    def local(frame, event, arg):
        events[0] += 1
        if events[0] > MAX_EVENTS:
            raise Budget("events")
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != FILENAME:
            return None
        return local(frame, event, arg)

    out = io.StringIO()
    status, exc, result = "ok", "", ""
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        with contextlib.redirect_stdout(out):
            sys.settrace(tracer)
            try:
                value = eval(call, env)
            finally:
                sys.settrace(None)
        result = repr(value)
    except Budget:
        status = "never"
    except BaseException as e:  # the program's own uncaught exception
        status, exc = "error", type(e).__name__
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {"status": status, "exc": exc, "result": result, "stdout": out.getvalue()[:2000], "events": events[0]}


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    sys.setrecursionlimit(1000)
    programs = json.load(sys.stdin)
    json.dump([run(p["source"], p["entry"]) for p in programs], sys.stdout)


if __name__ == "__main__":
    main()
