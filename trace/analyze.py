"""ndb program facts: what a program's text alone says about its execution.

Prepended to the tracer (trace/python.go); the tracer's `parse` method returns
`facts`, the value grammar.Facts decodes. Everything here comes from `compile()`,
`ast` and `dis`: no line of the program ever runs. The facts are conservative
(sound): whatever a real run of the program does must be allowed by them; where a
fact cannot be known the code object is marked loose or open instead.

Per code object (module, functions, lambdas, comprehensions, class bodies):
names, the call state's keys, the lines where a line event can happen, the events
that can follow a line event, a call event or an exception event in the same frame
(found by a search over the bytecode's control flow with CPython 3.11's line-event
rule), the return lines, and the functions each line can call. Only CPython 3.11
is modelled (its settrace rules); any other version gets no facts.
"""

import ast as _ast
import copy as _copy
import dis as _dis
import sys as _sys
import types as _types

_FACTS_VERSION = (3, 11)

_CO_GENERATOR_LIKE = 0x0020 | 0x0080 | 0x0200  # generator, coroutine, async generator
_CO_OPTIMIZED_FLAG = 0x0001

# Names whose use makes calls and namespaces unknowable from the text.
_DYNAMIC_NAMES = frozenset(
    ("getattr", "eval", "exec", "globals", "locals", "vars", "setattr", "__import__", "compile",
     "importlib", "methodcaller", "attrgetter", "__dict__", "__getattribute__", "__getattr__")
)

_UNCONDITIONAL = frozenset(("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP"))
_STOP = frozenset(("RETURN_VALUE", "RAISE_VARARGS", "RERAISE"))
_JUMPS = frozenset(_dis.hasjrel) | frozenset(_dis.hasjabs)


def analyze_program(tree, code, entry=""):
    """Return the facts of a compiled program (code from compile(tree, ...)), or
    None when this interpreter's trace rules are not modelled. entry is the
    expression a run calls after the module ran ("": unknown)."""
    if _sys.version_info[:2] != _FACTS_VERSION:
        return None
    codes = []
    _walk_codes(code, None, codes)
    dynamic = _is_dynamic(tree)
    ids = {}
    for i, c in enumerate(codes):
        ids[id(c)] = i
    out = [_code_facts(c, c is code, codes) for c in codes]
    instrs = [list(_dis.get_instructions(c)) for c in codes]
    _made_lines(codes, ids, instrs, out)
    if not dynamic:
        _changeable_cells(codes, ids, instrs, out)
        module_names = set(out[0]["names"])
        for ins_list in instrs:
            for ins in ins_list:
                if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                    module_names.add(ins.argval)
        out[0]["names"] = sorted(n for n in module_names if not _dunder(n))
    else:
        # exec and friends can add names to any frame's locals.
        for f in out:
            f["open_names"] = True
    _calls(tree, codes, out, dynamic)
    noclass, closed = _world(codes, dynamic)
    imports = any(isinstance(n, (_ast.Import, _ast.ImportFrom)) for n in _ast.walk(tree))
    bound = _bound_names([tree])  # a builtin of such a name is not the builtin
    if noclass and not dynamic and not imports:
        # Reprs are then of builtin values, which grammar/branch_eval.go reads exactly.
        builtins = _EVAL_BUILTINS - bound
        _branches(tree, codes, out, builtins)
        _assigns(tree, codes, out, builtins)
        _fors(tree, codes, out, builtins, "range" not in bound)
    facts = {"version": 1, "open": dynamic, "noclass": noclass, "closed": closed, "codes": out}
    call = _literal_call(entry)
    if entry.strip() and call is None:
        # The entry can call several functions of the program, one after another.
        facts["entry_open"] = True
    if not dynamic and call is not None:
        i = _entry_code(tree, codes, out, call)
        if i is not None:
            facts["entry_code"] = i
            _unescaped(tree, codes[i], out[i], bound)
    return facts


def _walk_codes(code, parent, out):
    out.append(code)
    for const in code.co_consts:
        if isinstance(const, _types.CodeType):
            _walk_codes(const, code, out)


def _made_lines(codes, ids, instrs, out):
    """Where each nested code object's functions are made: the code whose constant it
    is ("parent") and the lines of the instructions there that load it for
    MAKE_FUNCTION ("made_lines"), so that no frame of it can exist before its parent's
    frame has run one of those lines. Neither is given for a code loaded by two codes
    or at an instruction without a line."""
    sites = {}
    for i, (c, ins) in enumerate(zip(codes, instrs)):
        line_of = _line_table(c, ins)
        for x in ins:
            if x.opname == "LOAD_CONST" and isinstance(x.argval, _types.CodeType):
                g = ids.get(id(x.argval))
                if g is not None:
                    sites.setdefault(g, []).append((i, line_of.get(x.offset)))
    for g, found in sites.items():
        parents = {p for p, _ in found}
        lines = {l for _, l in found}
        if len(parents) != 1 or None in lines or 0 in lines:
            continue
        out[g]["parent"] = parents.pop()
        out[g]["made_lines"] = sorted(lines)


def _changeable_cells(codes, ids, instrs, out):
    """Narrow each function's "cells" (the locals that other frames can change) to its
    free variables, which the enclosing frame owns, and the cell variables that a code
    nested in it, at any depth, stores or deletes (`nonlocal`): a cell that nested
    code only reads changes only by the function's own stores, which its line facts
    count (_STORES). Any name of that kind counts, shadowed or not. Not for a dynamic
    program, whose frames anything can change."""
    derefs = [{i.argval for i in ins if i.opname in ("STORE_DEREF", "DELETE_DEREF")} for ins in instrs]

    def nested(c):
        return [ids[id(k)] for k in c.co_consts if isinstance(k, _types.CodeType)]

    for c, f in zip(codes, out):
        vf = f.get("values")
        if vf is None:
            continue
        stored = set()
        stack = nested(c)
        while stack:
            g = stack.pop()
            stack.extend(nested(codes[g]))
            stored |= derefs[g]
        vf["cells"] = [n for n in vf["cells"] if n in c.co_freevars or n in stored]


def _literal_call(entry):
    """The entry's call when it is NAME(literals...), which calls one function once
    (ast.literal_eval takes every argument, so building them runs no code); else None."""
    try:
        call = _ast.parse(entry.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(call, _ast.Call) or not isinstance(call.func, _ast.Name):
        return None
    for arg in call.args + [k.value for k in call.keywords]:
        try:
            _ast.literal_eval(arg)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
    return call


def _entry_code(tree, codes, out, call):
    """The index of the function that the entry's call (_literal_call) calls and
    nothing else can call, so that a run has a single frame of it
    (grammar/values_breakpoint.go), or None: NAME bound only by one undecorated def at
    the module's top level, and the function not a generator, never called by a line
    of the program (the module included) nor used as a value (any_caller)."""
    name = call.func.id
    defs = [n for n in tree.body if isinstance(n, _ast.FunctionDef) and n.name == name]
    if len(defs) != 1 or defs[0].decorator_list:
        return None
    for node in _ast.walk(tree):
        if node is defs[0]:
            continue
        rebinds = (
            isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef)) and node.name == name
            or isinstance(node, _ast.Name) and node.id == name and not isinstance(node.ctx, _ast.Load)
            or isinstance(node, (_ast.Global, _ast.Nonlocal)) and name in node.names
            or isinstance(node, _ast.alias) and (node.asname or node.name).split(".")[0] == name
            or isinstance(node, _ast.ExceptHandler) and node.name == name
            or type(node).__name__ in ("MatchAs", "MatchStar") and getattr(node, "name", None) == name
            or type(node).__name__ == "MatchMapping" and getattr(node, "rest", None) == name
        )
        if rebinds:
            return None
    for i, c in enumerate(codes):
        if c.co_name != name or c.co_firstlineno != defs[0].lineno or not any(k is c for k in codes[0].co_consts):
            continue
        f = out[i]
        if f["kind"] != "function" or f["loose"] or f["any_caller"]:
            return None
        if any(i in cs for g in out for cs in g["callees"].values()):
            return None
        return i
    return None


