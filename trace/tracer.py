"""ndb tracer worker: runs Python programs under sys.settrace for the Go side.

The Go side (trace/worker.go) starts this file with
    python3 -I -S -B -c <bootstrap> --memory-mib N [--code-cache PREFIX]
feeding this source on stdin (the bootstrap, trace/python.go, may load the
compiled source from the code cache instead of compiling it), and then speaks JSON-RPC 2.0 over two extra pipes:
requests arrive on fd 3 and responses leave on fd 4, one JSON object per line. The
traced program's stdout and stderr are captured per request and returned in the
result; the worker's own fd 1 and 2 are only logged by the Go side, so nothing the
program does with print() can corrupt the RPC channel.

Methods: trace, parse, check, ping. Every request that runs a program (trace,
check) is served by a fresh child process (the sandbox section below). The wire types are defined in trace/types.go;
the event rules follow section 1 of the trace-model spec. Standard library only;
Python 3.10 or newer (3.11 is the reference).
"""

import _signal
import builtins
import gc
import io
import json
import os
import re
import resource
import signal
import sys
import time
import types

PROGRAM = "<program>"  # filename of the traced source; only its frames are recorded
ENTRY = "<entry>"  # filename of the entry expression (never recorded)
EXPECTED = "<expected>"  # filename of a check's expected-value expression

DEFAULT_MAX_EVENTS = 10000
DEFAULT_MAX_REPR = 200
DEFAULT_WALL_SECS = 2.0
DEFAULT_MAX_OUTPUT = 64 * 1024
DEFAULT_MEMORY_MIB = 1024

# Frames the program may use on top of the worker's own, so deep recursion ends
# as a RecursionError long before the C stack is in danger.
PROGRAM_RECURSION = 1000

CO_OPTIMIZED = 0x0001  # inspect.CO_OPTIMIZED: a function frame with fast locals

# Values hidden from the locals of module-level and class-body frames (decision):
# what a user thinks of as "the script's variables" are the data the script
# built, not the modules it imported or the functions and classes it defined.
_HIDDEN_IN_NAMESPACE = (
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    type,
)

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class _Timeout(BaseException):
    """Raised by the SIGALRM handler when the wall-clock limit is over."""


class _EventLimit(BaseException):
    """Raised by the trace function when the event limit is over."""


# ---------------------------------------------------------------------------
# Bounded repr


def brepr(value, limit):
    """Return repr(value) cut to `limit` characters plus "..." when longer.

    Builtin containers, str, bytes and int are written piece by piece, so the
    result is exactly the prefix of the true repr but a huge value costs no more
    than its first `limit` characters. Other types use their own repr. Memory
    addresses (" at 0x7f...") are removed so that runs are reproducible. The
    walk is iterative: nesting depth costs no Python recursion, which matters
    inside a trace function called near the recursion limit."""
    parts = []
    room = limit  # characters left before the limit
    active = set()  # ids of the containers being written (for cycles)
    stack = []  # generators of the open containers
    item = value
    try:
        while True:
            if item is not _NOTHING:
                piece = _piece(item, room + 1, active)
                item = _NOTHING
                if type(piece) is str:
                    parts.append(piece)
                    room -= len(piece)
                    if room < 0:
                        return "".join(parts)[:limit] + "..."
                else:
                    stack.append(piece)
            if not stack:
                return "".join(parts)
            for tok in stack[-1]:
                if type(tok) is str:
                    parts.append(tok)
                    room -= len(tok)
                    if room < 0:
                        return "".join(parts)[:limit] + "..."
                else:
                    item = tok[0]
                    break
            else:
                stack.pop()
    except Exception:  # e.g. "dictionary changed size during iteration"
        return "<repr failed: %s>" % type(value).__name__


_NOTHING = object()


def _piece(v, n, active):
    """The repr of a scalar as one string (at least its first n characters), or
    a generator of the pieces of a container: strings, and 1-tuples holding the
    elements to write in their place."""
    t = type(v)
    if t is str:
        return _str_repr(v, n)
    if t is int:
        return _int_repr(v)
    if t is list:
        return _seq(v, "[", "]", "[...]", active)
    if t is tuple:
        return _seq(v, "(", ",)" if len(v) == 1 else ")", "(...)", active)
    if t is dict:
        return _dict(v, active)
    if t is set:
        return _seq(v, "{", "}", "set(...)", active) if v else "set()"
    if t is frozenset:
        return _seq(v, "frozenset({", "})", "frozenset(...)", active) if v else "frozenset()"
    if t is bytes:
        return _bytes_repr(v, n)
    if t is bytearray:
        return _bytearray_repr(v, n)
    return _plain_repr(v, n)


def _seq(v, open_, close, cycle, active):
    key = id(v)
    if key in active:
        yield cycle
        return
    active.add(key)
    yield open_
    first = True
    for x in v:
        if first:
            first = False
        else:
            yield ", "
        yield (x,)
    yield close
    active.discard(key)


def _dict(v, active):
    key = id(v)
    if key in active:
        yield "{...}"
        return
    active.add(key)
    yield "{"
    first = True
    for k, x in v.items():
        if first:
            first = False
        else:
            yield ", "
        yield (k,)
        yield ": "
        yield (x,)
    yield "}"
    active.discard(key)


def _quote_probe(s, prefix, single, double):
    # repr() picks its quotes from the whole string; appending the quote
    # characters the whole string holds makes repr(prefix) choose the same ones,
    # and since escapes are per character the result starts with the true repr's
    # prefix for at least len(prefix) + 1 characters.
    if single in s and single not in prefix:
        prefix += single
    if double in s and double not in prefix:
        prefix += double
    return prefix


def _str_repr(s, n):
    if len(s) <= n:
        return repr(s)
    return repr(_quote_probe(s, s[:n], "'", '"'))


def _bytes_repr(b, n):
    if len(b) <= n:
        return repr(b)
    return repr(_quote_probe(b, b[:n], b"'", b'"'))


def _bytearray_repr(b, n):
    # bytearray picks and escapes quotes its own way; probing it with a
    # bytearray keeps exactly its rules.
    if len(b) <= n:
        return repr(b)
    return repr(bytearray(_quote_probe(b, bytes(b[:n]), b"'", b'"')))


_LOG10_2 = 0.30102999566398120


