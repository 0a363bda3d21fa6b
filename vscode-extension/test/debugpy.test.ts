// The same recorded-mode session against debugpy (Debian's python3-debugpy) and `ndb dap`,
// both driven by @vscode/debugadapter-testsupport's DebugClient: launch to a breakpoint on
// the entry function's first line, stepIn to the end of the program, and at every stop the
// stack (names and lines), the stop reason and the Locals. ndb's stops are projected onto
// the stops debugpy makes (the mapping below, written down in docs/dap.md, "Stepping
// differences", and docs/conformance.md), and the projection must equal debugpy's stops.
//
// The mapping (ndb's stop sequence -> debugpy's):
//  1. ndb's call state (a new frame, on the `def` line, the arguments as locals) has no
//     debugpy stop: debugpy stops first at the body's first line, which is ndb's next state
//     (a line state with the same locals), compared as any line.
//  2. ndb's line state is a debugpy stop at the same function, line and stack, the same
//     locals (reprs, with the value rules below). Its reason is `step`, except on the line
//     of the session's breakpoint, where debugpy reports `breakpoint` even when a stepIn
//     lands there (a recursive call); ndb's stepIn does not look at breakpoints.
//  3. ndb's return state has no debugpy stop of its own. Whenever a frame ends (the next
//     ndb state is in a shallower frame, or the program ended), debugpy stops once more in
//     the caller, on the calling line ("return-to" stop), with the callee's return value in
//     a `(return) <qualname>` local (launch option showReturnValue). The value is ndb's
//     return value, or None when the frame was left by an exception (ndb has no return
//     state then). The caller's other locals: each is its value before the calling line
//     ran (ndb's previous state in that frame) or after it (ndb's next one), since the
//     callee may have mutated it (`acct.apply(m)`); the names are those before the line.
//     When the frame ended with the entry call, the caller is the wrapper's `<module>` on
//     its entry line, and only the `(return)` value is compared (the rest is the wrapper's).
//  4. ndb's exception state: where the exception is raised (same frame as the state before)
//     debugpy does not stop (no exception breakpoints); where it arrives from a callee (the
//     frame below just ended) it is the same instant as the return-to stop of rule 3, whose
//     locals it then gives exactly.
//  5. `(return) ...` locals that debugpy keeps after a return-to stop are left out of the
//     comparison; the wrapper's `<module>` frame at the bottom of debugpy's stack is dropped.
//
// Values (both are Python reprs):
//  - equal; or
//  - debugpy elides containers nested deeper than its repr's levels (`[1, [2, [...]], 5]`):
//    its `[...]`, `(...)`, `{...}` stand for one whole bracketed value of ndb's repr; or
//  - ndb's tracer writes `<repr failed: T>` when `repr()` raises (`self` in `__init__`
//    before its fields exist); pydevd falls back to `<module.T object at 0x...>`; or
//  - a repr cut short (ndb at 200 characters, `...` at the end; debugpy likewise) is
//    compared up to the cut.
import * as assert from 'assert';
import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { DebugProtocol } from '@vscode/debugprotocol';
import { EVENT_TIMEOUT, NDB_BIN, REPO_DIR, entryOf, program } from './helpers';

/** Debian's interpreter, the only one here that imports debugpy. */
const DEBUGPY_PYTHON = '/usr/bin/python3.11';

/** The programs of the comparison (testdata/programs, with their entries.txt calls). */
const PROGRAMS = ['count.py', 'nested_calls.py', 'recursion.py', 'loops.py', 'classes.py', 'exceptions_caught.py'];

/** A cap on the stepIns of one session: the programs above take 17 to 37. */
const MAX_STEPS = 200;

const VERBOSE = process.env.NDB_TEST_VERBOSE === '1';

// ---------------------------------------------------------------------------------------
// Driving an adapter

type Adapter = 'ndb' | 'debugpy';

