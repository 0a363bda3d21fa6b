#!/usr/bin/env python3
"""How much of what CruxEval's dev split writes does a generated corpus contain?

Parses the dev problems and the corpus's programs with `ast` (nothing is run) and
counts, in each, four kinds of items:

  methods    the attribute names that are called: s.split(...), d.items(), ...
  builtins   the built-in names a program reads (len, sorted, enumerate, ValueError),
             unless the program binds that name itself
  nodes      the AST node kinds (For, ListComp, Slice, USub, Load, ...)
  shapes     how a function treats its parameters: return-parameter (a function
             returns one of its parameters by name), rebind-parameter (it assigns to
             one), each counted once a function

For each kind it reports how many of the dev split's distinct items the corpus contains
(in at least --min-programs programs) and the share of the dev split's uses that those
items account for, and how many dev problems use only items the corpus contains.
--missing lists the dev items the corpus lacks or has rarely.

Only the dev split may be measured (docs/corpus.md): the test problems are never looked
at, and CruxEval is never trained on. A --cruxeval path naming a test split is refused.

Usage:
  scripts/corpus-coverage.py [--cruxeval shared/cruxeval/dev.jsonl] [--missing]
                             [--json OUT] CORPUS...
CORPUS is a corpus folder (its train_programs.jsonl and eval_programs.jsonl, as written
by `ndb data gen`) or a JSONL file with one program a line in a "source" or "code" field.
"""

import argparse
import ast
import builtins
import collections
import json
import math
import os
import sys

KINDS = ("methods", "builtins", "nodes", "shapes")
BUILTIN_NAMES = frozenset(vars(builtins))


def items(source):
    """The methods, builtins and node kinds of one program, each a Counter of uses;
    None when the source does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    methods, names, nodes = collections.Counter(), collections.Counter(), collections.Counter()
    bound = set()
    for n in ast.walk(tree):
        nodes[type(n).__name__] += 1
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            methods[n.func.attr] += 1
        elif isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                if n.id in BUILTIN_NAMES:
                    names[n.id] += 1
            else:
                bound.add(n.id)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(n.name)
        elif isinstance(n, ast.alias):
            bound.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            bound.add(n.name)
    for name in bound:
        names.pop(name, None)
    return {"methods": methods, "builtins": names, "nodes": nodes, "shapes": shapes(tree)}


def shapes(tree):
    """The parameter shapes of a program's functions, once per function."""
    out = collections.Counter()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        returned = rebound = False
        for n in ast.walk(fn):
            if isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id in params:
                returned = True
            elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                rebound |= any(isinstance(t, ast.Name) and t.id in params for t in targets)
        out["return-parameter"] += returned
        out["rebind-parameter"] += rebound
    return +out


class Tally:
    """Uses of every item, and the number of programs that contain it, per kind."""

    def __init__(self):
        self.programs = 0
        self.unparsed = 0
        self.uses = {k: collections.Counter() for k in KINDS}
        self.holders = {k: collections.Counter() for k in KINDS}
        self.each = []  # per program, when kept: its items by kind

    def add(self, source, keep=False):
        got = items(source)
        if got is None:
            self.unparsed += 1
            return
        self.programs += 1
        for k in KINDS:
            self.uses[k].update(got[k])
            self.holders[k].update(got[k].keys())
        if keep:
            self.each.append(got)


def read_jsonl(path, tally, field_names=("source", "code"), keep=False):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            for f in field_names:
                if isinstance(rec.get(f), str):
                    tally.add(rec[f], keep)
                    break


def read_corpus(path, tally):
    if os.path.isdir(path):
        files = [os.path.join(path, n) for n in ("train_programs.jsonl", "eval_programs.jsonl")]
        files = [f for f in files if os.path.exists(f)]
        if not files:
            sys.exit(f"{path}: no train_programs.jsonl or eval_programs.jsonl")
        for f in files:
            read_jsonl(f, tally)
    else:
        read_jsonl(path, tally)


