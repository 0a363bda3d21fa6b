// Conformance of `ndb dap` in recorded mode, through @vscode/debugadapter-testsupport's
// DebugClient: full sessions on the real binary and the real tracer.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { DebugProtocol } from '@vscode/debugprotocol';
import {
  NDB_BIN, assertError, collectOutput, entryOf, launchArgs, launchToEntry, locals, program, raw, scopes, startClient, step, where,
} from './helpers';

const NESTED = 'nested_calls.py'; // total_price -> line_price -> discount

before(function () {
  if (!fs.existsSync(NDB_BIN)) {
    throw new Error(`no ndb binary at ${NDB_BIN}: run \`make build\` in the repository root, or set NDB_BIN`);
  }
});

describe('recorded mode: a session', function () {
  let dc: DebugClient;
  beforeEach(async () => { dc = await startClient(); });
  afterEach(async () => { await dc.stop(); });

  it('initialize advertises ndb\'s capabilities', async () => {
    const resp = await dc.initializeRequest();
    const caps = resp.body!;
    assert.strictEqual(caps.supportsConfigurationDoneRequest, true);
    assert.strictEqual(caps.supportsStepBack, true);
    assert.strictEqual(caps.supportsSetVariable, true);
    assert.strictEqual(caps.supportsTerminateRequest, true);
    assert.strictEqual(caps.supportsExceptionInfoRequest, true);
    assert.strictEqual(caps.supportsBreakpointLocationsRequest, true);
    assert.deepStrictEqual((caps.exceptionBreakpointFilters ?? []).map((f) => f.filter).sort(), ['raised', 'uncaught']);
  });

  it('launch with stopOnEntry stops at the entry call with its inputs', async () => {
    await launchToEntry(dc, launchArgs(NESTED));
    assert.deepStrictEqual(await where(dc), ['total_price:12']);
    assert.deepStrictEqual(await locals(dc), { quantities: '[3, 5, 2]', rate: '0.25' });
    const th = await dc.threadsRequest();
    assert.deepStrictEqual(th.body.threads.map((t) => t.id), [1]);
  });

  it('hits a breakpoint (assertStoppedLocation) and reads the stack and variables', async () => {
    await dc.hitBreakpoint(launchArgs(NESTED), { path: program(NESTED), line: 7 });
    const stack = await where(dc);
    assert.strictEqual(stack.length, 2);
    assert.strictEqual(stack[0], 'line_price:7');
    assert.match(stack[1], /^total_price:\d+$/);
    assert.deepStrictEqual(await locals(dc), { qty: '3', unit: '1.5', rate: '0.25' });
    const ev = await dc.evaluateRequest({ expression: 'qty', frameId: (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].id, context: 'hover' });
    assert.strictEqual(ev.body.result, '3');
  });

  it('verifies breakpoints on executable lines only', async () => {
    await dc.launch(launchArgs(NESTED));
    const resp = await dc.setBreakpointsRequest({ source: { path: program(NESTED) }, breakpoints: [{ line: 4 }, { line: 13 }] });
    const [blank, code] = resp.body.breakpoints;
    assert.strictEqual(blank.verified, false, 'line 4 is blank');
    assert.ok(blank.message, 'an unverified breakpoint says why');
    assert.strictEqual(code.verified, true);
    assert.strictEqual(code.line, 13);
  });

  it('steps in, over and out, forward through the calls', async () => {
    await dc.hitBreakpoint(launchArgs(NESTED), { path: program(NESTED), line: 7 });
    const next = () => step(dc, () => dc.nextRequest({ threadId: 1 }));
    const stepIn = () => step(dc, () => dc.stepInRequest({ threadId: 1 }));
    const stepOut = () => step(dc, () => dc.stepOutRequest({ threadId: 1 }));

    await next();
    assert.strictEqual((await where(dc))[0], 'line_price:8');
    assert.strictEqual((await locals(dc)).gross, '4.5');

    await stepIn(); // into discount(gross, rate): its call state
    assert.deepStrictEqual((await where(dc)).slice(0, 2), ['discount:1', 'line_price:8']);
    assert.deepStrictEqual(await locals(dc), { price: '4.5', rate: '0.25' });

    await next();
    assert.strictEqual((await where(dc))[0], 'discount:2');

    await stepOut(); // ndb stops at the return event of the frame (debugpy: at the calling line)
    assert.strictEqual((await where(dc))[0], 'discount:3');
    const sc = await scopes(dc);
    assert.strictEqual(sc['Return value']?.['(return)']?.value, '3.375');

    await next(); // back in the caller, after the call
    assert.strictEqual((await where(dc))[0], 'line_price:9');
    assert.strictEqual((await locals(dc)).net, '3.375');
  });

  it('steps over a call without entering it', async () => {
    await dc.hitBreakpoint(launchArgs(NESTED), { path: program(NESTED), line: 8 });
    await step(dc, () => dc.nextRequest({ threadId: 1 }));
    assert.deepStrictEqual((await where(dc)).length, 2);
    assert.strictEqual((await where(dc))[0], 'line_price:9');
  });

  it('steps back (stepBack, ndbReverseStep) and reverses to the previous breakpoint line (reverseContinue)', async () => {
    await dc.hitBreakpoint(launchArgs(NESTED), { path: program(NESTED), line: 9 });
    const back = (kind: string) => step(dc, () => dc.customRequest('ndbReverseStep', { threadId: 1, kind }));

    await back('into'); // the previous state: line 8, which called discount
    assert.strictEqual((await where(dc))[0], 'line_price:8');
    await back('into'); // into discount from its end: its return
    assert.strictEqual((await where(dc))[0], 'discount:3');
    assert.strictEqual((await scopes(dc))['Return value']?.['(return)']?.value, '3.375');
    await back('call'); // the call of discount: its inputs
    assert.strictEqual((await where(dc))[0], 'discount:1');
    assert.deepStrictEqual(await locals(dc), { price: '4.5', rate: '0.25' });
    await back('over'); // the previous state of the caller's frame
    assert.strictEqual((await where(dc))[0], 'line_price:8');

    await step(dc, () => dc.stepBackRequest({ threadId: 1 }));
    assert.strictEqual((await where(dc))[0], 'line_price:7');
    assert.deepStrictEqual(await locals(dc), { qty: '3', unit: '1.5', rate: '0.25' });

    // Reverse (reverseContinue): back to the latest earlier state on a breakpoint line;
    // there is none before the first hit of line 9, so the entry state.
    await step(dc, () => dc.reverseContinueRequest({ threadId: 1 }), 'entry');
    assert.deepStrictEqual(await where(dc), ['total_price:12']);
    await step(dc, () => dc.continueRequest({ threadId: 1 }), 'breakpoint'); // line 9, qty 3
    await step(dc, () => dc.continueRequest({ threadId: 1 }), 'breakpoint'); // line 9, qty 5
    assert.strictEqual((await locals(dc)).qty, '5');
    await step(dc, () => dc.reverseContinueRequest({ threadId: 1 }), 'breakpoint');
    assert.deepStrictEqual(await where(dc), ['line_price:9', 'total_price:15']);
    assert.strictEqual((await locals(dc)).qty, '3');
  });

  it('a reverse step at the first state says so and stays', async () => {
    const out = collectOutput(dc);
    await launchToEntry(dc, launchArgs(NESTED));
    await step(dc, () => dc.stepBackRequest({ threadId: 1 }));
    assert.deepStrictEqual(await where(dc), ['total_price:12']);
    assert.match(out.console ?? '', /already at the first state/);
  });

  it('rejects an unknown ndbReverseStep kind (1003)', async () => {
    await launchToEntry(dc, launchArgs(NESTED));
    assertError(await raw(dc, 'ndbReverseStep', { threadId: 1, kind: 'sideways' }), 1003, /kind/);
  });

  it('setVariable is refused: a recording cannot be changed (3003)', async () => {
    await dc.hitBreakpoint(launchArgs(NESTED), { path: program(NESTED), line: 7 });
    const st = await dc.stackTraceRequest({ threadId: 1 });
    const sc = await dc.scopesRequest({ frameId: st.body.stackFrames[0].id });
    const ref = sc.body.scopes.find((s) => s.name === 'Locals')!.variablesReference;
    const resp = await raw(dc, 'setVariable', { variablesReference: ref, name: 'qty', value: '4' });
    assertError(resp, 3003, /replays a real execution/);
    assert.strictEqual((await locals(dc)).qty, '3', 'the value is unchanged');
  });

  it('continues to the end: exited 0, terminated', async () => {
    await launchToEntry(dc, launchArgs('count.py'));
    const [, exited, terminated] = await Promise.all([
      dc.continueRequest({ threadId: 1 }),
      dc.waitForEvent('exited'),
      dc.waitForEvent('terminated'),
    ]);
    assert.strictEqual((exited as DebugProtocol.ExitedEvent).body.exitCode, 0);
    assert.ok(terminated);
    assert.deepStrictEqual(await where(dc), [], 'the stack is empty once the program ended');
    assertError(await raw(dc, 'next', { threadId: 1 }), 3001);
  });

  it('after the end, reverse steps walk back into the execution', async () => {
    await launchToEntry(dc, launchArgs('count.py'));
    await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent('terminated')]);
    await step(dc, () => dc.stepBackRequest({ threadId: 1 }));
    const stack = await where(dc);
    assert.strictEqual(stack.length, 1);
    assert.match(stack[0], /^count:6$/);
    assert.strictEqual((await scopes(dc))['Return value']?.['(return)']?.value, '2');
  });

  it('a whole script: its stdout, exit code 0', async () => {
    const out = collectOutput(dc);
    assert.strictEqual(entryOf('script.py'), undefined, 'script.py runs as a whole script');
    const [, , exited] = await Promise.all([
      dc.configurationSequence(),
      dc.launch(launchArgs('script.py')),
      dc.waitForEvent('exited'),
      dc.waitForEvent('terminated'),
    ]);
    assert.strictEqual((exited as DebugProtocol.ExitedEvent).body.exitCode, 0);
    assert.strictEqual(out.stdout, 'total 14\n');
  });

  it('an uncaught exception: stopped (exception), exceptionInfo, exit code 1', async () => {
    const out = collectOutput(dc);
    await dc.launch(launchArgs('exception_uncaught.py'));
    await dc.setExceptionBreakpointsRequest({ filters: ['uncaught'] });
    const [, ev] = await Promise.all([dc.configurationDoneRequest(), dc.waitForEvent('stopped')]);
    assert.strictEqual(ev.body.reason, 'exception');
    assert.match(ev.body.text ?? '', /KeyError/);
    // the exception that ends the program: where it leaves the entry call
    assert.deepStrictEqual(await where(dc), ['lookup:8']);
    const info = await dc.exceptionInfoRequest({ threadId: 1 });
    assert.strictEqual(info.body.exceptionId, 'KeyError');
    assert.strictEqual(info.body.breakMode, 'unhandled');
    const [, exited] = await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent('exited')]);
    assert.strictEqual((exited as DebugProtocol.ExitedEvent).body.exitCode, 1);
    assert.match(out.stderr ?? '', /uncaught exception: KeyError\('c'\)/);
  });

  it('a program that does not terminate: exit code 124', async () => {
    const out = collectOutput(dc);
    const exited = dc.waitForEvent('exited');
    await Promise.all([dc.configurationSequence(), dc.launch(launchArgs('forever.py'))]);
    assert.strictEqual(((await exited) as DebugProtocol.ExitedEvent).body.exitCode, 124);
    assert.match(out.console ?? '', /not to terminate/);
  });
});