/** Where a stop landed, as a client sees it. */
interface Stop {
  reason: string;
  /** "name:line", innermost first. */
  stack: string[];
  /** The innermost frame's source file. */
  file: string;
  /** Locals of the innermost frame, name -> value. */
  locals: Record<string, string>;
  /** ndb: the "Return value" scope's value; undefined when there is none. */
  ret?: string;
  /** ndb: the stop has an "Exception" scope. */
  exc: boolean;
}

interface Session {
  stops: Stop[];
  /** The wrapper script (debugpy), whose <module> makes the entry call on wrapperLine. */
  wrapper?: string;
  caps: DebugProtocol.Capabilities;
  ms: number;
}

/** The wrapper's line with the entry call (see writeWrapper). */
const WRAPPER_LINE = 7;

/**
 * debugpy debugs scripts, not calls: a wrapper loads the program as a module, takes its
 * names and makes the entry call on a line of its own (as adapter/debugpy_session_test.go).
 */
function writeWrapper(prog: string, entry: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndb-debugpy-'));
  const file = path.join(dir, 'ndb_entry.py');
  const src = [
    'import importlib.util',
    '',
    `spec = importlib.util.spec_from_file_location("program", ${JSON.stringify(prog)})`,
    'module = importlib.util.module_from_spec(spec)',
    'spec.loader.exec_module(module)',
    'globals().update(vars(module))',
    entry,
    '',
  ].join('\n');
  fs.writeFileSync(file, src);
  assert.strictEqual(src.split('\n')[WRAPPER_LINE - 1], entry);
  return file;
}

/** The line of the first statement of function fn (the line after its `def`, for these programs). */
function firstBodyLine(prog: string, fn: string): number {
  const lines = fs.readFileSync(prog, 'utf8').split('\n');
  const def = lines.findIndex((l) => l.trim().startsWith(`def ${fn}(`));
  assert.ok(def >= 0, `no function ${fn} in ${prog}`);
  for (let i = def + 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t !== '' && !t.startsWith('#')) return i + 1;
  }
  throw new Error(`function ${fn} in ${prog} has no body`);
}

/** Ends the adapter process (DebugClient.stop would send a second disconnect, which ndb never answers: it closed the connection). */
function kill(dc: DebugClient): void {
  (dc as unknown as { stopAdapter(): void }).stopAdapter();
}

/** The next stopped event, or null once the program ended (terminated); no timer is left behind. */
function nextStop(dc: DebugClient): Promise<DebugProtocol.StoppedEvent | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      dc.removeListener('stopped', onStopped);
      dc.removeListener('terminated', onTerminated);
    };
    const onStopped = (e: DebugProtocol.StoppedEvent) => { done(); resolve(e); };
    const onTerminated = () => { done(); resolve(null); };
    const timer = setTimeout(() => { done(); reject(new Error(`no stopped or terminated event within ${EVENT_TIMEOUT} ms`)); }, EVENT_TIMEOUT);
    dc.on('stopped', onStopped);
    dc.on('terminated', onTerminated);
  });
}

async function view(dc: DebugClient, ev: DebugProtocol.StoppedEvent): Promise<Stop> {
  const threadId = ev.body.threadId ?? 1;
  const st = await dc.stackTraceRequest({ threadId, startFrame: 0, levels: 50 });
  const frames = st.body.stackFrames;
  assert.ok(frames.length > 0, `an empty stack at a stop: ${JSON.stringify(ev.body)}`);
  const sc = await dc.scopesRequest({ frameId: frames[0].id });
  const stop: Stop = {
    reason: ev.body.reason,
    stack: frames.map((f) => `${f.name}:${f.line}`),
    file: frames[0].source?.path ?? '',
    locals: {},
    exc: false,
  };
  for (const s of sc.body.scopes) {
    if (s.name === 'Locals') {
      const vs = await dc.variablesRequest({ variablesReference: s.variablesReference });
      for (const v of vs.body.variables) stop.locals[v.name] = v.value;
    } else if (s.name === 'Return value') {
      const vs = await dc.variablesRequest({ variablesReference: s.variablesReference });
      stop.ret = vs.body.variables[0]?.value;
    } else if (s.name === 'Exception') {
      stop.exc = true;
    }
  }
  return stop;
}