def _int_repr(v):
    try:
        return repr(v)
    except ValueError:  # more digits than sys.get_int_max_str_digits() allows
        pass
    n = -v if v < 0 else v
    k = int(n.bit_length() * _LOG10_2)  # the number has k or k + 1 digits
    sign = "negative " if v < 0 else ""
    if k < 100000:
        digits = k + 1 if n >= 10**k else k
        return "<%sint with %d digits>" % (sign, digits)
    return "<%sint with about %d digits>" % (sign, k)


def _plain_repr(v, n):
    try:
        r = repr(v)
    except Exception:
        return "<repr failed: %s>" % type(v).__name__
    if type(r) is not str:
        return "<repr failed: %s>" % type(v).__name__
    if " at 0x" in r:
        r = _ADDRESS.sub("", r)
    return r if len(r) <= n else r[:n]


# ---------------------------------------------------------------------------
# Per-request limits and process state


class _Limits:
    __slots__ = ("max_events", "max_repr", "wall_secs", "max_output", "memory_mib")

    def __init__(self, raw):
        raw = raw or {}

        def pick(name, default, kind):
            v = raw.get(name) or 0
            return kind(v) if v > 0 else default

        self.max_events = pick("max_events", DEFAULT_MAX_EVENTS, int)
        self.max_repr = pick("max_repr", DEFAULT_MAX_REPR, int)
        self.wall_secs = pick("wall_secs", DEFAULT_WALL_SECS, float)
        self.max_output = pick("max_output", DEFAULT_MAX_OUTPUT, int)
        self.memory_mib = pick("memory_mib", 0, int)


