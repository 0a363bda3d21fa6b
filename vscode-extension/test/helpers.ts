// Shared helpers of the conformance tests: the real `ndb dap`, driven by the Debug
// Adapter Protocol's own client library.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { DebugProtocol } from '@vscode/debugprotocol';

/** The extension's directory (tests run from out/test). */
export const EXT_DIR = path.resolve(__dirname, '..', '..');
export const REPO_DIR = path.resolve(EXT_DIR, '..');
export const PROGRAMS = path.join(REPO_DIR, 'testdata', 'programs');

/** The binary under test: $NDB_BIN, else ../bin/ndb. */
export const NDB_BIN = process.env.NDB_BIN ? path.resolve(process.env.NDB_BIN) : path.join(REPO_DIR, 'bin', 'ndb');

/** Milliseconds a test waits for one event: the tracer runs real Python. */
export const EVENT_TIMEOUT = Number(process.env.NDB_TEST_TIMEOUT_MS || 20000);

export function program(name: string): string {
  return path.join(PROGRAMS, name);
}

let entries: Map<string, string> | undefined;

/** The entry call of a test program (testdata/programs/entries.txt), or undefined for a script. */
export function entryOf(name: string): string | undefined {
  if (!entries) {
    entries = new Map();
    for (const line of fs.readFileSync(path.join(PROGRAMS, 'entries.txt'), 'utf8').split('\n')) {
      const t = line.trim();
      if (t === '' || t.startsWith('#')) continue;
      const sp = t.indexOf(' ');
      if (sp > 0) entries.set(t.slice(0, sp), t.slice(sp + 1).trim());
    }
  }
  return entries.get(name);
}

/** Launch arguments for a test program in the given mode. */
export function launchArgs(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const args: Record<string, unknown> = { program: program(name), mode: 'recorded' };
  const entry = entryOf(name);
  if (entry !== undefined) args.entry = entry;
  return { ...args, ...extra };
}

/** A DebugClient on a fresh `ndb dap` (stdio). NDB_TEST_STDERR=1 shows the server's log. */
export async function startClient(): Promise<DebugClient> {
  const dc = new DebugClient(NDB_BIN, 'dap', 'ndb', { cwd: REPO_DIR }, process.env.NDB_TEST_STDERR === '1');
  dc.defaultTimeout = EVENT_TIMEOUT;
  await dc.start();
  return dc;
}

/** A response whatever its success: DebugClient rejects failed requests with the message alone. */
export function raw(dc: DebugClient, command: string, args?: unknown): Promise<DebugProtocol.Response> {
  return new Promise((resolve) => {
    (dc as unknown as { doSend(c: string, a: unknown, cb: (r: DebugProtocol.Response) => void): void }).doSend(
      command,
      args,
      resolve,
    );
  });
}

/** Asserts a failed response with ndb's stable error id (docs/dap.md, Errors). */
export function assertError(resp: DebugProtocol.Response, id: number, message?: RegExp): void {
  assert.strictEqual(resp.success, false, `${resp.command} should fail: ${JSON.stringify(resp)}`);
  const err = (resp.body as { error?: DebugProtocol.Message } | undefined)?.error;
  assert.ok(err, `${resp.command}: error body missing: ${JSON.stringify(resp)}`);
  assert.strictEqual(err.id, id, `${resp.command}: error id: ${resp.message}`);
  if (message) assert.match(resp.message ?? '', message);
}

/**
 * Sends a resuming request together with the wait for its stopped event (Promise.all),
 * so that the event cannot arrive before the wait is set up.
 */
export async function step(
  dc: DebugClient,
  send: () => Promise<DebugProtocol.Response>,
  reason = 'step',
): Promise<DebugProtocol.StoppedEvent> {
  const [, ev] = await Promise.all([send(), dc.waitForEvent('stopped')]);
  assert.strictEqual(ev.body.reason, reason, `stopped reason: ${JSON.stringify(ev.body)}`);
  return ev as DebugProtocol.StoppedEvent;
}

export interface Frame {
  name: string;
  line: number;
  id: number;
}

export async function frames(dc: DebugClient, threadId = 1): Promise<Frame[]> {
  const st = await dc.stackTraceRequest({ threadId });
  return st.body.stackFrames.map((f) => ({ name: f.name, line: f.line, id: f.id }));
}

/** "name:line" of each frame, innermost first. */
export async function where(dc: DebugClient, threadId = 1): Promise<string[]> {
  return (await frames(dc, threadId)).map((f) => `${f.name}:${f.line}`);
}

/** The variables of each scope of a frame (the innermost by default), by scope name. */
export async function scopes(dc: DebugClient, frameId?: number, threadId = 1): Promise<Record<string, Record<string, DebugProtocol.Variable>>> {
  if (frameId === undefined) frameId = (await frames(dc, threadId))[0].id;
  const out: Record<string, Record<string, DebugProtocol.Variable>> = {};
  const sc = await dc.scopesRequest({ frameId });
  for (const s of sc.body.scopes) {
    const vs = await dc.variablesRequest({ variablesReference: s.variablesReference });
    out[s.name] = {};
    for (const v of vs.body.variables) out[s.name][v.name] = v;
  }
  return out;
}

/** The locals of the innermost frame as name -> value. */
export async function locals(dc: DebugClient, threadId = 1): Promise<Record<string, string>> {
  const all = await scopes(dc, undefined, threadId);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all['Locals'] ?? {})) out[k] = v.value;
  return out;
}

/** Initialize, launch, configurationDone with stopOnEntry: resolves at the entry stop. */
export async function launchToEntry(dc: DebugClient, args: Record<string, unknown>): Promise<DebugProtocol.StoppedEvent> {
  const [, , ev] = await Promise.all([
    dc.configurationSequence(),
    dc.launch({ ...args, stopOnEntry: true }),
    dc.waitForEvent('stopped'),
  ]);
  assert.strictEqual(ev.body.reason, 'entry');
  return ev as DebugProtocol.StoppedEvent;
}

/** Collects the output events of a session by category. */
export function collectOutput(dc: DebugClient): Record<string, string> {
  const out: Record<string, string> = {};
  dc.on('output', (e: DebugProtocol.OutputEvent) => {
    const c = e.body.category ?? 'console';
    out[c] = (out[c] ?? '') + e.body.output;
  });
  return out;
}