/**
 * One session: initialize, launch, a breakpoint on the entry function's first body line,
 * no exception breakpoints, configurationDone, the stop at the breakpoint, then stepIn
 * (each sent together with the wait for its stop) until the program ends.
 */
async function session(kind: Adapter, name: string): Promise<Session> {
  const t0 = Date.now();
  const prog = program(name);
  const entry = entryOf(name);
  assert.ok(entry, `${name} has no entry call in entries.txt`);
  const fn = entry.slice(0, entry.indexOf('('));
  const bpLine = firstBodyLine(prog, fn);
  let dc: DebugClient;
  let args: Record<string, unknown>;
  let wrapper: string | undefined;
  if (kind === 'ndb') {
    dc = new DebugClient(NDB_BIN, 'dap', 'ndb', { cwd: REPO_DIR }, process.env.NDB_TEST_STDERR === '1');
    args = { type: 'ndb', request: 'launch', name, program: prog, entry, mode: 'recorded', stopOnEntry: false };
  } else {
    // DebugClient spawns runtime + one argument: `-mdebugpy.adapter` is `-m debugpy.adapter`.
    dc = new DebugClient(DEBUGPY_PYTHON, '-mdebugpy.adapter', 'python', { cwd: REPO_DIR }, process.env.NDB_TEST_STDERR === '1');
    wrapper = writeWrapper(prog, entry);
    args = {
      type: 'python', request: 'launch', name, program: wrapper, cwd: path.dirname(wrapper),
      console: 'internalConsole', justMyCode: true, showReturnValue: true, stopOnEntry: false,
      python: [DEBUGPY_PYTHON],
    };
  }
  dc.defaultTimeout = EVENT_TIMEOUT;
  await dc.start();
  const stops: Stop[] = [];
  try {
    const init = await dc.initializeRequest();
    const initialized = dc.waitForEvent('initialized');
    const launched = dc.launchRequest(args as DebugProtocol.LaunchRequestArguments); // debugpy answers after configurationDone
    await initialized;
    const bps = await dc.setBreakpointsRequest({ source: { path: prog }, breakpoints: [{ line: bpLine }] });
    assert.ok(bps.body.breakpoints.length === 1 && bps.body.breakpoints[0].verified, `${kind}: breakpoint on ${name}:${bpLine} not verified`);
    await dc.setExceptionBreakpointsRequest({ filters: [] });
    const first = nextStop(dc);
    await dc.configurationDoneRequest();
    await launched;
    let ev = await first;
    assert.ok(ev, `${kind}: ${name} ended before the breakpoint on line ${bpLine}`);
    for (let i = 0; ev; i++) {
      stops.push(await view(dc, ev));
      assert.ok(i < MAX_STEPS, `${kind}: ${name} did not end within ${MAX_STEPS} stepIns`);
      const threadId: number = ev.body.threadId ?? 1;
      [, ev] = await Promise.all([dc.stepInRequest({ threadId }), nextStop(dc)]);
    }
    await dc.disconnectRequest({ terminateDebuggee: true }).catch(() => undefined);
    return { stops, wrapper, caps: init.body ?? {}, ms: Date.now() - t0 };
  } finally {
    kill(dc);
    if (wrapper) fs.rmSync(path.dirname(wrapper), { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// The mapping

/** A stop debugpy should make, projected from ndb's stops. */
interface Expected {
  rule: 'line' | 'return-to' | 'return-to-module';
  reason: string;
  stack: string[];
  /** The locals exactly (a line stop, or a return-to stop at a propagated exception). */
  locals?: Record<string, string>;
  /** A return-to stop: each local is one of these values (before or after the calling line). */
  either?: { names: string[]; before: Record<string, string>; after: Record<string, string> };
  /** A return-to stop: the callee's name and the value of its `(return) ...` local. */
  returned?: { fn: string; value: string };
  /** Which ndb stops it comes from (indices), for messages. */
  from: number[];
}

/** Counts of the mapping's rules, over all programs. */
const figures = {
  programs: 0, ndbStops: 0, debugpyStops: 0,
  droppedCalls: 0, droppedReturns: 0, droppedRaises: 0, mergedPropagations: 0,
  line: 0, returnTo: 0, returnToModule: 0, breakpointReason: 0,
  localsCompared: 0, localsAfter: 0, elided: 0, reprFailed: 0, truncated: 0,
};

/** Projects ndb's stops onto debugpy's (rules 1 to 4 above). */
function project(ndb: Stop[], entryFn: string, bp: string): Expected[] {
  const out: Expected[] = [];
  const depth = (s: Stop) => s.stack.length;
  const fnOf = (s: Stop) => s.stack[0].slice(0, s.stack[0].lastIndexOf(':'));
  for (let i = 0; i < ndb.length; i++) {
    const s = ndb[i];
    const prev = i > 0 ? ndb[i - 1] : undefined;
    // a return state is the last of its frame: after it, a state at the same depth is
    // another frame's call (`f(g(x))`)
    const returned = prev !== undefined && prev.ret !== undefined;
    const left = prev !== undefined && (depth(s) < depth(prev) || returned);
    const entered = prev !== undefined && (depth(s) > depth(prev) || (returned && depth(s) === depth(prev)));
    assert.ok(prev === undefined || Math.abs(depth(s) - depth(prev)) <= 1, `ndb: stop ${i} moves more than one frame: ${prev?.stack} -> ${s.stack}`);
    if (left) out.push(returnTo(ndb, i - 1, i));
    if (entered) {
      // rule 1: a call state
      assert.strictEqual(s.ret, undefined, `ndb: stop ${i} enters a frame with a return`);
      figures.droppedCalls++;
      continue;
    }
    if (s.ret !== undefined) { figures.droppedReturns++; continue; } // rule 3: the return-to stop follows
    if (s.exc) {
      if (left) figures.mergedPropagations++; // rule 4: same instant as the return-to stop
      else figures.droppedRaises++;
      continue;
    }
    // rule 2: a line state
    const reason = s.stack[0] === bp ? 'breakpoint' : 'step';
    if (reason === 'breakpoint') figures.breakpointReason++;
    out.push({ rule: 'line', reason, stack: s.stack, locals: s.locals, from: [i] });
  }
  // the entry frame ends with the program: debugpy returns to the wrapper
  const last = ndb[ndb.length - 1];
  assert.strictEqual(depth(last), 1, 'ndb: the program ended with frames left');
  assert.strictEqual(fnOf(last), entryFn);
  out.push(returnTo(ndb, ndb.length - 1, undefined));
  return out;

  /** The return-to stop of the frame that ndb[exit] was the last state of; ndb[next] follows it. */
  function returnTo(stops: Stop[], exit: number, next: number | undefined): Expected {
    const e = stops[exit];
    const fn = fnOf(e);
    const value = e.ret !== undefined ? e.ret : 'None'; // a frame left by an exception returns None to the tracer
    if (next === undefined) {
      return { rule: 'return-to-module', reason: 'step', stack: [`<module>:${WRAPPER_LINE}`], returned: { fn, value }, from: [exit] };
    }
    const caller = e.stack.slice(1);
    const inCaller = (s: Stop) => s.stack.length === caller.length && s.stack.slice(1).join() === caller.slice(1).join();
    const base = { rule: 'return-to' as const, reason: 'step', // on the breakpoint's line too: a return, not a line event
      stack: caller, returned: { fn, value } };
    const n = stops[next];
    if (n.exc && inCaller(n)) return { ...base, locals: n.locals, from: [exit, next] }; // rule 4: the propagated exception, same instant
    // the caller's state before the calling line (its latest stop) and after it (its next one)
    let b = exit;
    while (b >= 0 && !inCaller(stops[b])) b--;
    assert.ok(b >= 0, `ndb: no state of the caller before stop ${exit}`);
    let a = next;
    while (a < stops.length && !inCaller(stops[a])) a++;
    assert.ok(a < stops.length, `ndb: no state of the caller after stop ${exit}`);
    return { ...base, either: { names: Object.keys(stops[b].locals), before: stops[b].locals, after: stops[a].locals }, from: [b, exit, a] };
  }
}

/** Whether debugpy's repr dp stands for ndb's repr nd (the value rules above). */
function sameValue(nd: string, dp: string): boolean {
  if (nd === dp) return true;
  const failed = /^<repr failed: ([\w.]+)>$/.exec(nd);
  if (failed) {
    const t = failed[1].replace(/[.]/g, '\\.');
    if (new RegExp(`^<([\\w.]+\\.)?${t} object at 0x[0-9a-fA-F]+>$`).test(dp)) { figures.reprFailed++; return true; }
    return false;
  }
  if (nd.endsWith('...') && dp.startsWith(nd.slice(0, -3))) { figures.truncated++; return true; }
  if (dp.endsWith('...') && !/[\])}]$/.test(dp) && nd.startsWith(dp.slice(0, -3))) { figures.truncated++; return true; }
  if (elidedMatch(nd, 0, dp, 0)) { figures.elided++; return true; }
  return false;
}

/** nd[i:] against dp[j:], where dp's `[...]`, `(...)`, `{...}` match one bracketed value of nd. */
function elidedMatch(nd: string, i: number, dp: string, j: number): boolean {
  while (j < dp.length) {
    const el = dp.slice(j, j + 5);
    if ((el === '[...]' || el === '(...)' || el === '{...}') && nd[i] === el[0]) {
      const end = closing(nd, i);
      if (end < 0) return false;
      if (elidedMatch(nd, end + 1, dp, j + 5)) return true;
    }
    if (nd[i] !== dp[j]) return false;
    i++;
    j++;
  }
  return i === nd.length;
}

/** The index of the bracket closing nd[i], skipping string literals; -1 when unbalanced. */
function closing(nd: string, i: number): number {
  const stack: string[] = [];
  const pair: Record<string, string> = { '[': ']', '(': ')', '{': '}' };
  for (let k = i; k < nd.length; k++) {
    const c = nd[k];
    if (c === '"' || c === "'") {
      for (k++; k < nd.length && nd[k] !== c; k++) if (nd[k] === '\\') k++;
    } else if (pair[c]) {
      stack.push(pair[c]);
    } else if (c === ']' || c === ')' || c === '}') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return k;
    }
  }
  return -1;
}