class _Capture(io.TextIOBase):
    """sys.stdout/sys.stderr of a request: keeps the first `limit` characters."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, limit):
        super().__init__()
        self._parts = []
        self._room = limit
        self._dropped = 0
        self.buffer = _ByteCapture(self)

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        n = len(s)
        if self._room >= n:
            self._parts.append(s)
            self._room -= n
        else:
            if self._room > 0:
                self._parts.append(s[: self._room])
            self._dropped += n - max(self._room, 0)
            self._room = 0
        return n

    def text(self):
        out = "".join(self._parts)
        if self._dropped:
            out += "\n[ndb: output truncated, %d more characters]\n" % self._dropped
        return out


class _ByteCapture(io.RawIOBase):
    """sys.stdout.buffer of a request: decodes into the text capture."""

    def __init__(self, text):
        super().__init__()
        self._text = text

    def writable(self):
        return True

    def write(self, b):
        self._text.write(bytes(b).decode("utf-8", "replace"))
        return len(b)


class _State:
    """What a request may change and the worker restores afterwards."""

    armed = False
    timed_out = False
    memory_hard = resource.RLIM_INFINITY
    stdout = sys.stdout
    stderr = sys.stderr
    stdin = sys.stdin
    recursion = sys.getrecursionlimit()
    int_digits = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    cwd = os.getcwd()
    path = list(sys.path)
    main_module = sys.modules.get("__main__")


def _on_alarm(signum, frame):
    if _State.armed:
        _State.timed_out = True
        raise _Timeout()


def _frame_depth():
    f, n = sys._getframe(1), 0
    while f is not None:
        n += 1
        f = f.f_back
    return n


def _begin(lim, capture):
    """Prepare the process for running a program."""
    sys.stdout = sys.stderr = capture
    sys.stdin = io.StringIO("")
    sys.setrecursionlimit(_frame_depth() + PROGRAM_RECURSION)
    if lim.memory_mib > 0:
        _set_memory(lim.memory_mib)
    signal.signal(signal.SIGALRM, _on_alarm)
    _State.timed_out = False
    _State.armed = True
    # After the first alarm, repeat every 50 ms so a program that swallows the
    # exception with a bare except is interrupted again.
    signal.setitimer(signal.ITIMER_REAL, lim.wall_secs, 0.05)


def _disarm():
    _State.armed = False
    signal.setitimer(signal.ITIMER_REAL, 0)
    sys.settrace(None)


def _reset():
    """Undo everything a request may have changed. Idempotent."""
    _disarm()
    sys.setprofile(None)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    sys.stdout, sys.stderr, sys.stdin = _State.stdout, _State.stderr, _State.stdin
    for stream in (sys.stdout, sys.stderr):  # written via sys.__stdout__: logged by Go
        try:
            stream.flush()
        except Exception:
            pass
    _set_memory(0)
    try:
        sys.setrecursionlimit(_State.recursion)
    except RecursionError:
        pass
    if _State.int_digits:
        sys.set_int_max_str_digits(_State.int_digits)
    try:
        if os.getcwd() != _State.cwd:
            os.chdir(_State.cwd)
    except OSError:  # the current directory was removed
        try:
            os.chdir(_State.cwd)
        except OSError:
            pass
    sys.path[:] = _State.path
    sys.modules.pop("__ndb__", None)
    if _State.main_module is not None:
        sys.modules["__main__"] = _State.main_module


def _set_memory(mib):
    """Set the soft address-space limit (0: back to the worker's hard limit)."""
    hard = _State.memory_hard
    soft = hard
    if mib > 0:
        soft = mib * 1024 * 1024
        if hard != resource.RLIM_INFINITY and soft > hard:
            soft = hard
    try:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    except (ValueError, OSError):
        pass


def _new_module(name):
    """A fresh module for the program, registered in sys.modules for the request
    (dataclasses, typing and pickle look a class's module up there)."""
    mod = types.ModuleType(name)
    mod.__dict__["__builtins__"] = builtins
    sys.modules[name] = mod
    return mod.__dict__


def _as_main(g):
    """After the module ran as "__ndb__" (so that its `if __name__ ==
    "__main__":` block was skipped), make it "__main__" for the call: objects of
    its classes then show as <__main__.C object>, as in a script run directly
    and in whole-script traces."""
    mod = sys.modules.get("__ndb__")
    g["__name__"] = "__main__"
    if mod is not None:
        sys.modules["__main__"] = mod
    for v in list(g.values()):
        if isinstance(v, (type, types.FunctionType)) and getattr(v, "__module__", None) == "__ndb__":
            try:
                v.__module__ = "__main__"
            except (AttributeError, TypeError):
                pass


def _syntax_error(e):
    line = getattr(e, "lineno", None) or 0
    msg = getattr(e, "msg", None) or str(e)
    return {"kind": "syntax", "message": msg, "line": line}


def _compile_program(source):
    """Compile the program; return (code, None) or (None, setup-error dict)."""
    try:
        return compile(source, PROGRAM, "exec", dont_inherit=True), None
    except SyntaxError as e:
        return None, _syntax_error(e)
    except (ValueError, RecursionError, MemoryError) as e:  # null bytes, nesting
        return None, {"kind": "syntax", "message": str(e) or type(e).__name__, "line": 0}


def _exit_ok(exc):
    return isinstance(exc, SystemExit) and exc.code in (None, 0)


def _describe(exc, lim):
    if isinstance(exc, _Timeout):
        return "time limit"
    if isinstance(exc, _EventLimit):
        return "event limit"
    return brepr(exc, lim.max_repr)


# ---------------------------------------------------------------------------
# Entry and check expressions


def _compile_expr(text, filename, namespace, what):
    """Compile an expression evaluated in the program's namespace. Returns
    (code, None) or (None, message); names it reads must exist."""
    import ast

    try:
        tree = ast.parse(text.strip(), filename, "eval")
    except SyntaxError as e:
        return None, "%s does not parse: %s" % (what, e.msg)
    except (ValueError, RecursionError, MemoryError) as e:
        return None, "%s does not parse: %s" % (what, e)
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            a = node.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
                if arg is not None:
                    bound.add(arg.arg)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            name = node.id
            if name not in bound and name not in namespace and not hasattr(builtins, name):
                return None, "%s: name %r is not defined" % (what, name)
    return compile(tree, filename, "eval", dont_inherit=True), None


# ---------------------------------------------------------------------------
# The recorder (trace function)


class _Recorder:
    """Records settrace events of frames whose code comes from PROGRAM."""

    def __init__(self, lim):
        self.events = []
        self.max_events = lim.max_events
        self.max_repr = lim.max_repr
        self.frames = {}  # frame object -> [id, depth, ended by exception]
        self.stack = []  # open recorded frames, innermost last
        self.next_id = 1
        self.limit_hit = False
        self.lost = False  # the trace function failed (recursion limit, memory)

    def locals_of(self, frame):
        code = frame.f_code
        namespace = not (code.co_flags & CO_OPTIMIZED)
        out = []
        limit = self.max_repr
        for name, v in list(frame.f_locals.items()):
            if name[:1] == ".":  # compiler-made, e.g. a comprehension's ".0"
                continue
            if namespace and (
                (name[:2] == "__" and name[-2:] == "__") or isinstance(v, _HIDDEN_IN_NAMESPACE)
            ):
                continue
            out.append([name, brepr(v, limit)])
        return out

    def emit(self, ev):
        if len(self.events) >= self.max_events:
            self.limit_hit = True
            raise _EventLimit()
        self.events.append(ev)

    def on_call(self, frame):
        info = self.frames.get(frame)
        if info is None:
            info = [self.next_id, 0, False]
        depth = len(self.stack)
        code = frame.f_code
        ev = {
            "event": "call",
            "frame": info[0],
            "depth": depth,
            "func": code.co_name,
            "file": "",
            # A module frame starts at line 0 in settrace; report its first line.
            "line": frame.f_lineno or code.co_firstlineno,
            "locals": self.locals_of(frame),
        }
        self.emit(ev)
        if info[0] == self.next_id:
            self.next_id += 1
            self.frames[frame] = info
        info[1] = depth
        info[2] = False
        self.stack.append(frame)

    def on_event(self, frame, event, arg):
        info = self.frames.get(frame)
        if info is None:  # not recorded from its call (cannot normally happen)
            return
        code = frame.f_code
        if event == "line":
            ev = {
                "event": "line",
                "frame": info[0],
                "depth": info[1],
                "func": code.co_name,
                "file": "",
                "line": frame.f_lineno,
                "locals": self.locals_of(frame),
            }
            self.emit(ev)
            info[2] = False
        elif event == "return":
            if not (info[2] and arg is None):
                ev = {
                    "event": "return",
                    "frame": info[0],
                    "depth": info[1],
                    "func": code.co_name,
                    "file": "",
                    "line": frame.f_lineno,
                    "arg": brepr(arg, self.max_repr),
                }
                self.emit(ev)
            # else: the frame is left by an exception; it ends with that event.
            info[2] = False
            self.pop(frame)
        elif event == "exception":
            exc = arg[1] if arg[1] is not None else arg[0]
            info[2] = True
            if isinstance(exc, _Timeout):
                # The time limit cut the run (its status says so): no exception of
                # the program's, and no event.
                return
            ev = {
                "event": "exception",
                "frame": info[0],
                "depth": info[1],
                "func": code.co_name,
                "file": "",
                "line": frame.f_lineno,
                "arg": brepr(exc, self.max_repr),
            }
            self.emit(ev)

    def pop(self, frame):
        stack = self.stack
        if stack and stack[-1] is frame:
            stack.pop()
        elif frame in stack:
            stack.remove(frame)

    def tracers(self):
        """Return the global trace function for sys.settrace."""
        rec = self

        def local_trace(frame, event, arg):
            try:
                rec.on_event(frame, event, arg)
            except RecursionError:
                rec.lost = True
                raise
            except MemoryError:
                rec.lost = True
                raise
            return local_trace

        def global_trace(frame, event, arg):
            if frame.f_code.co_filename != PROGRAM:
                return None  # not the program's code: no events for this frame
            try:
                rec.on_call(frame)
            except RecursionError:
                rec.lost = True
                raise
            except MemoryError:
                rec.lost = True
                raise
            return local_trace

        return global_trace

    def synthesize_unwind(self, exc, line_of):
        """Tracing died (the trace function itself hit the recursion limit or ran
        out of memory) and `exc` then left the program: add the exception events
        settrace would have reported in each open frame, innermost first."""
        while self.stack:
            frame = self.stack.pop()
            info = self.frames[frame]
            if info[2] and self.events and self.events[-1]["frame"] == info[0]:
                continue  # already ended with its exception event
            if len(self.events) >= self.max_events:
                self.limit_hit = True
                return
            self.events.append(
                {
                    "event": "exception",
                    "frame": info[0],
                    "depth": info[1],
                    "func": frame.f_code.co_name,
                    "file": "",
                    "line": line_of.get(frame, frame.f_lineno),
                    "arg": brepr(exc, self.max_repr),
                }
            )


def _traceback_lines(exc):
    lines = {}
    tb = exc.__traceback__
    while tb is not None:
        lines[tb.tb_frame] = tb.tb_lineno
        tb = tb.tb_next
    return lines


# ---------------------------------------------------------------------------
# Methods


def do_trace(params):
    lim = _Limits(params.get("limits"))
    source = params.get("source") or ""
    entry = (params.get("entry") or "").strip()
    capture = _Capture(lim.max_output)
    result = {"events": [], "status": "error", "output": ""}

    code, setup = _compile_program(source)
    if setup is not None:
        result["setup_error"] = setup
        result["exception"] = "SyntaxError: " + setup["message"]
        return result

    g = _new_module("__ndb__" if entry else "__main__")
    rec = _Recorder(lim)
    exc = None
    lost = False
    try:
        try:
            _begin(lim, capture)
            if entry:
                try:
                    exec(code, g)
                except BaseException as e:
                    if not _exit_ok(e):
                        setup = {"kind": "module", "message": _describe(e, lim), "line": _program_line(e)}
                if setup is None:
                    _as_main(g)
                    entry_code, why = _compile_expr(entry, ENTRY, g, "entry")
                    if why is not None:
                        setup = {"kind": "entry", "message": why}
                if setup is None:
                    exc, lost = _run_traced(rec, lambda: eval(entry_code, g))
            else:
                exc, lost = _run_traced(rec, lambda: exec(code, g))
        finally:
            _disarm()
    except _Timeout as e:  # the alarm fired while the worker was winding down
        if exc is None:
            exc = e
    output = capture.text()
    _reset()

    result["output"] = output
    if setup is not None:
        result["setup_error"] = setup
        result["exception"] = setup["message"]
        return result

    if lost and exc is not None and not (rec.limit_hit or _State.timed_out):
        rec.synthesize_unwind(exc, _traceback_lines(exc))
    result["events"] = rec.events

    if rec.limit_hit:
        result["status"], result["exception"] = "never", "event limit"
    elif _State.timed_out:
        result["status"], result["exception"] = "never", "time limit"
    elif lost and exc is None:
        result["status"] = "error"
        result["exception"] = "ndb: tracing was lost before the program ended (recursion limit or memory)"
    elif exc is None or _exit_ok(exc):
        result["status"] = "normal"
    else:
        result["status"], result["exception"] = "error", _describe(exc, lim)
    rec.frames.clear()
    if isinstance(exc, MemoryError):
        exc = None
        gc.collect()
    return result


def _run_traced(rec, run):
    """Run `run` under the recorder; return (uncaught exception or None, lost)."""
    trace_fn = rec.tracers()
    exc = None
    sys.settrace(trace_fn)
    try:
        run()
    except BaseException as e:
        exc = e
    finally:
        still = sys.gettrace()
        sys.settrace(None)
    lost = rec.lost or (still is not trace_fn and not rec.limit_hit and not _State.timed_out)
    return exc, lost


def _program_line(exc):
    """The innermost line of the program in exc's traceback (0 if none)."""
    line = 0
    tb = getattr(exc, "__traceback__", None)
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == PROGRAM:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def do_check(params):
    lim = _Limits(params.get("limits"))
    capture = _Capture(lim.max_output)
    result = {"ok": False}
    code, setup = _compile_program(params.get("source") or "")
    if setup is not None:
        result["error"] = "syntax error: %s (line %d)" % (setup["message"], setup["line"])
        return result
    g = _new_module("__ndb__")
    try:
        try:
            _begin(lim, capture)
            result.update(_check(code, g, params, lim))
        finally:
            _disarm()
    except _Timeout:
        result = {"ok": False, "error": "time limit exceeded (%gs)" % lim.wall_secs}
    _reset()
    if _State.timed_out and "error" not in result:
        result = {"ok": False, "error": "time limit exceeded (%gs)" % lim.wall_secs}
    return result


def _check(code, g, params, lim):
    try:
        exec(code, g)
    except BaseException as e:
        if isinstance(e, _Timeout):
            raise
        if not _exit_ok(e):
            return {"error": "module raised %s" % _describe(e, lim)}
    _as_main(g)
    call, why = _compile_expr(params.get("call") or "", ENTRY, g, "call")
    if why is not None:
        return {"error": why}
    expected, why = _compile_expr(params.get("expected") or "", EXPECTED, g, "expected")
    if why is not None:
        return {"error": why}
    try:
        actual = eval(call, g)
    except _Timeout:
        raise
    except BaseException as e:
        return {"error": "call raised %s" % _describe(e, lim)}
    out = {"actual": brepr(actual, lim.max_repr)}
    try:
        want = eval(expected, g)
    except _Timeout:
        raise
    except BaseException as e:
        out["error"] = "expected raised %s" % _describe(e, lim)
        return out
    try:
        out["ok"] = bool(actual == want)
    except _Timeout:
        raise
    except BaseException as e:
        out["error"] = "comparison raised %s" % _describe(e, lim)
    return out


def do_parse(params):
    import ast

    source = params.get("source") or ""
    try:
        tree = ast.parse(source, PROGRAM)
        code = compile(tree, PROGRAM, "exec", dont_inherit=True)
    except SyntaxError as e:
        return {"functions": [], "executable": [], "syntax_error": _syntax_error(e)}
    except (ValueError, RecursionError, MemoryError) as e:
        err = {"kind": "syntax", "message": str(e) or type(e).__name__, "line": 0}
        return {"functions": [], "executable": [], "syntax_error": err}
    functions = []
    _collect_functions(ast, tree, [], functions)
    functions.sort(key=lambda f: (f["first_line"], f["qualname"]))
    lines = set()
    _collect_lines(code, lines)
    out = {"functions": functions, "executable": sorted(lines)}
    try:  # program facts (analyze.py, prepended); a failure leaves the grammar alone
        out["facts"] = analyze_program(tree, code, params.get("entry") or "")
    except Exception as e:
        out["facts_error"] = "%s: %s" % (type(e).__name__, e)
    return out


def _collect_functions(ast, node, prefix, out):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qual = prefix + [child.name]
            a = child.args
            params = [p.arg for p in a.posonlyargs + a.args]
            if a.vararg is not None:
                params.append(a.vararg.arg)
            params += [p.arg for p in a.kwonlyargs]
            if a.kwarg is not None:
                params.append(a.kwarg.arg)
            out.append(
                {
                    "name": child.name,
                    "qualname": ".".join(qual),
                    "first_line": child.lineno,
                    "last_line": child.end_lineno or child.lineno,
                    "params": params,
                }
            )
            _collect_functions(ast, child, qual + ["<locals>"], out)
        elif isinstance(child, ast.ClassDef):
            _collect_functions(ast, child, prefix + [child.name], out)
        else:
            _collect_functions(ast, child, prefix, out)


_RESUME = None


def _collect_lines(code, lines):
    """Add the lines of `code` (and nested code objects) where a line event can
    happen: every line of its line table, except the lines that only hold the
    frame's start-up instructions (up to the first RESUME), such as a def line."""
    global _RESUME
    if _RESUME is None:
        import opcode

        _RESUME = opcode.opmap.get("RESUME", -1)
    start = 0
    raw = code.co_code
    for off in range(0, len(raw), 2):
        if raw[off] == _RESUME:
            start = off + 2
            break
    for lo, hi, line in code.co_lines():
        if line and hi > start:
            lines.add(line)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _collect_lines(const, lines)


def do_ping(params):
    return {
        "version": "%d.%d.%d" % sys.version_info[:3],
        "executable": sys.executable,
        "pid": os.getpid(),
        "sandbox": {"subreaper": _Zygote.subreaper, "netns": _Zygote.netns},
    }


METHODS = {"trace": do_trace, "parse": do_parse, "check": do_check, "ping": do_ping}


# ---------------------------------------------------------------------------
# Repository-level traces: a unittest module of real code, recording only the
# frames of the package under test (issue 3, "Repository-level traces").

# Test modules that need the network, threads, subprocesses, signals or a trace
# function of their own; trace_tests refuses them (a test that starts a thread or a
# subprocess anyway is simply not traced in that thread or process).
TESTS_DENY = re.compile(
    r"(^|\.)test_(socket|ssl|urllib2|urllibnet|httplib|httpservers|asyncio|asyncore|"
    r"asynchat|concurrent|thread|threading|subprocess|multiprocessing|signal|"
    r"sys_settrace|bdb|pdb|trace|profile|cprofile|faulthandler|smtp|imap|poplib|ftplib|"
    r"telnet|xmlrpc|wsgiref|logging|queue|selectors|select|fork|pty|tty|curses|tk|idle|"
    r"ttk|tkinter|capi|gdb|embed|venv|zipimport_support|site|regrtest)"
)


class _PackageRecorder(_Recorder):
    """A _Recorder of the frames whose file lies under one of the roots; every
    outermost call into them from outside is a root activation at depth 0, and the
    event's file is the path relative to `strip`."""

    def __init__(self, lim, roots, strip):
        super().__init__(lim)
        self.roots = tuple(roots)
        self.strip = strip
        self.files = {}  # co_filename -> relative path, or None when not recorded
        self.file = ""

    def rel(self, filename):
        r = self.files.get(filename, _NOTHING)
        if r is _NOTHING:
            r = None
            for root in self.roots:
                if filename == root or (root.endswith("/") and filename.startswith(root)):
                    r = filename[len(self.strip):] if self.strip and filename.startswith(self.strip) else filename
                    break
            self.files[filename] = r
        return r

    def emit(self, ev):
        ev["file"] = self.file
        _Recorder.emit(self, ev)

    def tracers(self):
        rec = self

        def local_trace(frame, event, arg):
            try:
                rec.file = rec.files[frame.f_code.co_filename]
                rec.on_event(frame, event, arg)
            except (RecursionError, MemoryError):
                rec.lost = True
                raise
            return local_trace

        def global_trace(frame, event, arg):
            f = rec.rel(frame.f_code.co_filename)
            if f is None:
                return None
            try:
                rec.file = f
                rec.on_call(frame)
            except (RecursionError, MemoryError):
                rec.lost = True
                raise
            return local_trace

        return global_trace


def do_trace_tests(params):
    """Run a unittest module (or test id) under settrace, recording only the frames
    of the package roots. Params: name, roots (files or directories ending in "/"),
    strip (prefix removed from recorded file paths), limits. The result is a trace
    result whose events are a sequence of independent depth-0 root calls; status is
    never when a limit cut the run, else normal; output holds the runner's report.
    The random module is seeded with 0 before the tests run."""
    import unittest

    lim = _Limits(params.get("limits"))
    name = (params.get("name") or "").strip()
    roots = [r for r in (params.get("roots") or []) if r]
    strip = params.get("strip") or ""
    capture = _Capture(lim.max_output)
    result = {"events": [], "status": "error", "output": ""}
    if not name or not roots:
        result["setup_error"] = {"kind": "entry", "message": "name and roots are required"}
        result["exception"] = result["setup_error"]["message"]
        return result
    if TESTS_DENY.search(name):
        result["setup_error"] = {"kind": "entry", "message": "denied: %s needs the network, threads, subprocesses or tracing" % name}
        result["exception"] = result["setup_error"]["message"]
        return result
    rec = _PackageRecorder(lim, roots, strip)
    setup = None
    exc = None
    lost = False
    counts = {}
    try:
        try:
            _begin(lim, capture)
            try:
                suite = unittest.defaultTestLoader.loadTestsFromName(name)
            except BaseException as e:
                setup = {"kind": "module", "message": _describe(e, lim)}
            if setup is None:

                class Result(unittest.TextTestResult):
                    def stopTest(self, test):
                        super().stopTest(test)
                        if rec.limit_hit or _State.timed_out or rec.lost:
                            self.stop()

                res = Result(capture, True, 0)

                def run():
                    # Tests that draw from the random module without a seed draw the
                    # same numbers in every run, so a corpus comes out the same twice.
                    import random

                    random.seed(0)
                    suite.run(res)

                exc, lost = _run_traced(rec, run)
                counts = {"run": res.testsRun, "failures": len(res.failures), "errors": len(res.errors), "skipped": len(res.skipped)}
        finally:
            _disarm()
    except _Timeout as e:
        if exc is None:
            exc = e
    output = capture.text()
    _reset()
    result["output"] = output
    if setup is not None:
        result["setup_error"] = setup
        result["exception"] = setup["message"]
        return result
    result["events"] = _whole_roots(rec.events)
    result["tests"] = counts
    if rec.limit_hit:
        result["status"], result["exception"] = "never", "event limit"
    elif _State.timed_out:
        result["status"], result["exception"] = "never", "time limit"
    else:
        result["status"] = "normal"
    rec.frames.clear()
    return result


def _whole_roots(events):
    """Drop a trailing unfinished root activation only when tracing was lost in the
    middle (keeps the depth rule: no jump of more than one level)."""
    out = []
    prev = -1
    for ev in events:
        if ev["depth"] > prev + 1:
            break
        out.append(ev)
        prev = ev["depth"]
    return out


METHODS["trace_tests"] = do_trace_tests


# ---------------------------------------------------------------------------
# The sandbox: every request in a fresh process (issue 14; docs/sandbox.md)
#
# This process is a zygote. It imports the tracer once and never runs a line of a
# program: every request that runs one (trace, check, trace_tests) is served by a
# child forked for it alone, which exits after it, so nothing one program changes
# (builtins, sys, import and compile hooks, threads) reaches the next one. Parsing
# for neural mode happens in the zygote itself, a process that never ran user
# code. A run gets its own session and
# process group, resource limits, a private temporary working directory, stdin
# from /dev/null, no access to the zygote's pipes, and no network where the
# kernel allows a user and network namespace without privileges. The zygote is a
# child subreaper: whatever a run leaves behind (a double-forked daemon, a
# subprocess in a new session) is reparented to it and killed before the answer
# goes out. The answer comes back through a pipe of the run's own; the zygote
# checks that it is one JSON object before it, alone, writes to the Go side.

PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000

RUN_NPROC = 256  # processes a run may have on top of those the user already has
RUN_FSIZE = 64 << 20  # the largest file a run may write

# Error codes of the zygote's own answers (trace/worker.go maps them).
CODE_RUN_TIMEOUT = -32001  # the run outlived its limit plus the kill grace: killed
CODE_RUN_DIED = -32002  # the run's process ended without an answer
CODE_RUN_GARBLED = -32003  # the run's answer was not one JSON object

# Methods the zygote answers itself: they never run a line of the program (parse
# only compiles it, and the zygote has never run user code, so no hook can see the
# source), and a fork would cost more than the answer.
ZYGOTE_METHODS = ("ping", "parse")


class _Zygote:
    """The zygote's settings, found once at start-up."""

    pid = 0
    kill_grace = 1.0  # seconds past a run's wall-clock limit before it is killed
    libc = None  # ctypes handle for prctl and unshare, None where unavailable
    subreaper = False
    netns = False  # runs get a user and network namespace of their own
    nproc = RUN_NPROC
    run_parent = "/tmp"  # where run directories are made
    run_pid = 0  # the child serving the current request, 0 when idle
    spare = None  # (pid, request pipe, answer pipe, directory) of the next run


class _Run:
    """Per-run state of a child (only ever set in a child)."""

    answer_fd = -1


def _init_zygote(kill_grace):
    _Zygote.pid = os.getpid()
    _Zygote.kill_grace = kill_grace
    try:
        import ctypes

        _Zygote.libc = ctypes.CDLL(None, use_errno=True)
        _Zygote.subreaper = _Zygote.libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (ImportError, OSError, AttributeError):
        _Zygote.libc = None
    _Zygote.nproc = _user_processes() + RUN_NPROC
    _Zygote.run_parent = _run_dir_parent()
    # The zygote and its runs get a network namespace of their own, made once
    # here (a new one per run cost more than the run); each run then adds a user
    # namespace of its own, so that it has no capability over the zygote.
    _Zygote.netns = _unshare(CLONE_NEWUSER | CLONE_NEWNET)
    signal.signal(signal.SIGTERM, _on_term)
    # What the methods import on first use is imported once here, not in every
    # run (an import of ast in each child cost more than the trace itself).
    # tempfile, shutil and traceback are not: the run directory is made and
    # removed with os alone, and each of them would add pages that every fork
    # copies the page tables of.
    import ast  # noqa: F401
    import opcode
    import select  # noqa: F401

    global _RESUME
    _RESUME = opcode.opmap.get("RESUME", -1)
    # The objects that exist now are never collected: the cyclic collector of a
    # child then does not touch (and copy) the zygote's pages.
    gc.collect()
    gc.freeze()


def _on_term(signum, frame):
    raise SystemExit(0)  # serve's finally kills the run and sweeps


def _user_processes():
    """How many processes the user has now (RLIMIT_NPROC counts them all)."""
    uid = os.getuid()
    n = 0
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    for name in names:
        if name.isdigit():
            try:
                if os.stat("/proc/" + name).st_uid == uid:
                    n += 1
            except OSError:
                pass
    return n


def _rlimit(which, soft, hard):
    try:
        cur_soft, cur_hard = resource.getrlimit(which)
        if cur_hard != resource.RLIM_INFINITY:
            hard = min(hard, cur_hard)
            soft = min(soft, hard)
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass


def _spawn_spare():
    """Fork the child that will serve the next request, ahead of it: while the
    zygote is idle, the fork and the sandbox's set-up are off the request's path.
    The child waits for its request on a pipe of its own."""
    tmp = _make_run_dir()
    req_r, req_w = os.pipe()
    ans_r, ans_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(req_w)
            os.close(ans_r)
            _enter_sandbox(tmp, req_r, ans_w)
            _serve_child(req_r, ans_w)
        finally:
            os._exit(4)
    os.close(req_r)
    os.close(ans_w)
    _Zygote.spare = (pid, req_w, ans_r, tmp)


def _take_spare():
    """The waiting child, a new one if there is none or it died."""
    if _Zygote.spare is not None:
        pid, req_w, ans_r, tmp = _Zygote.spare
        try:
            alive = os.waitpid(pid, os.WNOHANG)[0] == 0
        except ChildProcessError:
            alive = False
        if not alive:
            _drop_spare()
    if _Zygote.spare is None:
        _spawn_spare()
    spare, _Zygote.spare = _Zygote.spare, None
    return spare


def _drop_spare():
    """Kill the waiting child and remove its directory."""
    if _Zygote.spare is None:
        return
    pid, req_w, ans_r, tmp = _Zygote.spare
    _Zygote.spare = None
    for fd in (req_w, ans_r):
        os.close(fd)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    _remove_run_dir(tmp)


def _run_dir_parent():
    """Where run directories are made: $TMPDIR as the zygote got it, else /tmp
    (tempfile.gettempdir's first choices, without importing tempfile)."""
    for d in (os.environ.get("TMPDIR"), "/tmp", "/var/tmp"):
        if d and os.path.isdir(d) and os.access(d, os.W_OK | os.X_OK):
            return d
    return os.getcwd()


def _make_run_dir():
    """A new, empty directory only this user can enter (what tempfile.mkdtemp
    makes: a random name, mode 0700, never an existing one), with os alone."""
    for _ in range(100):
        path = "%s/ndb-run-%s" % (_Zygote.run_parent, os.urandom(6).hex())
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue
    raise FileExistsError("no free name for a run directory in %s" % _Zygote.run_parent)


def _remove_run_dir(path):
    """Remove a run's directory and whatever the run left in it. An empty one (the
    usual case) costs one rmdir; anything else is walked without following links,
    and what cannot be removed is left (as shutil.rmtree(ignore_errors=True))."""
    try:
        os.rmdir(path)
        return
    except FileNotFoundError:
        return
    except OSError:
        pass
    try:
        os.chmod(path, 0o700)  # the run may have made its own directory unreadable
    except OSError:
        pass
    _remove_tree(path, 0)


def _remove_tree(path, depth):
    try:
        entries = list(os.scandir(path))
    except OSError:
        entries = []
    for e in entries:
        try:
            if e.is_dir(follow_symlinks=False) and depth < 256:
                try:
                    os.chmod(e.path, 0o700)  # a run may have made it unreadable
                except OSError:
                    pass
                _remove_tree(e.path, depth + 1)
            else:
                os.unlink(e.path)
        except OSError:
            pass
    try:
        os.rmdir(path)
    except OSError:
        pass


def _enter_sandbox(tmp, request_fd, answer_fd):
    """In a freshly forked child: leave the zygote's session, pipes and limits."""
    os.setsid()  # its own session and process group: killed as one
    # _signal, not signal: the signal module's enum wrapping touched (and so
    # copied) some 60 pages of the zygote, a tenth of a run's.
    _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
    libc = _Zygote.libc
    if libc is not None:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        libc.prctl(PR_SET_NAME, b"ndb-spare", 0, 0, 0)  # its /proc/PID/comm
    if os.getppid() != _Zygote.pid:  # the zygote died before the prctl
        os._exit(1)
    # The link to Go (requests on fd 3, answers on fd 4) and anything else the
    # zygote holds: a program can neither read later requests nor forge answers.
    lo, hi = sorted((request_fd, answer_fd))
    os.closerange(3, lo)
    os.closerange(lo + 1, hi)
    os.closerange(hi + 1, 1 << 16)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    _Run.answer_fd = answer_fd
    _rlimit(resource.RLIMIT_CORE, 0, 0)
    if _Zygote.netns:
        _unshare(CLONE_NEWUSER)
    _rlimit(resource.RLIMIT_NPROC, _Zygote.nproc, _Zygote.nproc)
    _rlimit(resource.RLIMIT_FSIZE, RUN_FSIZE, RUN_FSIZE)
    os.chdir(tmp)
    _State.cwd = tmp
    os.environ["TMPDIR"] = tmp  # tempfile, imported by a program, starts from it
    os.register_at_fork(after_in_child=_forked)


def _unshare(flags):
    """Enter new namespaces: a user namespace (the process keeps its uid and loses
    every capability outside it) and, with CLONE_NEWNET, a network namespace with
    only a loopback that is down: no connection out. False when the kernel
    refuses."""
    if _Zygote.libc is None:
        return False
    uid, gid = os.getuid(), os.getgid()
    if _Zygote.libc.unshare(flags) != 0:
        return False
    # os.open and os.write rather than open(): the io objects of open() cost a
    # run more (in pages copied) than the unshare itself.
    for path, text in (
        (b"/proc/self/setgroups", b"deny"),
        (b"/proc/self/uid_map", b"%d %d 1" % (uid, uid)),
        (b"/proc/self/gid_map", b"%d %d 1" % (gid, gid)),
    ):
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError:
            continue
        try:
            os.write(fd, text)
        except OSError:
            pass
        finally:
            os.close(fd)
    return True


def _forked():
    """os.fork() inside a program: the child branch runs untraced and never answers;
    the recording follows the parent."""
    sys.settrace(None)
    try:
        os.close(_Run.answer_fd)
    except OSError:
        pass
    _Run.answer_fd = -1


def _serve_child(request_fd, answer_fd):
    """Wait for one request, serve it and exit; the answer is "R" + result or "E"
    + error object, as JSON."""
    chunks = []
    while True:
        b = os.read(request_fd, 1 << 20)
        if not b:
            break
        chunks.append(b)
    os.close(request_fd)
    if _Zygote.libc is not None:
        _Zygote.libc.prctl(PR_SET_NAME, b"ndb-run", 0, 0, 0)
    me = os.getpid()
    try:
        req = json.loads(b"".join(chunks))
        method, params = req.get("method"), req.get("params") or {}
        lim = _Limits(params.get("limits"))
        cpu = int(lim.wall_secs) + 3  # CPU seconds: a backstop to the wall clock
        _rlimit(resource.RLIMIT_CPU, cpu, cpu + 1)
        result = METHODS[method](params)
        if os.getpid() != me:  # the child of a program's fork() came back here
            os._exit(0)
        data = b"R" + json.dumps(result).encode("ascii")
    except BaseException as e:  # a bug in the tracer, a late alarm, memory
        if os.getpid() != me:
            os._exit(0)
        result = None
        gc.collect()
        if isinstance(e, MemoryError):
            err = {"code": -32603, "message": "out of memory encoding the result"}
        else:
            import traceback

            sys.__stderr__.write("".join(traceback.format_exception(type(e), e, e.__traceback__)))
            sys.__stderr__.flush()
            err = {"code": -32603, "message": "worker: " + repr(e)}
        data = b"E" + json.dumps(err).encode("ascii")
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(answer_fd, view):]
    except OSError:
        os._exit(3)
    os._exit(0)