# Builtins that make a new object, or a number, string or iterator, from their
# arguments and never change them or hand one back (min and max do, with several
# positional arguments; with one, an iterable, they give one of its elements or the
# default, so key= and default= are safe: the names in them are uses of their own).
_FRESH_BUILTINS = frozenset(("len", "sorted", "list", "tuple", "set", "frozenset", "dict", "str",
                             "repr", "ascii", "format", "sum", "any", "all", "enumerate", "zip",
                             "reversed", "bool", "abs", "int", "float", "hash", "print", "iter",
                             "divmod", "round", "ord", "chr", "isinstance"))
_ONE_ARG_BUILTINS = frozenset(("min", "max"))
_ONE_ARG_KEYWORDS = frozenset(("key", "default"))

# Methods of builtin types that change nothing (their receiver or their arguments),
# and those of them whose arguments are safe to pass (no method keeps or returns one).
_READING_METHODS = frozenset((
    "count", "index", "find", "rfind", "rindex", "upper", "lower", "strip", "lstrip", "rstrip",
    "split", "rsplit", "splitlines", "join", "replace", "startswith", "endswith", "isdigit",
    "isalpha", "isalnum", "isspace", "isupper", "islower", "istitle", "isnumeric", "isdecimal",
    "isascii", "isidentifier", "isprintable", "title", "capitalize", "casefold", "swapcase",
    "center", "ljust", "rjust", "zfill", "partition", "rpartition", "expandtabs",
    "removeprefix", "removesuffix", "encode", "get", "keys", "values", "items", "copy", "union",
    "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
))
_ARG_SAFE_METHODS = frozenset((
    "count", "index", "find", "rfind", "rindex", "join", "startswith", "endswith", "union",
    "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
))


def _unescaped(tree, code, f, bound):
    """Set f["values"]["unescaped"]: the parameters of the entry's function (code, with
    a single frame: _entry_code) that the function only reads (bound: every name the
    file binds, whose builtin is then not known). Every load of such a
    name is a use that neither changes the object nor lets another name reach it (an
    argument of a builtin that makes something new, the receiver of a reading method,
    a subscript, an iteration, a test, an operand, a formatted value, the returned
    value), and the name is never stored and is not a cell. The entry's arguments are
    literals, so nothing else refers to these objects: with only immutable elements
    (grammar/values.go, untouched) they keep their repr for the whole frame."""
    vf = f.get("values")
    if vf is None:
        return
    node = next((n for n in tree.body if isinstance(n, _ast.FunctionDef) and n.name == code.co_name
                 and n.lineno == code.co_firstlineno), None)
    if node is None:
        return
    parent = {}
    for n in _ast.walk(node):
        for child in _ast.iter_child_nodes(n):
            parent[child] = n
    unsafe = set(code.co_cellvars) | set(code.co_freevars) | set(vf["whole"]["stores"])
    for n in _ast.walk(node):
        if isinstance(n, _ast.Name) and n.id in f["params"] and not _reads_only(n, parent, bound):
            unsafe.add(n.id)
    vf["unescaped"] = [p for p in f["params"] if p not in unsafe]


def _reads_only(name, parent, bound):
    """Whether this use of a name (or of an `and`/`or`/`if else` that can give its
    object) only reads its object (_unescaped)."""
    if isinstance(name, _ast.Name) and not isinstance(name.ctx, _ast.Load):
        return False
    p = parent.get(name)
    if isinstance(p, _ast.BoolOp) or isinstance(p, _ast.IfExp) and p.test is not name:
        return _reads_only(p, parent, bound)  # the value may be the object itself
    if isinstance(p, _ast.Call) and name in p.args:
        fn = p.func
        if isinstance(fn, _ast.Name) and fn.id not in bound:
            return fn.id in _FRESH_BUILTINS or fn.id in _ONE_ARG_BUILTINS and len(p.args) == 1 and all(
                k.arg in _ONE_ARG_KEYWORDS for k in p.keywords)
        return isinstance(fn, _ast.Attribute) and fn.attr in _ARG_SAFE_METHODS
    if isinstance(p, _ast.Attribute) and p.value is name:
        call = parent.get(p)
        return p.attr in _READING_METHODS and isinstance(call, _ast.Call) and call.func is p
    if isinstance(p, _ast.Subscript):
        return p.value is name and isinstance(p.ctx, _ast.Load)
    if isinstance(p, (_ast.For, _ast.comprehension)):
        return p.iter is name
    if isinstance(p, (_ast.If, _ast.While, _ast.Assert, _ast.IfExp)):
        return p.test is name
    return isinstance(p, (_ast.Compare, _ast.UnaryOp, _ast.BinOp, _ast.FormattedValue, _ast.Return, _ast.Expr))


def _dunder(name):
    return name[:2] == "__" and name[-2:] == "__"