/** debugpy's `(return) <qualname>` local for function fn (`Account.apply` for `apply`). */
function returnLocal(locals: Record<string, string>, fn: string): string | undefined {
  for (const [k, v] of Object.entries(locals)) {
    if (!k.startsWith('(return) ')) continue;
    const q = k.slice('(return) '.length);
    if (q === fn || q.endsWith(`.${fn}`)) return v;
  }
  return undefined;
}

/** Checks debugpy's stop against the projection (rule 5 for what is left out). */
function check(prog: string, k: number, want: Expected, got: Stop, ctx: () => string): void {
  const where = `${prog}: debugpy's stop ${k} (${want.rule}, from ndb's stops ${want.from.join(', ')})`;
  const stack = got.stack.slice();
  if (want.rule !== 'return-to-module') {
    assert.strictEqual(stack.pop(), `<module>:${WRAPPER_LINE}`, `${where}: the wrapper's frame at the bottom\n${ctx()}`);
  }
  assert.deepStrictEqual(stack, want.stack, `${where}: stack\n${ctx()}`);
  assert.strictEqual(got.reason, want.reason, `${where}: reason\n${ctx()}`);
  if (want.returned) {
    const v = returnLocal(got.locals, want.returned.fn);
    assert.ok(v !== undefined, `${where}: no (return) ${want.returned.fn} local: ${JSON.stringify(got.locals)}\n${ctx()}`);
    assert.ok(sameValue(want.returned.value, v), `${where}: (return) ${want.returned.fn}: ndb ${want.returned.value}, debugpy ${v}\n${ctx()}`);
  }
  if (want.rule === 'return-to-module') return; // the wrapper's globals
  const locals = Object.fromEntries(Object.entries(got.locals).filter(([n]) => !n.startsWith('(return) ')));
  const names = want.locals ? Object.keys(want.locals) : want.either!.names;
  assert.deepStrictEqual(Object.keys(locals).sort(), names.slice().sort(), `${where}: local names\n${ctx()}`);
  for (const n of names) {
    figures.localsCompared++;
    const v = locals[n];
    if (want.locals) {
      assert.ok(sameValue(want.locals[n], v), `${where}: ${n}: ndb ${want.locals[n]}, debugpy ${v}\n${ctx()}`);
    } else {
      const { before, after } = want.either!;
      if (sameValue(before[n], v)) continue;
      assert.ok(n in after && sameValue(after[n], v), `${where}: ${n}: debugpy ${v}, ndb before the line ${before[n]}, after ${after[n]}\n${ctx()}`);
      figures.localsAfter++;
    }
  }
}

