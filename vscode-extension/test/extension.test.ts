// The extension's code against a stub of the vscode module (no VS Code needed): the
// configuration provider, the adapter factory and the reverse-step commands.
import * as assert from 'assert';
import Module = require('module');

type Fn = (...args: unknown[]) => unknown;

const calls = { errors: [] as string[], warnings: [] as string[], requests: [] as [string, unknown][] };
const commands = new Map<string, Fn>();
const state: { editor: unknown; session: unknown; ndbPath: string } = { editor: undefined, session: undefined, ndbPath: '' };

class DebugAdapterExecutable {
  constructor(public command: string, public args: string[]) {}
}

const vscodeStub = {
  window: {
    get activeTextEditor() { return state.editor; },
    showErrorMessage: (m: string) => { calls.errors.push(m); return Promise.resolve(undefined); },
    showWarningMessage: (m: string) => { calls.warnings.push(m); return Promise.resolve(undefined); },
  },
  debug: {
    get activeDebugSession() { return state.session; },
    registerDebugConfigurationProvider: () => ({ dispose() {} }),
    registerDebugAdapterDescriptorFactory: () => ({ dispose() {} }),
  },
  commands: {
    registerCommand: (id: string, fn: Fn) => { commands.set(id, fn); return { dispose() {} }; },
  },
  workspace: {
    getConfiguration: () => ({ get: (_k: string, d: string) => state.ndbPath || d }),
  },
  DebugAdapterExecutable,
};

// Resolve `require('vscode')` to the stub.
const M = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
const realLoad = M._load;
M._load = function (req: string, ...rest: unknown[]) {
  return req === 'vscode' ? vscodeStub : realLoad.call(this, req, ...rest);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ext = require('../src/extension') as typeof import('../src/extension');
M._load = realLoad;

const pyEditor = (fsPath: string, languageId = 'python', isUntitled = false) => ({ document: { uri: { fsPath }, languageId, isUntitled } });

describe('extension (vscode stubbed)', function () {
  before(() => {
    ext.activate({ subscriptions: [], extensionPath: '/nonexistent-ext' } as never);
  });
  beforeEach(() => {
    calls.errors = []; calls.warnings = []; calls.requests = [];
    state.editor = undefined; state.session = undefined; state.ndbPath = '';
  });

  it('fills program from the active Python editor', async () => {
    state.editor = pyEditor('/w/a.py');
    const p = new ext.NdbConfigurationProvider();
    const cfg = await p.resolveDebugConfiguration(undefined, { type: 'ndb', request: 'launch', name: 'x', mode: 'recorded' });
    assert.strictEqual(cfg!.program, '/w/a.py');
    assert.strictEqual(cfg!.mode, 'recorded');
  });

  it('debugs the active file in recorded mode with no launch.json', async () => {
    state.editor = pyEditor('/w/b.py');
    const cfg = await new ext.NdbConfigurationProvider().resolveDebugConfiguration(undefined, {} as never);
    assert.deepStrictEqual(
      { type: cfg!.type, request: cfg!.request, mode: cfg!.mode, program: cfg!.program, stopOnEntry: cfg!.stopOnEntry },
      { type: 'ndb', request: 'launch', mode: 'recorded', program: '/w/b.py', stopOnEntry: true },
    );
  });

  it('keeps a given program', async () => {
    const cfg = await new ext.NdbConfigurationProvider().resolveDebugConfiguration(undefined, { type: 'ndb', request: 'launch', name: 'x', program: '/w/c.py' });
    assert.strictEqual(cfg!.program, '/w/c.py');
    assert.deepStrictEqual(calls.errors, []);
  });

  it('refuses with a clear message when there is no Python file', async () => {
    for (const editor of [undefined, pyEditor('/w/notes.txt', 'plaintext'), pyEditor('Untitled-1', 'python', true)]) {
      state.editor = editor;
      calls.errors = [];
      const cfg = await new ext.NdbConfigurationProvider().resolveDebugConfiguration(undefined, { type: 'ndb', request: 'launch', name: 'x' });
      assert.strictEqual(cfg, undefined);
      assert.strictEqual(calls.errors.length, 1);
      assert.match(calls.errors[0], /no Python file to debug/);
    }
  });

  it('starts `ndb dap`: the ndb.path setting, else ndb on PATH', () => {
    const f = new ext.NdbAdapterFactory({ extensionPath: '/nonexistent-ext' } as never);
    let d = f.createDebugAdapterDescriptor() as unknown as DebugAdapterExecutable;
    assert.deepStrictEqual([d.command, d.args], ['ndb', ['dap']]);
    state.ndbPath = '/opt/ndb';
    d = f.createDebugAdapterDescriptor() as unknown as DebugAdapterExecutable;
    assert.deepStrictEqual([d.command, d.args], ['/opt/ndb', ['dap']]);
  });

  it('the commands send ndbReverseStep with the thread and the kind', async () => {
    state.session = {
      id: 's1', type: 'ndb',
      customRequest: (cmd: string, args: unknown) => { calls.requests.push([cmd, args]); return Promise.resolve({}); },
    };
    await commands.get('ndb.stepBackInto')!();
    await commands.get('ndb.stepBackOver')!();
    await commands.get('ndb.reverseToCall')!();
    assert.deepStrictEqual(calls.requests, [
      ['ndbReverseStep', { threadId: 1, kind: 'into' }],
      ['ndbReverseStep', { threadId: 1, kind: 'over' }],
      ['ndbReverseStep', { threadId: 1, kind: 'call' }],
    ]);
  });

  it('the commands warn without an ndb session and show a failed request', async () => {
    await commands.get('ndb.stepBackInto')!();
    assert.match(calls.warnings[0], /no active ndb debug session/);
    state.session = { id: 's2', type: 'ndb', customRequest: () => Promise.reject(new Error('the program is running: pause it first')) };
    await commands.get('ndb.reverseToCall')!();
    assert.match(calls.errors[0], /reverse step failed: the program is running/);
  });
});