describe('recorded mode: launch errors', function () {
  let dc: DebugClient;
  let tmp: string;
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ndb-vscode-test-')); });
  after(() => { fs.rmSync(tmp, { recursive: true, force: true }); });
  beforeEach(async () => { dc = await startClient(); await dc.initializeRequest(); });
  afterEach(async () => { await dc.stop(); });

  it('a program that does not exist (2001)', async () => {
    assertError(await raw(dc, 'launch', { program: program('no_such_program.py') }), 2001, /no such file/);
  });

  it('a file with a syntax error (2002)', async () => {
    const bad = path.join(tmp, 'broken.py');
    fs.writeFileSync(bad, 'def f(:\n    return 1\n');
    assertError(await raw(dc, 'launch', { program: bad }), 2002, /syntax error/);
  });

  it('an unknown mode (2001)', async () => {
    assertError(await raw(dc, 'launch', { program: program('count.py'), mode: 'fast' }), 2001, /mode/);
  });

  it('an entry that names nothing (2002)', async () => {
    assertError(await raw(dc, 'launch', { program: program('count.py'), entry: 'nothere(1)' }), 2002, /nothere/);
  });

  it('an ill-typed argument (2001)', async () => {
    assertError(await raw(dc, 'launch', { program: program('count.py'), maxSteps: 'ten' }), 2001, /maxSteps/);
  });

  it('stepping before a launch (1004)', async () => {
    assertError(await raw(dc, 'next', { threadId: 1 }), 1004);
  });
});