function show(s: Stop): string {
  const extra = s.ret !== undefined ? ` return=${s.ret}` : s.exc ? ' exception' : '';
  return `${s.stack.join(' < ')} (${s.reason}${extra}) ${JSON.stringify(s.locals)}`;
}

// ---------------------------------------------------------------------------------------

let debugpyMissing: string | undefined;

function needDebugpy(ctx: Mocha.Context): void {
  if (debugpyMissing === undefined) {
    const r = cp.spawnSync(DEBUGPY_PYTHON, ['-c', 'import debugpy'], { encoding: 'utf8' });
    debugpyMissing = r.status === 0 ? '' : (r.error?.message ?? r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`);
  }
  if (debugpyMissing !== '') {
    console.log(`    skipped: debugpy is not available (${DEBUGPY_PYTHON} cannot import it: ${debugpyMissing}); ` +
      'install it with `make debugpy` (apt-get install -y --no-install-recommends python3-debugpy)');
    ctx.skip();
  }
}

describe('recorded mode against debugpy: the same session, stop for stop', function () {
  this.timeout(180000);
  this.slow(30000);

  before(function () {
    if (!fs.existsSync(NDB_BIN)) throw new Error(`no ndb binary at ${NDB_BIN}: run \`make build\`, or set NDB_BIN`);
    needDebugpy(this);
  });

  after(function () {
    if (figures.programs === 0) return;
    console.log(`    figures: ${JSON.stringify(figures)}`);
  });

  for (const name of PROGRAMS) {
    it(`${name}: lines and locals agree at every stepIn, after the mapping`, async function () {
      const entry = entryOf(name)!;
      const fn = entry.slice(0, entry.indexOf('('));
      const bp = `${fn}:${firstBodyLine(program(name), fn)}`;
      const [nd, dp] = await Promise.all([session('ndb', name), session('debugpy', name)]);
      const ctx = () => `ndb's stops:\n${nd.stops.map((s, i) => `  ${i} ${show(s)}`).join('\n')}\n` +
        `debugpy's stops:\n${dp.stops.map((s, i) => `  ${i} ${show(s)}`).join('\n')}`;
      if (VERBOSE) console.log(ctx());

      // the first stops: both at the breakpoint, ndb without a call state before it
      assert.strictEqual(nd.stops[0].reason, 'breakpoint');
      assert.strictEqual(nd.stops[0].stack[0], bp);
      for (const s of nd.stops) assert.strictEqual(path.basename(s.file), name, `ndb stops in ${s.file}`);

      const want = project(nd.stops, fn, bp);
      assert.strictEqual(dp.stops.length, want.length,
        `${name}: debugpy made ${dp.stops.length} stops, the projection of ndb's ${nd.stops.length} says ${want.length}\n` +
        `projection:\n${want.map((w, i) => `  ${i} ${w.rule} ${w.stack.join(' < ')}`).join('\n')}\n${ctx()}`);
      for (let k = 0; k < want.length; k++) {
        check(name, k, want[k], dp.stops[k], ctx);
        const file = path.basename(dp.stops[k].file);
        assert.strictEqual(file, want[k].rule === 'return-to-module' ? 'ndb_entry.py' : name, `${name}: debugpy's stop ${k} in ${file}`);
        if (want[k].rule === 'line') figures.line++;
        else if (want[k].rule === 'return-to') figures.returnTo++;
        else figures.returnToModule++;
      }
      figures.programs++;
      figures.ndbStops += nd.stops.length;
      figures.debugpyStops += dp.stops.length;
      if (VERBOSE) console.log(`    ${name}: ndb ${nd.stops.length} stops in ${nd.ms} ms, debugpy ${dp.stops.length} in ${dp.ms} ms`);
    });
  }

  it('initialize: the capabilities docs/conformance.md lists', async function () {
    const caps: Record<string, DebugProtocol.Capabilities> = {};
    for (const kind of ['ndb', 'debugpy'] as Adapter[]) {
      const dc = kind === 'ndb'
        ? new DebugClient(NDB_BIN, 'dap', 'ndb', { cwd: REPO_DIR })
        : new DebugClient(DEBUGPY_PYTHON, '-mdebugpy.adapter', 'python', { cwd: REPO_DIR });
      dc.defaultTimeout = EVENT_TIMEOUT;
      await dc.start();
      try {
        caps[kind] = (await dc.initializeRequest()).body ?? {};
      } finally {
        await dc.disconnectRequest({}).catch(() => undefined);
        kill(dc);
      }
    }
    if (VERBOSE) console.log(JSON.stringify(caps, null, 2));
    const on = (c: DebugProtocol.Capabilities) =>
      Object.entries(c).filter(([k, v]) => k.startsWith('supports') && v === true).map(([k]) => k).sort();
    assert.deepStrictEqual(on(caps.ndb), [
      'supportsBreakpointLocationsRequest', 'supportsConfigurationDoneRequest', 'supportsDelayedStackTraceLoading',
      'supportsEvaluateForHovers', 'supportsExceptionInfoRequest', 'supportsSetVariable', 'supportsStepBack',
      'supportsTerminateRequest',
    ]);
    // debugpy 1.6.3 (Debian's python3-debugpy): the set the table's debugpy column was read from
    assert.deepStrictEqual(on(caps.debugpy), [
      'supportsClipboardContext', 'supportsCompletionsRequest', 'supportsConditionalBreakpoints',
      'supportsConfigurationDoneRequest', 'supportsDebuggerProperties', 'supportsDelayedStackTraceLoading',
      'supportsEvaluateForHovers', 'supportsExceptionInfoRequest', 'supportsExceptionOptions',
      'supportsFunctionBreakpoints', 'supportsGotoTargetsRequest', 'supportsHitConditionalBreakpoints',
      'supportsLogPoints', 'supportsModulesRequest', 'supportsSetExpression', 'supportsSetVariable',
      'supportsStepInTargetsRequest', 'supportsTerminateRequest', 'supportsValueFormattingOptions',
    ]);
    const filters = (c: DebugProtocol.Capabilities) => (c.exceptionBreakpointFilters ?? []).map((f) => `${f.filter}${f.default ? '*' : ''}`);
    assert.deepStrictEqual(filters(caps.ndb), ['raised', 'uncaught*']);
    assert.deepStrictEqual(filters(caps.debugpy), ['raised', 'uncaught*', 'userUnhandled']);
  });
});