def _is_dynamic(tree):
    for node in _ast.walk(tree):
        if isinstance(node, _ast.Name) and node.id in _DYNAMIC_NAMES:
            return True
        if isinstance(node, _ast.Attribute) and node.attr in _DYNAMIC_NAMES:
            return True
        if isinstance(node, _ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return True
        if isinstance(node, (_ast.Import, _ast.ImportFrom)):
            mods = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            if any(m.split(".")[0] in ("importlib", "operator", "inspect") for m in mods):
                return True
    return False


def _kind(code, is_module):
    if is_module:
        return "module"
    if code.co_name == "<lambda>":
        return "lambda"
    if code.co_name in ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"):
        return "comprehension"
    if not code.co_flags & _CO_OPTIMIZED_FLAG:
        return "class"
    return "function"


def _code_facts(code, is_module, codes):
    kind = _kind(code, is_module)
    loose = bool(code.co_flags & _CO_GENERATOR_LIKE)
    namespace = not code.co_flags & _CO_OPTIMIZED_FLAG
    ins = list(_dis.get_instructions(code))
    line_of = _line_table(code, ins)
    if namespace:
        names = set()
        for i in ins:
            if i.opname in ("STORE_NAME", "DELETE_NAME"):
                names.add(i.argval)
        names = sorted(n for n in names if not _dunder(n))
        params, free = [], []
    else:
        names = list(code.co_varnames) + list(code.co_cellvars) + list(code.co_freevars)
        seen = set()
        names = [n for n in names if n[:1] != "." and not (n in seen or seen.add(n))]
        nargs = code.co_argcount + code.co_kwonlyargcount
        nargs += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
        params = [n for n in code.co_varnames[:nargs] if n[:1] != "."]
        free = list(code.co_freevars)
    flow = _Flow(code, ins, line_of)
    all_lines = sorted({l for l in line_of.values() if l})
    lines = sorted(flow.line_starts())
    f = {
        "kind": kind,
        "name": code.co_name,
        "first_line": code.co_firstlineno,
        "loose": loose,
        "namespace": namespace,
        "names": names,
        "open_names": False,
        "params": params,
        "free": free,
        "lines": lines,
        "all_lines": all_lines,
        "returns": sorted(flow.return_lines()),
        "callees": {},
        "any_caller": False,
    }
    if loose:
        # A generator's frame is resumed by whoever iterates it, with a call event at
        # its yield line: any event of the frame may follow any other.
        every = {"next": lines, "ret": f["returns"], "exc": all_lines}
        f["entry"] = dict(every)
        f["after_line"] = {str(l): dict(every) for l in lines}
        f["after_exc"] = {str(l): dict(every, escapes=True) for l in all_lines}
        f["call_lines"] = sorted(set(all_lines) | {code.co_firstlineno})
    else:
        f["entry"] = flow.after_entry()
        f["after_line"] = {str(l): flow.after_line(l) for l in lines}
        f["after_exc"] = {str(l): flow.after_exception(l) for l in all_lines}
        f["call_lines"] = [code.co_firstlineno]
        if not namespace:
            f["values"] = _value_facts(code, ins, line_of, flow, lines, params)
    return f


def _line_table(code, ins):
    """The line of every instruction offset (None where it has none)."""
    table = {}
    for lo, hi, line in code.co_lines():
        for off in range(lo, hi, 2):
            table[off] = line
    return {i.offset: table.get(i.offset) for i in ins}


class _Flow:
    """The control flow of one code object's bytecode under CPython 3.11's line
    event rule: a line event fires on an instruction with a line number when the
    line differs from the previous instruction's, the previous one had none, or the
    jump to it went backwards; the first instruction after RESUME always fires."""

    def __init__(self, code, ins, line_of):
        self.ins = ins
        self.line_of = line_of
        self.index = {i.offset: k for k, i in enumerate(ins)}
        self.start = 0
        for k, i in enumerate(ins):
            if i.opname == "RESUME":
                self.start = k + 1
                break
        self.handlers = []
        try:
            for e in _dis._parse_exception_table(code):
                self.handlers.append((e.start, e.end, e.target))
        except Exception:
            pass
        self._starts = None

    def handler(self, k):
        off = self.ins[k].offset
        for lo, hi, target in self.handlers:
            if lo <= off < hi:
                return self.index.get(target)
        return None

    def edges(self, k):
        """The flow edges out of instruction k: (successor, through an exception) for
        its normal successors and the handler that catches what it raises."""
        out = [(s, False) for s in self.succ(k)]
        h = self.handler(k)
        if h is not None:
            out.append((h, True))
        return out

    def succ(self, k):
        """Normal successors of instruction k (indexes)."""
        i = self.ins[k]
        out = []
        if i.opname in _STOP:
            return out
        if i.opcode in _JUMPS and isinstance(i.argval, int) and i.argval in self.index:
            out.append(self.index[i.argval])
            if i.opname in _UNCONDITIONAL:
                return out
        if k + 1 < len(self.ins):
            out.append(k + 1)
        return out

    def fires(self, p, n):
        ln = self.line_of[self.ins[n].offset]
        if ln is None:
            return False
        lp = self.line_of[self.ins[p].offset]
        return lp is None or ln != lp or self.ins[n].offset < self.ins[p].offset

    def search(self, seeds, out, fire_all=False, last=None):
        """Explore from instruction indexes seeds without a line event between, adding
        to out the lines of the line events that can come next ('next'), the lines of
        return events ('ret') and of exception events ('exc'); an exception that no
        handler catches sets 'escapes'. An instruction without a line number reports
        the line of the last one that had one (last: the seeds')."""
        seen = set()
        stack = []
        for s in seeds:
            if fire_all:
                ln = self.line_of[self.ins[s].offset]
                if ln is not None:
                    out["next"].add(ln)
                    continue
            stack.append((s, last))
        while stack:
            k, last = stack.pop()
            if (k, last) in seen:
                continue
            seen.add((k, last))
            i = self.ins[k]
            ln = self.line_of[i.offset]
            if ln is not None:
                last = ln
            here = [last] if last is not None else []
            if i.opname in ("RETURN_VALUE", "YIELD_VALUE"):
                out["ret"].update(here)
            if i.opname == "RERAISE" or (i.opname == "RAISE_VARARGS" and i.arg == 0):
                # A re-raise reports no exception event: it goes on to the next handler
                # or out of the frame silently, and settrace then reports a return (of
                # None) at this line.
                h = self.handler(k)
                if h is None:
                    out["escapes"] = True
                    out["ret"].update(here)
                else:
                    self.enter_handler(h, stack, out, last)
            elif i.opname not in ("NOP", "RESUME", "CACHE", "EXTENDED_ARG"):
                out["exc"].update(here)
            for n in self.succ(k):
                if self.fires(k, n):
                    out["next"].add(self.line_of[self.ins[n].offset])
                else:
                    stack.append((n, last))

    def enter_handler(self, h, stack, out, last):
        # Whether the jump to a handler fires a line event depends on where it came
        # from: take both ways.
        ln = self.line_of[self.ins[h].offset]
        if ln is not None:
            out["next"].add(ln)
        stack.append((h, last))

    def _new(self):
        return {"next": set(), "ret": set(), "exc": set(), "escapes": False}

    def _done(self, out):
        return {
            "next": sorted(out["next"]),
            "ret": sorted(out["ret"]),
            "exc": sorted(out["exc"]),
            "escapes": out["escapes"],
        }

    def line_starts(self):
        """The lines where a line event can happen."""
        if self._starts is None:
            starts = set()
            out = self._new()
            self.search([self.start], out, fire_all=True) if self.start < len(self.ins) else None
            starts |= out["next"]
            for k in range(self.start, len(self.ins)):
                for n in self.succ(k):
                    if self.fires(k, n):
                        starts.add(self.line_of[self.ins[n].offset])
                h = self.handler(k)
                if h is not None and self.line_of[self.ins[h].offset] is not None:
                    starts.add(self.line_of[self.ins[h].offset])
            self._starts = starts
        return self._starts

    def return_lines(self):
        """Every line a return event can report: the union over what can follow each
        line event, the call event and each exception event."""
        out = set()
        out |= set(self.after_entry()["ret"])
        for l in self.line_starts():
            out |= set(self.after_line(l)["ret"])
        for l in {l for l in self.line_of.values() if l}:
            out |= set(self.after_exception(l)["ret"])
        return out

    def after_entry(self):
        out = self._new()
        if self.start < len(self.ins):
            self.search([self.start], out, fire_all=True)
        return self._done(out)

    def after_line(self, line):
        out = self._new()
        seeds = [k for k in range(self.start, len(self.ins)) if self.line_of[self.ins[k].offset] == line]
        self.search(seeds, out, last=line)
        return self._done(out)

    def after_exception(self, line):
        """After an exception event at an instruction of line: its handler (or the
        exception leaves the frame)."""
        out = self._new()
        stack = []
        for k in range(len(self.ins)):
            if self.line_of[self.ins[k].offset] != line:
                continue
            h = self.handler(k)
            if h is None:
                out["escapes"] = True
            else:
                self.enter_handler(h, stack, out, line)
        seen, seeds = set(), []
        for h, _ in stack:
            if h not in seen:
                seen.add(h)
                seeds.append(h)
        self.search(seeds, out, last=line)
        return self._done(out)


def _calls(tree, codes, out, dynamic):
    """Fill each code's callees per line and any_caller (callable from any line)."""
    by_name = {}
    for i, c in enumerate(codes):
        by_name.setdefault(c.co_name, []).append(i)
    # Functions (and class bodies, comprehensions) by their AST node.
    defs = {}  # (name, first line) -> code index
    for i, c in enumerate(codes):
        defs.setdefault((c.co_name, c.co_firstlineno), []).append(i)
    called_names = {}  # name -> lines where it is called by name or attribute
    value_names = set()  # names used other than as what a call calls
    attr_names = set()
    class_bases_foreign = set()  # class body code indexes whose bases are not of the file
    callee_nodes = set()
    methods = set()
    local_classes = {n.name for n in _ast.walk(tree) if isinstance(n, _ast.ClassDef)}
    for node in _ast.walk(tree):
        if isinstance(node, _ast.Call):
            callee_nodes.add(id(node.func))
            fn = node.func
            name = fn.id if isinstance(fn, _ast.Name) else fn.attr if isinstance(fn, _ast.Attribute) else None
            if name is not None:
                for l in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                    called_names.setdefault(name, set()).add(l)
        if isinstance(node, _ast.ClassDef):
            for b in node.bases + [k.value for k in node.keywords]:
                if not (isinstance(b, _ast.Name) and (b.id in local_classes or b.id == "object")):
                    first = min([d.lineno for d in node.decorator_list] + [node.lineno])
                    for i in defs.get((node.name, first), []):
                        class_bases_foreign.add(i)
            for st in node.body:
                if isinstance(st, (_ast.FunctionDef, _ast.AsyncFunctionDef)):
                    first = min([d.lineno for d in st.decorator_list] + [st.lineno])
                    for i in defs.get((st.name, first), []):
                        methods.add((i, id(node)))
    for node in _ast.walk(tree):
        if isinstance(node, _ast.Name) and not isinstance(node.ctx, _ast.Store) and id(node) not in callee_nodes:
            value_names.add(node.id)
        if isinstance(node, _ast.Attribute):
            attr_names.add(node.attr)
            if id(node) not in callee_nodes:
                value_names.add(node.attr)
    foreign_methods = set()
    # Methods of a class with a base from outside the file can be called by it.
    class_of = {}
    for node in _ast.walk(tree):
        if isinstance(node, _ast.ClassDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            body_ids = defs.get((node.name, first), [])
            foreign = any(i in class_bases_foreign for i in body_ids)
            for st in node.body:
                if isinstance(st, (_ast.FunctionDef, _ast.AsyncFunctionDef)):
                    f1 = min([d.lineno for d in st.decorator_list] + [st.lineno])
                    for i in defs.get((st.name, f1), []):
                        class_of[i] = node
                        if foreign:
                            foreign_methods.add(i)
    decorated = set()
    for node in _ast.walk(tree):
        if isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef)) and node.decorator_list:
            first = min(d.lineno for d in node.decorator_list)
            for i in defs.get((node.name, first), []):
                decorated.add(i)
    # Where comprehensions and class bodies run: the lines of their AST node.
    spans = {}
    for node in _ast.walk(tree):
        if isinstance(node, (_ast.ListComp, _ast.SetComp, _ast.DictComp, _ast.GeneratorExp)):
            name = {"ListComp": "<listcomp>", "SetComp": "<setcomp>", "DictComp": "<dictcomp>", "GeneratorExp": "<genexpr>"}[type(node).__name__]
            for i in defs.get((name, node.lineno), []):
                spans.setdefault(i, set()).update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        if isinstance(node, _ast.ClassDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            for i in defs.get((node.name, first), []):
                spans.setdefault(i, set()).update(range(first, node.lineno + 1))
    anywhere = set()
    named = {}  # code index -> lines that call it by name
    for i, c in enumerate(codes):
        f = out[i]
        if i == 0:
            continue
        name = c.co_name
        if (
            dynamic
            or f["loose"]
            or f["kind"] == "lambda"
            or _dunder(name)
            or i in decorated
            or i in foreign_methods
            or name in value_names
        ):
            anywhere.add(i)
            continue
        if f["kind"] in ("comprehension", "class"):
            named[i] = spans.get(i)
            if named[i] is None:
                anywhere.add(i)
            continue
        if i in class_of and name not in attr_names:
            anywhere.add(i)  # a method never named in the file: called by duck typing
            continue
        lines = called_names.get(name)
        named[i] = lines or set()
    for i in anywhere:
        out[i]["any_caller"] = True
    for i, lines in named.items():
        for l in lines:
            # A line calls what runs there in any code object holding that line.
            for j, f in enumerate(out):
                if l in f["all_lines"] or l in f["lines"]:
                    f["callees"].setdefault(str(l), []).append(i)
    for f in out:
        for k in f["callees"]:
            f["callees"][k] = sorted(set(f["callees"][k]))


# Value facts (docs/decisions.md, "Value facts"; grammar/values.go): what a line
# does to the frame's locals, and the values a return can give.

# Opcodes that run no code of the program in a closed world (no classes, no
# generators, no imports, no callables kept by map/filter/iter) and change no object
# in place, except an in-place BINARY_OP (checked against the target's value).
_PURE_OPS = frozenset((
    "NOP", "RESUME", "CACHE", "EXTENDED_ARG", "POP_TOP", "PUSH_NULL", "COPY", "SWAP",
    "LOAD_FAST", "LOAD_CONST", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_ATTR",
    "STORE_FAST", "STORE_DEREF", "DELETE_FAST", "DELETE_DEREF",
    "UNARY_POSITIVE", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT",
    "BINARY_OP", "BINARY_SUBSCR", "COMPARE_OP", "IS_OP", "CONTAINS_OP",
    "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_CONST_KEY_MAP",
    "BUILD_STRING", "BUILD_SLICE", "LIST_TO_TUPLE", "LIST_EXTEND", "SET_UPDATE",
    "DICT_UPDATE", "DICT_MERGE", "FORMAT_VALUE", "UNPACK_SEQUENCE", "UNPACK_EX",
    "GET_ITER", "FOR_ITER", "RETURN_VALUE",
    "JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
    "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP",
    "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE",
    "POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_FORWARD_IF_NOT_NONE",
    "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE",
))

# Builtins that keep a callable (or make a class) and call it later, from an
# instruction that is not a call.
_CALLBACK_NAMES = frozenset(("map", "filter", "iter", "type", "object", "super", "property",
                             "classmethod", "staticmethod", "__build_class__"))

_STORES = frozenset(("STORE_FAST", "STORE_DEREF", "DELETE_FAST", "DELETE_DEREF"))

# The longest constant repr the facts force (the tracer cuts reprs at max_repr,
# 200 by default: a shorter limit than this is not modelled).
_MAX_CONST_REPR = 32


def _world(codes, dynamic):
    """noclass: no code of the file makes a class (a repr like 1 or 'a' is then a
    builtin immutable value); closed: nothing but a call instruction can run code of
    the program (no classes, generators, imports, callback-keeping builtins)."""
    noclass = not dynamic
    closed = not dynamic
    for c in codes:
        if c.co_flags & _CO_GENERATOR_LIKE:
            closed = False
        if "type" in c.co_names or "__build_class__" in c.co_names:
            noclass = False
        if any(n in _CALLBACK_NAMES for n in c.co_names):
            closed = False
        for i in _dis.get_instructions(c):
            if i.opname == "LOAD_BUILD_CLASS":
                noclass = False
            if i.opname in ("IMPORT_NAME", "IMPORT_STAR", "IMPORT_FROM"):
                closed = False
    return noclass, noclass and closed


def _const_repr(v):
    if type(v) not in (int, float, str, bool, type(None), bytes):
        return None
    r = repr(v)
    return r if len(r) <= _MAX_CONST_REPR else None


def _binding(code, ins, flow, params):
    """Per instruction reached from the entry: the fast locals (not cells) that some
    path to it has bound, and those every path has bound, as they stand before it runs
    (a may and a must analysis over the normal and the exception edges)."""
    cells = set(code.co_cellvars) | set(code.co_freevars)
    n = len(ins)
    edges = [flow.edges(k) for k in range(n)]
    start = frozenset(p for p in params if p not in cells)
    may, must = [None] * n, [None] * n
    if n:
        may[0], must[0] = start, start
    work = [0] if n else []
    while work:
        k = work.pop()
        i = ins[k]
        may_out, must_out = may[k], must[k]
        if i.opname == "STORE_FAST" and i.argval not in cells:
            may_out, must_out = may_out | {i.argval}, must_out | {i.argval}
        elif i.opname == "DELETE_FAST":
            must_out = must_out - {i.argval}
        for s, exc in edges[k]:
            a, b = may_out, must_out
            if exc:
                # Raised by k, before or after its effect.
                a, b = may[k] | may_out, must[k] & must_out
            na = a if may[s] is None else may[s] | a
            nb = b if must[s] is None else must[s] & b
            if na != may[s] or nb != must[s]:
                may[s], must[s] = na, nb
                work.append(s)
    return may, must


def _inplace_op(i):
    """Whether instruction i is an in-place operator (+=, |=, ...)."""
    return i.opname == "BINARY_OP" and i.argrepr.endswith("=") and i.argrepr != "=="


def _value_facts(code, ins, line_of, flow, lines, params):
    """Per line: whether the instructions run between its line event and the next
    one are pure (_PURE_OPS), the names they store or delete, the in-place targets,
    and the names every store of which is a constant; per return line: the reprs a
    return there can give (None: unknown); the lines that are exactly `return NAME` or
    `return a, b, ...`; per line, what the frame can still do until it ends (_reach);
    whether the code can re-raise (a return of None anywhere)."""
    targets = {i.offset for i in ins if i.is_jump_target}
    for lo, hi, target in flow.handlers:
        targets.add(target)
    cells = list(code.co_cellvars) + list(code.co_freevars)
    out = {"cells": cells, "lines": {}, "rets": {}, "ret_names": {}, "ret_tuples": {}, "reach": {}}
    table = _reach_table(flow, ins)
    # The whole code object (the inverse rules): every name it stores or deletes, and
    # whether every instruction is pure with no in-place operator at all.
    out["whole"] = {
        "stores": sorted({i.argval for i in ins if i.opname in _STORES}),
        "pure": all(i.opname in _PURE_OPS and not _inplace_op(i) for i in ins),
    }
    may, must = _binding(code, ins, flow, params)
    stored = sorted({i.argval for i in ins if i.opname == "STORE_FAST"} - set(cells))
    # Where a line event can fire: the first instruction, one a flow edge fires on, a
    # handler's first instruction.
    firing = {flow.start} | {flow.index[t] for lo, hi, t in flow.handlers if t in flow.index}
    for k in range(len(ins)):
        for n in flow.succ(k):
            if flow.fires(k, n):
                firing.add(n)
    for line in lines:
        seeds = [k for k in range(flow.start, len(ins)) if line_of[ins[k].offset] == line]
        # The locals at the line event (it fires before one of the seeds runs): the
        # names stored somewhere that no path has bound, and those every path has.
        reached = [k for k in seeds if may[k] is not None and k in firing]
        unbound, bound = [], []
        if reached:
            maybe = frozenset().union(*(may[k] for k in reached))
            unbound = [x for x in stored if x not in maybe]
            bound = sorted(frozenset.intersection(*(must[k] for k in reached)))
        run = set()
        stack = list(seeds)
        while stack:
            k = stack.pop()
            if k in run:
                continue
            run.add(k)
            for n in flow.succ(k):
                if not flow.fires(k, n):
                    stack.append(n)
        pure = True
        stores, deletes, inplace = set(), set(), set()
        consts = {}
        bad_const = set()
        for k in sorted(run):
            i = ins[k]
            if i.opname not in _PURE_OPS:
                pure = False
            if i.opname in _STORES:
                stores.add(i.argval)
                if i.opname.startswith("DELETE"):
                    deletes.add(i.argval)
                r = None
                if (i.opname == "STORE_FAST" and k > 0 and ins[k - 1].opname == "LOAD_CONST"
                        and i.offset not in targets):
                    r = _const_repr(ins[k - 1].argval)
                if r is None or consts.get(i.argval, r) != r:
                    bad_const.add(i.argval)
                else:
                    consts[i.argval] = r
            if _inplace_op(i):
                nxt = ins[k + 1] if k + 1 < len(ins) else None
                if nxt is not None and nxt.opname == "STORE_FAST":
                    inplace.add(nxt.argval)
                else:
                    pure = False
        for n in bad_const:
            consts.pop(n, None)
        out["lines"][str(line)] = {
            "pure": pure,
            "stores": sorted(stores),
            "deletes": sorted(deletes),
            "inplace": sorted(inplace),
            "consts": consts,
            "unbound": unbound,
            "bound": bound,
        }
        own = [ins[k] for k in seeds]
        if (len(own) == 2 and own[0].opname == "LOAD_FAST" and own[1].opname == "RETURN_VALUE"
                and own[1].offset == own[0].offset + 2 and own[1].offset not in targets
                and flow.handler(seeds[0]) is None and flow.handler(seeds[1]) is None):
            out["ret_names"][str(line)] = own[0].argval
        names = _ret_tuple(flow, own, seeds, targets)
        if names is not None:
            out["ret_tuples"][str(line)] = names
        out["reach"][str(line)] = _reach(table, seeds)
    # A frame left by a re-raise reports a return of None at whatever line ran last.
    reraise = any(i.opname == "RERAISE" or (i.opname == "RAISE_VARARGS" and i.arg == 0) for i in ins)
    out["reraise"] = reraise
    rets = {}
    for k, i in enumerate(ins):
        if i.opname not in ("RETURN_VALUE", "YIELD_VALUE"):
            continue
        line = line_of[i.offset]
        if line is None or i.opname == "YIELD_VALUE":
            return dict(out, rets={})  # reported at the last line: unknown
        r = None
        if k > 0 and ins[k - 1].opname == "LOAD_CONST" and i.offset not in targets:
            r = _const_repr(ins[k - 1].argval)
        if r is None:
            rets[line] = None
        elif rets.get(line, []) is not None:
            rets.setdefault(line, [])
            if r not in rets[line]:
                rets[line].append(r)
    for line, rs in rets.items():
        if rs is not None and reraise and "None" not in rs:
            rs.append("None")
        out["rets"][str(line)] = rs
    if reraise:
        # Lines with no return instruction can still report a return of None.
        for line in set(l for l in line_of.values() if l) - set(rets):
            out["rets"][str(line)] = ["None"]
    return out


def _ret_tuple(flow, own, seeds, targets):
    """The names of a line that is exactly `return a, b, ...` (LOAD_FAST each, then
    BUILD_TUPLE and RETURN_VALUE, in a row, none but the first a jump target, no
    handler around them), or None."""
    n = len(own) - 2
    if n < 1 or own[-2].opname != "BUILD_TUPLE" or own[-2].arg != n or own[-1].opname != "RETURN_VALUE":
        return None
    for k, i in enumerate(own):
        if k < n and i.opname != "LOAD_FAST":
            return None
        if k > 0 and (i.offset != own[k - 1].offset + 2 or i.offset in targets):
            return None
        if flow.handler(seeds[k]) is not None:
            return None
    return [i.argval for i in own[:n]]


def _reach_table(flow, ins):
    """Per instruction, what can still run from it before the frame ends (normal and
    exception edges, line events or not, itself included): the names stored or
    deleted, and whether all of it is pure without an in-place operator (so that, in a
    closed program, no object changes in place). A backward fixpoint over the
    bytecode's flow graph."""
    n = len(ins)
    succs = []
    stores = []
    pure = []
    for k, i in enumerate(ins):
        succs.append([m for m, _ in flow.edges(k)])
        stores.append({i.argval} if i.opname in _STORES else set())
        pure.append(i.opname in _PURE_OPS and not _inplace_op(i))
    changed = True
    while changed:
        changed = False
        for k in range(n - 1, -1, -1):
            for m in succs[k]:
                if not stores[m] <= stores[k]:
                    stores[k] |= stores[m]
                    changed = True
                if pure[k] and not pure[m]:
                    pure[k] = False
                    changed = True
    return stores, pure


def _reach(table, seeds):
    """What the frame can still do after a line event at the line whose instructions
    are seeds (_reach_table): the names it can store or delete, and whether it is pure."""
    stores, pure = table
    names = set()
    for k in seeds:
        names |= stores[k]
    return {"stores": sorted(names), "pure": all(pure[k] for k in seeds)}


# Branch facts (docs/decisions.md, "Branch facts"; grammar/branch.go): for an `if`,
# `elif` or `while` line whose test is a pure expression of the frame's locals, the
# events that follow its line event when the test is true and when it is false.

_BRANCH_CMP = (_ast.Eq, _ast.NotEq, _ast.Lt, _ast.LtE, _ast.Gt, _ast.GtE, _ast.In, _ast.NotIn)
_BRANCH_BIN = (_ast.Add, _ast.Sub, _ast.Mult, _ast.FloorDiv, _ast.Mod)


# The builtins the evaluator calls (grammar/branch_calls.go), and the methods it calls
# with the most arguments each takes (grammar/branch_methods.go).
_EVAL_BUILTINS = frozenset(("len", "abs", "min", "max", "sorted", "sum", "any", "all", "list", "tuple",
                            "enumerate", "zip", "reversed", "range", "dict", "bool", "int", "str", "divmod"))
# The builtins that make an iterator, and the dict methods that make a view: read
# only where something consumes them whole (grammar/branch_iters.go).
_ITER_FNS = frozenset(("enumerate", "zip", "reversed", "range"))
_VIEW_METHODS = frozenset(("items", "keys", "values"))
_ARITY = {"len": (1, 1), "abs": (1, 1), "sorted": (1, 1), "sum": (1, 1), "any": (1, 1), "all": (1, 1),
          "list": (0, 1), "tuple": (0, 1), "enumerate": (1, 2), "reversed": (1, 1), "range": (1, 3),
          "dict": (0, 1), "bool": (0, 1), "int": (1, 1), "str": (1, 1), "divmod": (2, 2)}
_EVAL_METHODS = {
    "copy": 0, "upper": 0, "lower": 0, "isdigit": 0, "isalpha": 0, "isalnum": 0, "isupper": 0,
    "islower": 0, "isspace": 0, "strip": 1, "lstrip": 1, "rstrip": 1, "split": 1, "startswith": 1,
    "endswith": 1, "replace": 3, "count": 2, "find": 2, "index": 2, "rfind": 2, "join": 1, "get": 2,
    "partition": 1, "rpartition": 1, "isascii": 0, "removeprefix": 1, "removesuffix": 1, "ljust": 2,
    "rjust": 2, "center": 2, "zfill": 1, "capitalize": 0, "swapcase": 0, "title": 0,
}


def _branch_expr_ok(node, names, builtins):
    """Whether node is in the subset grammar/branch_eval.go evaluates exactly; builtins
    are the names of _EVAL_BUILTINS that mean the builtin (no binding in the file)."""
    ok = lambda n: n is None or _branch_expr_ok(n, names, builtins)
    if isinstance(node, _ast.Name):
        return isinstance(node.ctx, _ast.Load) and node.id in names
    if isinstance(node, _ast.Constant):
        return node.value is None or type(node.value) in (int, str, bool)
    if isinstance(node, _ast.BoolOp):
        return all(ok(v) for v in node.values)
    if isinstance(node, _ast.UnaryOp):
        return isinstance(node.op, (_ast.Not, _ast.USub)) and ok(node.operand)
    if isinstance(node, _ast.BinOp):
        return isinstance(node.op, _BRANCH_BIN) and ok(node.left) and ok(node.right)
    if isinstance(node, _ast.Compare):
        if not ok(node.left) or not all(ok(c) for c in node.comparators):
            return False
        operands = [node.left] + node.comparators
        for k, op in enumerate(node.ops):
            if isinstance(op, (_ast.Is, _ast.IsNot)):
                # Only `x is None`: identity of other values is not in a repr.
                if not (isinstance(operands[k + 1], _ast.Constant) and operands[k + 1].value is None):
                    return False
            elif not isinstance(op, _BRANCH_CMP):
                return False
        return True
    if isinstance(node, _ast.Subscript):
        sl = node.slice
        if isinstance(sl, _ast.Slice):
            return ok(node.value) and ok(sl.lower) and ok(sl.upper) and ok(sl.step)
        return sl is not None and ok(node.value) and ok(sl)
    if isinstance(node, (_ast.Tuple, _ast.List)):
        return isinstance(node.ctx, _ast.Load) and all(e is not None and ok(e) for e in node.elts)
    if isinstance(node, _ast.IfExp):
        return ok(node.test) and ok(node.body) and ok(node.orelse)
    if isinstance(node, _ast.Dict):
        return all(k is not None and ok(k) for k in node.keys) and all(ok(v) for v in node.values)
    if isinstance(node, (_ast.ListComp, _ast.DictComp)):
        return _comp_ok(node, names, builtins)
    if isinstance(node, _ast.Call):
        fn = node.func
        if isinstance(fn, _ast.Name) and fn.id in _ITER_FNS:
            return False  # an iterator is no value: _iter_ok
        return _call_ok(node, names, builtins)
    return False


def _call_ok(node, names, builtins):
    """Whether a call of a builtin or a method is in the subset, its arguments values
    or, where it consumes them (grammar/branch_comps.go consumesAt), iterators."""
    if node.keywords or any(a is None or isinstance(a, _ast.Starred) for a in node.args):
        return False
    fn = node.func
    name = fn.attr if isinstance(fn, _ast.Attribute) else fn.id if isinstance(fn, _ast.Name) else None
    last = len(node.args) - 1

    def arg_ok(k, a):
        if _branch_expr_ok(a, names, builtins):
            return True
        if name in ("sum", "any", "all", "list", "tuple", "sorted", "min", "max", "join", "dict"):
            consumes = k == 0 and k == last
        else:
            consumes = name == "zip" or name == "enumerate" and k == 0
        return consumes and _iter_ok(a, names, builtins)

    if isinstance(fn, _ast.Attribute):
        if fn.attr in _VIEW_METHODS:
            return False  # a view is no value: _iter_ok
        return (fn.attr in _EVAL_METHODS and len(node.args) <= _EVAL_METHODS[fn.attr]
                and _branch_expr_ok(fn.value, names, builtins) and all(arg_ok(k, a) for k, a in enumerate(node.args)))
    if name not in builtins:
        return False
    lo, hi = _ARITY.get(name, (1, 64))
    return lo <= len(node.args) <= hi and all(arg_ok(k, a) for k, a in enumerate(node.args))


def _iter_ok(node, names, builtins):
    """Whether node is an iterator of the subset: a generator expression, a call of
    enumerate, zip, reversed or range, or a dict's items(), keys() or values(); read
    only where consumed whole (grammar/branch_iters.go)."""
    if isinstance(node, _ast.GeneratorExp):
        return _comp_ok(node, names, builtins)
    if not isinstance(node, _ast.Call):
        return False
    fn = node.func
    if isinstance(fn, _ast.Attribute):
        return (fn.attr in _VIEW_METHODS and not node.args and not node.keywords
                and _branch_expr_ok(fn.value, names, builtins))
    return isinstance(fn, _ast.Name) and fn.id in _ITER_FNS and _call_ok(node, names, builtins)


def _comp_ok(node, names, builtins):
    """Whether a comprehension (or generator expression) is in grammar/branch_comps.go's
    subset: one synchronous for clause over a name or a tuple of names, its iterable,
    conditions and element(s) in the subset (the targets are names inside)."""
    if len(node.generators) != 1:
        return False
    g = node.generators[0]
    t = g.target
    targets = [t] if isinstance(t, _ast.Name) else list(t.elts) if isinstance(t, _ast.Tuple) else None
    if g.is_async or not targets or not all(isinstance(n, _ast.Name) for n in targets):
        return False
    inner = set(names) | {n.id for n in targets}
    parts = list(g.ifs) + ([node.key, node.value] if isinstance(node, _ast.DictComp) else [node.elt])
    it_ok = _branch_expr_ok(g.iter, names, builtins) or _iter_ok(g.iter, names, builtins)
    return it_ok and all(_branch_expr_ok(e, inner, builtins) for e in parts)


def _plain_functions(codes, out):
    """The plain functions (no lambda, comprehension, class body, module or generator)
    with their facts: where the branch, assignment and loop facts apply."""
    for code, f in zip(codes, out):
        if f["kind"] == "function" and not f["loose"] and not f["namespace"]:
            yield code, f


def _branches(tree, codes, out, builtins):
    """Fill each function's "branches": per line, the test (ast.unparse: literals are
    reprs) and what follows its line event when the test is true and when false."""
    nodes = [n for n in _ast.walk(tree) if isinstance(n, (_ast.If, _ast.While))]
    for code, f in _plain_functions(codes, out):
        names = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
        ins = list(_dis.get_instructions(code))
        line_of = _line_table(code, ins)
        flow = _Flow(code, ins, line_of)
        branches = {}
        for node in nodes:
            t = node.test
            line = t.lineno
            if t.end_lineno != line or node.lineno != line or node.body[0].lineno <= line:
                continue
            if line in branches or str(line) not in f["after_line"]:
                continue
            cond = _plain_fstrings(t, builtins)
            if not _branch_expr_ok(cond, names, builtins):
                continue
            b = _branch(flow, ins, line_of, node, line)
            if b is not None:
                b["cond"] = _ast.unparse(cond)
                branches[line] = b
            else:
                branches[line] = None
        f["branches"] = {str(l): b for l, b in branches.items() if b is not None}


_ASSIGN_OPS = (_ast.Add, _ast.Sub, _ast.Mult, _ast.FloorDiv, _ast.Mod)


def _assigns(tree, codes, out, builtins):
    """Fill each function's "assigns": per line that holds one statement and nothing
    else, `NAME = EXPR` or `NAME op= EXPR` (+ - * // %) with NAME a fast local (not a
    cell) and the value in the subset grammar/branch_eval.go evaluates exactly, the
    name and the stored value's expression (ast.unparse; `n + 1` for `n += 1`)."""
    starts = {}  # line -> statements starting there
    for n in _ast.walk(tree):
        if isinstance(n, _ast.stmt):
            starts[n.lineno] = starts.get(n.lineno, 0) + 1
    nodes = [n for n in _ast.walk(tree) if isinstance(n, (_ast.Assign, _ast.AugAssign, _ast.Expr, _ast.Return))]
    for code, f in _plain_functions(codes, out):
        names = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
        cells = set(code.co_cellvars) | set(code.co_freevars)
        assigns, rets = {}, {}
        for node in nodes:
            line = node.lineno
            if node.end_lineno != line or starts.get(line) != 1 or str(line) not in f["after_line"]:
                continue
            if isinstance(node, _ast.Return):
                value = node.value and _plain_fstrings(node.value, builtins)
                if value is not None and _branch_expr_ok(value, names, builtins):
                    rets[str(line)] = _ast.unparse(value)
                continue
            fact = _assign_fact(node)
            if fact is None or any(n not in code.co_varnames or n in cells for n in fact.get("names", [fact["name"]])):
                continue
            exprs = [k for k in ("expr", "key", "append") if k in fact]
            for k in exprs:
                fact[k] = _plain_fstrings(fact[k], builtins)
            args = [_plain_fstrings(a, builtins) for a in fact.get("args", [])]
            if not all(_branch_expr_ok(n, names, builtins) for n in [fact[k] for k in exprs] + args):
                continue
            for k in exprs:
                fact[k] = _ast.unparse(fact[k])
            if args:
                fact["args"] = [_ast.unparse(a) for a in args]
            assigns[str(line)] = fact
        f["assigns"] = assigns
        f["ret_exprs"] = rets


# The methods that change a list (or a dict) in place which the assignment rule
# reads as a statement (grammar/assign_methods.go), by their numbers of arguments.
_MUTATORS = {"reverse": (0,), "clear": (0,), "sort": (0,), "pop": (0, 1), "extend": (1,), "insert": (2,),
             "remove": (1,)}


def _plain_fstrings(node, builtins):
    """node with each f-string whose parts are text and `{x}` or `{x!s}` (no format
    spec) written as the concatenation the evaluator reads, `'' + str(x) + 'text'`
    (format(x, '') is str(x) for the builtin values it knows); a copy, or node itself
    when it has none or `str` is not the builtin."""
    if "str" not in builtins or not any(isinstance(n, _ast.JoinedStr) for n in _ast.walk(node)):
        return node

    class _Rewrite(_ast.NodeTransformer):
        def visit_JoinedStr(self, js):
            out = _ast.Constant("")
            for v in js.values:
                if isinstance(v, _ast.Constant) and isinstance(v.value, str):
                    part = v
                elif (isinstance(v, _ast.FormattedValue) and v.conversion in (-1, 115) and v.format_spec is None):
                    part = _ast.Call(_ast.Name("str", _ast.Load()), [self.visit(v.value)], [])
                else:
                    return js  # left as it is: the evaluator refuses it
                out = _ast.BinOp(out, _ast.Add(), part)
            return out

    return _Rewrite().visit(_copy.deepcopy(node))


def _assign_fact(node):
    """The fact of one assignment statement (_assigns), or None: `NAME = EXPR`, `NAME
    op= EXPR`, `NAME[KEY] = EXPR`, `NAME[KEY] op= EXPR`, `NAME.append(EXPR)`,
    `NAME.METHOD(ARGS)` of _MUTATORS or `A, B, ... = EXPR` (distinct names); its "expr",
    "key", "append" and "args" are still AST nodes."""
    if isinstance(node, _ast.Expr):
        c = node.value
        if (not isinstance(c, _ast.Call) or not isinstance(c.func, _ast.Attribute) or c.keywords
                or not isinstance(c.func.value, _ast.Name) or any(isinstance(a, _ast.Starred) for a in c.args)):
            return None
        name, method = c.func.value.id, c.func.attr
        reads_name = any(isinstance(n, _ast.Name) and n.id == name for a in c.args for n in _ast.walk(a))
        if method == "append" and len(c.args) == 1:
            fact = {"name": name, "append": c.args[0]}
        elif len(c.args) in _MUTATORS.get(method, ()):
            fact = {"name": name, "method": method, "args": list(c.args)}
        else:
            return None
        if method in ("append", "extend", "insert", "reverse") and not reads_name:
            # Undone by the inverse rules (grammar/assign_inverse.go): the arguments
            # have the same values after the line.
            fact["undo"] = {"op": method, "by": ""}
        return fact
    if isinstance(node, _ast.Assign):
        if len(node.targets) != 1:
            return None
        target, value = node.targets[0], node.value
    else:
        if not isinstance(node.op, _ASSIGN_OPS):
            return None
        target = node.target
        load = _ast.Name(target.id, _ast.Load()) if isinstance(target, _ast.Name) else \
            _ast.Subscript(target.value, target.slice, _ast.Load()) if isinstance(target, _ast.Subscript) else None
        if load is None:
            return None
        value = _ast.BinOp(load, node.op, node.value)
    if isinstance(target, _ast.Name):
        fact = {"name": target.id, "expr": value}
        if (isinstance(node, _ast.AugAssign) and isinstance(node.op, (_ast.Add, _ast.Sub))
                and not any(isinstance(n, _ast.Name) and n.id == target.id for n in _ast.walk(node.value))):
            # Undone by the inverse rules (grammar/assign_inverse.go): NAME -= or
            # removes the suffix EXPR, which the line does not change.
            fact["undo"] = {"op": "+" if isinstance(node.op, _ast.Add) else "-", "by": _ast.unparse(node.value)}
        return fact
    if (isinstance(target, _ast.Subscript) and isinstance(target.value, _ast.Name)
            and not isinstance(target.slice, _ast.Slice)):
        return {"name": target.value.id, "key": target.slice, "expr": value}
    if isinstance(target, _ast.Tuple) and target.elts and all(isinstance(n, _ast.Name) for n in target.elts):
        ids = [n.id for n in target.elts]
        if len(set(ids)) == len(ids):
            return {"name": ids[0], "names": ids, "expr": value}
    return None


def _fors(tree, codes, out, builtins, range_kept):
    """Fill each function's "fors": per `for NAME in EXPR:` (or `for A, B in EXPR:`)
    header on one line (the body on later lines) with each name a fast local that no
    `del` unbinds, the name(s) and EXPR (ast.unparse) in the evaluator's subset (an
    iterator included), or the arguments of `range(...)` there (range_kept: the name
    means the builtin), the names the header reads, and whether a later pass is known
    ("again"); grammar/fors.go gives the values the names can take."""
    deleted = {t.id for n in _ast.walk(tree) if isinstance(n, _ast.Delete)
               for t in n.targets if isinstance(t, _ast.Name)}
    nodes = [n for n in _ast.walk(tree) if isinstance(n, _ast.For)]
    for code, f in _plain_functions(codes, out):
        names = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
        cells = set(code.co_cellvars) | set(code.co_freevars)
        fors = {}
        for node in nodes:
            line, target, it = node.lineno, node.target, node.iter
            if it.end_lineno != line or node.body[0].lineno <= line or str(line) not in f["after_line"]:
                continue
            # One name, or a tuple of names that each element unpacks to.
            tnames = [target] if isinstance(target, _ast.Name) else list(target.elts) if isinstance(target, _ast.Tuple) else []
            ids = [n.id for n in tnames if isinstance(n, _ast.Name)]
            if (not ids or len(ids) != len(tnames) or len(set(ids)) != len(ids)
                    or any(n not in code.co_varnames or n in cells or n in deleted for n in ids)):
                continue
            fact = {"name": ids[0]}
            if isinstance(target, _ast.Tuple):
                fact["names"] = ids
            if (range_kept and isinstance(it, _ast.Call) and isinstance(it.func, _ast.Name) and it.func.id == "range"
                    and 1 <= len(it.args) <= 3 and not it.keywords and "names" not in fact
                    and all(not isinstance(a, _ast.Starred) and _branch_expr_ok(a, names, builtins) for a in it.args)):
                fact["range"] = [_ast.unparse(a) for a in it.args]
            elif _branch_expr_ok(plain := _plain_fstrings(it, builtins), names, builtins) or _iter_ok(it, names, builtins):
                fact["expr"] = _ast.unparse(plain)
            else:
                continue
            # A later pass: the body stores neither the variable nor a name the header
            # reads, and the header does not read the variable (the for stores it), so
            # the iterator and the variable's last value are known.
            reads = sorted({n.id for n in _ast.walk(it) if isinstance(n, _ast.Name) and n.id in names})
            body = _bound_names(node.body + node.orelse)
            fact["reads"] = reads
            fact["again"] = not set(ids) & body and not (body | set(ids)) & set(reads)
            fors[str(line)] = fact
        f["fors"] = fors


def _bound_names(nodes):
    """The names that nodes (and what they nest, in any scope) bind or unbind: stores
    and deletes, defs and classes, parameters, imports, global and nonlocal
    declarations, except and match captures."""
    out = set()
    for node in nodes:
        for n in _ast.walk(node):
            if isinstance(n, _ast.Name) and not isinstance(n.ctx, _ast.Load):
                out.add(n.id)
            elif isinstance(n, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef)):
                out.add(n.name)
            elif isinstance(n, _ast.arg):
                out.add(n.arg)
            elif isinstance(n, (_ast.Global, _ast.Nonlocal)):
                out.update(n.names)
            elif isinstance(n, _ast.alias):
                out.add((n.asname or n.name).split(".")[0])
            elif isinstance(n, _ast.ExceptHandler) and n.name:
                out.add(n.name)
            elif type(n).__name__ in ("MatchAs", "MatchStar") and getattr(n, "name", None):
                out.add(n.name)
            elif type(n).__name__ == "MatchMapping" and getattr(n, "rest", None):
                out.add(n.rest)
    return out


