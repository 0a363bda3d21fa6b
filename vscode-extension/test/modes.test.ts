// Neural and compare mode sessions. They need the model: set NDB_MODEL to a checkpoint
// (with a build of ndb whose engine can load it). Without one, every launch in these
// modes fails with error 2003 and the suites are skipped with a message.
import * as assert from 'assert';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { DebugProtocol } from '@vscode/debugprotocol';
import { launchArgs, launchToEntry, locals, raw, scopes, startClient, step, where } from './helpers';

const MODEL = process.env.NDB_MODEL;

function modeArgs(mode: string, name: string): Record<string, unknown> {
  const extra: Record<string, unknown> = { mode, temperature: 0, seed: 0, maxSteps: 200 };
  if (MODEL) extra.model = MODEL;
  return launchArgs(name, extra);
}

/** Why this mode cannot be tested here, or undefined when a launch works. */
async function unavailable(mode: string): Promise<string | undefined> {
  const dc = await startClient();
  try {
    await dc.initializeRequest();
    const resp = await raw(dc, 'launch', modeArgs(mode, 'count.py'));
    if (resp.success) return undefined;
    const id = (resp.body as { error?: { id?: number } } | undefined)?.error?.id;
    if (id === 2003 || (!MODEL && id === 2001)) {
      return `${resp.message} (error ${id}); set NDB_MODEL=<checkpoint> to run these sessions`;
    }
    throw new Error(`${mode} launch failed unexpectedly: ${resp.message}`);
  } finally {
    await dc.stop();
  }
}

for (const mode of ['neural', 'compare']) {
  describe(`${mode} mode: a session`, function () {
    let dc: DebugClient;

    before(async function () {
      const why = await unavailable(mode);
      if (why) {
        console.log(`      skipped: ${mode} mode is not available: ${why}`);
        this.skip();
      }
    });
    beforeEach(async () => { dc = await startClient(); });
    afterEach(async () => { if (dc) await dc.stop(); });

    it('stops on entry at the call, with its inputs', async () => {
      await launchToEntry(dc, modeArgs(mode, 'count.py'));
      assert.deepStrictEqual(await where(dc), ['count:1']);
      const l = await locals(dc);
      assert.strictEqual(l.s, "'berry'");
      assert.strictEqual(l.t, "'r'");
      const th = await dc.threadsRequest();
      if (mode === 'compare') {
        assert.deepStrictEqual(th.body.threads.map((t) => [t.id, t.name]), [[1, 'predicted'], [2, 'recorded']]);
        assert.deepStrictEqual(await where(dc, 2), ['count:1']);
      } else {
        assert.deepStrictEqual(th.body.threads.map((t) => t.id), [1]);
      }
    });

    it('steps in, over and out, steps back and reverses to the call', async () => {
      await launchToEntry(dc, modeArgs(mode, 'count.py'));
      for (const send of [
        () => dc.stepInRequest({ threadId: 1 }),
        () => dc.nextRequest({ threadId: 1 }),
        () => dc.nextRequest({ threadId: 1 }),
      ]) {
        await step(dc, send);
        const stack = await where(dc);
        if (stack.length > 0) assert.match(stack[0], /^count:\d+$/);
      }
      await step(dc, () => dc.stepBackRequest({ threadId: 1 }));
      await step(dc, () => dc.customRequest('ndbReverseStep', { threadId: 1, kind: 'call' }));
      assert.deepStrictEqual(await where(dc), ['count:1']);
      await step(dc, () => dc.stepOutRequest({ threadId: 1 }));
      if (mode === 'compare') {
        const sc = await scopes(dc, undefined, 1);
        assert.ok('Differences' in sc, `the predicted thread has a Differences scope: ${Object.keys(sc)}`);
      }
    });

    it('sets a variable: later predictions are conditioned on it', async () => {
      await launchToEntry(dc, modeArgs(mode, 'count.py'));
      const st = await dc.stackTraceRequest({ threadId: 1 });
      const sc = await dc.scopesRequest({ frameId: st.body.stackFrames[0].id });
      const ref = sc.body.scopes.find((s) => s.name === 'Locals')!.variablesReference;
      const resp = await dc.setVariableRequest({ variablesReference: ref, name: 't', value: "'b'" });
      assert.strictEqual(resp.body.value, "'b'");
      assert.strictEqual((await locals(dc)).t, "'b'");
    });

    it('continues to the end: exited, terminated', async () => {
      await launchToEntry(dc, modeArgs(mode, 'count.py'));
      const [, exited] = await Promise.all([
        dc.continueRequest({ threadId: 1 }),
        dc.waitForEvent('exited'),
        dc.waitForEvent('terminated'),
      ]);
      assert.ok([0, 1, 124].includes((exited as DebugProtocol.ExitedEvent).body.exitCode));
    });
  });
}