def _run_sandboxed(method, line, params, link):
    """Hand one request (its JSON line) to a fresh child, wait for the answer
    within the limit plus the kill grace, clean up after the child, and return
    the JSON-RPC body ("result": ... or "error": ...) as bytes."""
    import select

    lim = _Limits(params.get("limits"))
    pid, w, r, tmp = _take_spare()
    _Zygote.run_pid = pid
    try:
        view = memoryview(line)
        while view:
            view = view[os.write(w, view):]
    except OSError:  # the child is gone: its status says how
        pass
    finally:
        os.close(w)
    chunks = []
    timed_out = False
    status = None
    try:
        try:
            pidfd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            pidfd = -1
        watch = [r, link.fd] + ([pidfd] if pidfd >= 0 else [])
        deadline = time.monotonic() + lim.wall_secs + _Zygote.kill_grace
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    timed_out = True
                    break
                ready = select.select(watch, [], [], left)[0]
                if r in ready:
                    b = os.read(r, 1 << 20)
                    if not b:
                        break
                    chunks.append(b)
                elif pidfd in ready:  # exited; a descendant may still hold the pipe
                    os.set_blocking(r, False)
                    try:
                        while True:
                            b = os.read(r, 1 << 20)
                            if not b:
                                break
                            chunks.append(b)
                    except BlockingIOError:
                        pass
                    break
                if link.fd in ready and not link.fill():
                    raise SystemExit(0)  # Go closed the link: shut down
        finally:
            if pidfd >= 0:
                os.close(pidfd)
    finally:
        os.close(r)
        status = _end_run(pid)
        _remove_run_dir(tmp)
    if timed_out:
        msg = "time limit: the program ran past %gs and was killed" % lim.wall_secs
        return _error_body(CODE_RUN_TIMEOUT, msg)
    return _check_answer(b"".join(chunks), status)