def _inside(pos, first, last):
    """Whether an instruction's position lies within [first, last], each a
    (line, column) pair."""
    if pos is None or pos.lineno is None or pos.col_offset is None or pos.end_lineno is None:
        return False
    return first <= (pos.lineno, pos.col_offset) and (pos.end_lineno, pos.end_col_offset) <= last


def _branch(flow, ins, line_of, node, line):
    # The test's instructions: those of its line (the jump of `if not x` has the whole
    # statement's position; the body starts on a later line).
    span = ((line, 0), (node.end_lineno, node.end_col_offset))
    body = ((node.body[0].lineno, node.body[0].col_offset), (node.body[-1].end_lineno, node.body[-1].end_col_offset))
    region = set()
    for k, i in enumerate(ins):
        if line_of[i.offset] == line:
            if not _inside(i.positions, *span):
                return None  # something besides the test runs at the line
            region.add(k)
    if not region:
        return None
    handler_targets = {flow.index.get(target) for _, _, target in flow.handlers}
    if region & handler_targets:
        return None
    # Every way into the test starts a whole evaluation: the first instruction of a
    # contiguous copy of it.
    starts = {k for k in region if k - 1 not in region}
    preds = {}
    for k in range(len(ins)):
        for n in flow.succ(k):
            preds.setdefault(n, set()).add(k)
    for k in region:
        entered = any(p not in region for p in preds.get(k, ())) or k == flow.start
        if entered and k not in starts:
            return None
    outs = {True: flow._new(), False: flow._new()}
    seeds = {True: [], False: []}
    true_at = set()
    for k in region:
        for n in flow.succ(k):
            if n in region:
                continue
            # An exit without a position (the jump back of a loop whose body ends
            # with the if) is not the body's first instruction: it goes the false way.
            which = _inside(ins[n].positions, *body)
            if which:
                true_at.add(n)
            if flow.fires(k, n):
                outs[which]["next"].add(line_of[ins[n].offset])
            else:
                seeds[which].append(n)
    if len(true_at) != 1 or not (seeds[False] or outs[False]["next"]):
        return None  # the test is true one way only: the body's first instruction
    res = {}
    for which in (True, False):
        flow.search(seeds[which], outs[which], last=line)
        res["true" if which else "false"] = flow._done(outs[which])
    return res