def coverage(dev, corpus, min_programs):
    """Per kind: distinct dev items covered, distinct dev items, dev uses covered,
    dev uses, and the per-item rows (item, dev uses, dev problems and corpus programs
    holding it)."""
    out = {}
    for k in KINDS:
        rows = []
        covered = covered_uses = 0
        for item, n in sorted(dev.uses[k].items(), key=lambda kv: (-kv[1], kv[0])):
            held = corpus.holders[k][item]
            rows.append((item, n, dev.holders[k][item], held))
            if held >= min_programs:
                covered += 1
                covered_uses += n
        out[k] = {
            "distinct": covered,
            "distinct_dev": len(dev.uses[k]),
            "uses": covered_uses,
            "uses_dev": sum(dev.uses[k].values()),
            "items": [{"item": i, "dev_uses": n, "dev_problems": d, "corpus_programs": h}
                      for i, n, d, h in rows],
        }
    return out


def percent(n, total):
    """n/total as a percentage rounded down to 0.1, so that only all of it reads 100.0%."""
    if total == 0:
        return "-"
    return f"{math.floor(1000 * n / total) / 10:.1f}%"


def find_dev():
    """shared/cruxeval/dev.jsonl in the working directory, this script's, or a parent."""
    for start in (os.getcwd(), os.path.dirname(os.path.abspath(__file__))):
        d = os.path.abspath(start)
        while True:
            p = os.path.join(d, "shared", "cruxeval", "dev.jsonl")
            if os.path.isfile(p):
                return p
            if os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="+", help="corpus folder or programs JSONL")
    ap.add_argument("--cruxeval", default=None, help="CruxEval dev JSONL (default: shared/cruxeval/dev.jsonl here or in a parent folder)")
    ap.add_argument("--min-programs", type=int, default=1,
                    help="a dev item counts as covered when at least this many corpus programs contain it")
    ap.add_argument("--missing", action="store_true",
                    help="list the dev items the corpus lacks, and those in under half as large a "
                         "share of its programs as of the dev problems")
    ap.add_argument("--json", help="write every figure and per-item count here")
    args = ap.parse_args()

    crux = args.cruxeval or find_dev()
    if crux is None:
        sys.exit("no shared/cruxeval/dev.jsonl above the working directory or this script; pass --cruxeval")
    if "test" in os.path.basename(crux).lower():
        sys.exit(f"{crux}: only the dev split may be measured, never the test problems")

    dev = Tally()
    read_jsonl(crux, dev, ("code",), keep=True)
    corpus = Tally()
    for c in args.corpus:
        read_corpus(c, corpus)
    if corpus.programs == 0:
        sys.exit("the corpus holds no program that parses")

    cov = coverage(dev, corpus, args.min_programs)
    # Dev problems written only with items the corpus contains.
    whole = sum(all(corpus.holders[k][i] >= args.min_programs for k in KINDS for i in p[k]) for p in dev.each)
    print(f"{dev.programs} dev problems, {corpus.programs} corpus programs"
          + (f" ({corpus.unparsed} did not parse)" if corpus.unparsed else ""))
    print()
    print("| kind | distinct in the corpus | share of the dev split's uses |")
    print("|---|---|---|")
    for k in KINDS:
        c = cov[k]
        print(f"| {k} | {c['distinct']}/{c['distinct_dev']} | {percent(c['uses'], c['uses_dev'])} |")
    print()
    print(f"dev problems using only items the corpus contains: {whole}/{dev.programs}")
    if args.missing:
        for k in KINDS:
            absent = [r for r in cov[k]["items"] if r["corpus_programs"] < args.min_programs]
            if absent:
                print()
                print(f"{k} absent (dev uses): "
                      + ", ".join(f"{r['item']} ({r['dev_uses']})" for r in absent))
            rare = [r for r in cov[k]["items"] if r["corpus_programs"] >= args.min_programs
                    and r["corpus_programs"] / corpus.programs < r["dev_problems"] / dev.programs / 2]
            if rare:
                print()
                print(f"{k} in under half the dev split's share of programs (dev, corpus):")
                print("  " + ", ".join(f"{r['item']} ({percent(r['dev_problems'], dev.programs)}, "
                                       f"{percent(r['corpus_programs'], corpus.programs)})" for r in rare))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"dev_problems": dev.programs, "corpus_programs": corpus.programs,
                       "corpus_unparsed": corpus.unparsed, "min_programs": args.min_programs,
                       "dev_problems_covered": whole,
                       "coverage": cov}, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
