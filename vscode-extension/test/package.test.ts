// The extension's manifest and the binary lookup: no VS Code needed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveInferPath, resolveNdbPath } from '../src/ndbPath';
import { EXT_DIR } from './helpers';

const pkg = JSON.parse(fs.readFileSync(path.join(EXT_DIR, 'package.json'), 'utf8'));
const dbg = pkg.contributes.debuggers.find((d: { type: string }) => d.type === 'ndb');

describe('package.json', function () {
  it('contributes the ndb debugger for Python, with breakpoints', () => {
    assert.ok(dbg, 'a debugger of type ndb');
    assert.strictEqual(dbg.label, 'Python (neural debugger)');
    assert.deepStrictEqual(dbg.languages, ['python']);
    assert.ok(pkg.contributes.breakpoints.some((b: { language: string }) => b.language === 'python'));
  });

  it('documents every launch attribute with its type and default', () => {
    const props = dbg.configurationAttributes.launch.properties;
    for (const name of ['program', 'entry', 'mode', 'model', 'modelServer', 'temperature', 'seed', 'stopOnEntry', 'maxSteps', 'minConfidence']) {
      const p = props[name];
      assert.ok(p, `attribute ${name}`);
      assert.ok(p.type, `${name}: type`);
      assert.ok('default' in p, `${name}: default`);
      assert.ok(typeof p.description === 'string' && p.description.length > 10, `${name}: description`);
    }
    assert.deepStrictEqual(props.mode.enum, ['recorded', 'neural', 'compare']);
    assert.strictEqual(props.mode.default, 'recorded');
    assert.strictEqual(props.maxSteps.default, 10000);
    assert.deepStrictEqual(dbg.configurationAttributes.launch.required, ['program']);
  });

  it('has an initial configuration and a snippet for each mode', () => {
    for (const mode of ['recorded', 'neural', 'compare']) {
      assert.ok(dbg.initialConfigurations.some((c: { mode: string }) => c.mode === mode), `initial: ${mode}`);
      assert.ok(dbg.configurationSnippets.some((s: { body: { mode: string } }) => s.body.mode === mode), `snippet: ${mode}`);
    }
  });

  it('puts the reverse-step commands in the debug toolbar and the palette', () => {
    const titles = Object.fromEntries(pkg.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]));
    assert.deepStrictEqual(titles, {
      'ndb.stepBackInto': 'Step Back Into',
      'ndb.stepBackOver': 'Step Back Over',
      'ndb.reverseToCall': 'Reverse to Call (predict inputs)',
    });
    for (const menu of ['debug/toolBar', 'commandPalette']) {
      const ids = pkg.contributes.menus[menu].map((m: { command: string }) => m.command).sort();
      assert.deepStrictEqual(ids, Object.keys(titles).sort(), menu);
    }
  });

  it('uses only menu ids VS Code knows (case matters: debug/toolBar)', () => {
    // VS Code ignores a menu it does not know, silently: debug/toolbar shows nothing.
    const known = ['debug/toolBar', 'commandPalette', 'debug/callstack/context', 'debug/variables/context', 'editor/title'];
    for (const menu of Object.keys(pkg.contributes.menus)) {
      assert.ok(known.includes(menu), `menu ${menu} is not one of VS Code's menu ids`);
    }
  });

  it('leaves "model" out of the templates, so that the bundled model is used', () => {
    // A template naming a checkpoint that is not there fails every launch from it.
    for (const c of dbg.initialConfigurations) assert.ok(!('model' in c), `initial configuration ${c.name}`);
    for (const s of dbg.configurationSnippets) assert.ok(!('model' in s.body), `snippet ${s.label}`);
    assert.ok(!JSON.stringify(dbg.configurationSnippets).includes('needs a model'));
  });

  it('activates on debugging and has the ndb.path setting', () => {
    assert.ok(pkg.activationEvents.includes('onDebugResolve:ndb'));
    assert.strictEqual(pkg.contributes.configuration.properties['ndb.path'].type, 'string');
  });
});

describe('resolveNdbPath', function () {
  let dir: string;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndb-ext-')); });
  after(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  it('prefers the ndb.path setting', () => {
    assert.strictEqual(resolveNdbPath(' /opt/ndb/bin/ndb ', dir), '/opt/ndb/bin/ndb');
  });

  it('falls back to ndb on PATH when nothing is shipped', () => {
    assert.strictEqual(resolveNdbPath('', dir), 'ndb');
    assert.strictEqual(resolveNdbPath(undefined, dir), 'ndb');
  });

  it('uses the binary shipped in the extension (bin/ndb, bin/ndb.exe on Windows)', () => {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'ndb'), '');
    assert.strictEqual(resolveNdbPath('', dir, 'linux'), path.join(dir, 'bin', 'ndb'));
    assert.strictEqual(resolveNdbPath('', dir, 'win32'), 'ndb');
    assert.ok(fs.statSync(path.join(dir, 'bin', 'ndb')).mode & 0o100, 'made executable');
  });
});

describe('resolveInferPath', function () {
  let dir: string;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ndb-ext-')); });
  after(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  it('prefers the ndb.inferPath setting', () => {
    assert.strictEqual(resolveInferPath(' /opt/ndb/bin/ndb-infer ', dir), '/opt/ndb/bin/ndb-infer');
  });

  it('leaves the search to ndb when nothing is shipped', () => {
    assert.strictEqual(resolveInferPath('', dir), undefined);
  });

  it('uses the model server shipped in the extension (bin/ndb-infer)', () => {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(path.join(dir, 'bin', 'ndb-infer'), '');
    assert.strictEqual(resolveInferPath('', dir, 'linux'), path.join(dir, 'bin', 'ndb-infer'));
    assert.strictEqual(resolveInferPath('', dir, 'win32'), undefined);
  });
});