def _end_run(pid):
    """Kill what is left of a run, reap it and sweep its descendants; return its
    wait status."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    status = 0
    try:
        status = os.waitpid(pid, 0)[1]
    except ChildProcessError:
        pass
    _Zygote.run_pid = 0
    _sweep()
    return status


def _sweep():
    """Kill and reap every process a run left behind. As the subreaper the zygote
    inherits them all once their parents are gone, so it kills its children until
    it has none."""
    end = time.monotonic() + 5.0
    while True:
        try:
            pid = os.waitpid(-1, os.WNOHANG)[0]
        except ChildProcessError:
            return
        if pid:
            continue
        for child in _children(_Zygote.pid):
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        if time.monotonic() > end:
            sys.stderr.write("ndb tracer: processes left by a run survive the sweep\n")
            return
        time.sleep(0.001)


def _children(parent):
    """The pids whose parent is `parent`, from /proc."""
    out = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == parent:
            out.append(int(name))
    return out


def _check_answer(data, status):
    """The JSON-RPC body of a run's answer: its result or error when it is one JSON
    object, else an error that says how the run ended."""
    kind, body = data[:1], data[1:]
    if kind in (b"R", b"E"):
        try:
            obj = json.loads(body)
        except (ValueError, RecursionError, MemoryError):
            obj = None
        if kind == b"R" and isinstance(obj, dict):
            return b'"result": ' + body
        if (
            kind == b"E"
            and isinstance(obj, dict)
            and type(obj.get("code")) is int
            and isinstance(obj.get("message"), str)
        ):
            return _error_body(obj["code"], obj["message"])
    if not data:
        return _error_body(CODE_RUN_DIED, "the program's process ended without an answer: %s" % _describe_status(status))
    return _error_body(CODE_RUN_GARBLED, "the program garbled its answer (%d bytes; %s)" % (len(data), _describe_status(status)))


def _describe_status(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        return "killed by %s" % name
    return "exit status %d" % os.waitstatus_to_exitcode(status)


def _error_body(code, message):
    return b'"error": ' + json.dumps({"code": code, "message": message}).encode("ascii")


# ---------------------------------------------------------------------------
# JSON-RPC loop


class _Link:
    """The request pipe from Go, read a line at a time; fill() also tells EOF
    while a run is in flight."""

    def __init__(self, fd):
        self.fd = fd
        self.buf = b""
        self.eof = False

    def fill(self):
        b = os.read(self.fd, 1 << 16)
        if not b:
            self.eof = True
            return False
        self.buf += b
        return True

    def readline(self):
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line, self.buf = self.buf[: i + 1], self.buf[i + 1 :]
                return line
            if self.eof or not self.fill():
                line, self.buf = self.buf, b""
                return line or None


def _respond(out, msg):
    try:
        data = json.dumps(msg).encode("ascii")
    except MemoryError:
        gc.collect()
        data = json.dumps(
            {"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": -32603, "message": "out of memory encoding the result"}}
        ).encode("ascii")
    out.write(data + b"\n")
    out.flush()


def serve(link, out):
    try:
        _spawn_spare()
        _serve(link, out)
    finally:
        if _Zygote.run_pid:
            _end_run(_Zygote.run_pid)
        _drop_spare()
        _sweep()


def _serve(link, out):
    while True:
        line = link.readline()
        if line is None:
            return
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            _respond(out, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": str(e)}})
            continue
        rid = req.get("id")
        name = req.get("method")
        if name not in METHODS:
            if rid is not None:
                err = {"code": -32601, "message": "unknown method %r" % name}
                _respond(out, {"jsonrpc": "2.0", "id": rid, "error": err})
            continue
        if name in ZYGOTE_METHODS:
            try:
                msg = {"jsonrpc": "2.0", "id": rid, "result": METHODS[name](req.get("params") or {})}
            except Exception as e:  # a bug in the tracer; the program never runs here
                msg = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "worker: " + repr(e)}}
            if rid is not None:
                _respond(out, msg)
            continue
        body = _run_sandboxed(name, line, req.get("params") or {}, link)
        if rid is not None:
            out.write(b'{"jsonrpc": "2.0", "id": ' + json.dumps(rid).encode("ascii") + b", " + body + b"}\n")
            out.flush()
        body = None
        _spawn_spare()  # while Go reads the answer


def main(argv):
    mib = DEFAULT_MEMORY_MIB
    if "--memory-mib" in argv:
        mib = int(argv[argv.index("--memory-mib") + 1])
    kill_grace = 1.0
    if "--kill-grace" in argv:
        kill_grace = float(argv[argv.index("--kill-grace") + 1])
    if mib > 0:
        limit = mib * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            _State.memory_hard = limit
        except (ValueError, OSError) as e:
            sys.stderr.write("ndb tracer: cannot set the memory limit: %s\n" % e)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    for fd in (3, 4):
        os.set_inheritable(fd, False)
    _init_zygote(kill_grace)
    out = os.fdopen(4, "wb")
    serve(_Link(3), out)


if __name__ == "__main__":
    main(sys.argv[1:])
