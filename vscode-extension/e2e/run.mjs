// @ts-check
// The end-to-end test of the ndb extension in a real VS Code (docs/e2e.md): code-server
// with the .vsix installed into its own folders under build/, Chromium driven by
// puppeteer-core, recorded, neural and compare sessions as a user runs them.
//
// Environment (set by `make e2e`):
//   E2E_NODE         Node 24 (code-server's runtime)
//   E2E_CODE_SERVER  code-server's out/node/entry.js
//   E2E_VSIX         the packaged extension
//   E2E_NDB          the ndb binary (the ndb.path setting)
//   E2E_OUT          build/e2e: screenshots, logs, the workspace
//   E2E_CHROMIUM     the browser (default /usr/bin/chromium)
//   E2E_TIMEOUT_MS   the wait for one thing on the page (default 30000)
//   E2E_ONLY         a comma-separated subset of recorded,neural,compare
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import * as cs from './codeserver.mjs';
import { scenarios } from './scenarios.mjs';
import { UI, StepError } from './ui.mjs';
import { prepareWorkspace } from './workspace.mjs';

const env = (name, def) => {
  const v = process.env[name] ?? def;
  if (v === undefined) throw new Error(`${name} is not set (run: make e2e)`);
  return v;
};

const out = path.resolve(env('E2E_OUT'));
const shots = path.join(out, 'screenshots');
const node = env('E2E_NODE');
const entry = env('E2E_CODE_SERVER');
const timeoutMs = Number(env('E2E_TIMEOUT_MS', '30000'));
const only = (process.env.E2E_ONLY || '').split(',').filter(Boolean);
const t0 = Date.now();
const log = (s) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${s}`);

fs.rmSync(shots, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });
const workspace = prepareWorkspace(path.join(out, 'workspace'), env('E2E_PROGRAMS'));
const server = path.join(out, 'code-server');
fs.mkdirSync(server, { recursive: true });

log('installing the .vsix into build/e2e/code-server/extensions');
const dirs = cs.install({
  node, entry, dir: server, vsix: path.resolve(env('E2E_VSIX')),
  settings: {
    'ndb.path': path.resolve(env('E2E_NDB')),
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'files.hotExit': 'off',
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'window.restoreWindows': 'none',
    'editor.minimap.enabled': false,
    'debug.toolBarLocation': 'floating',
    'debug.openDebug': 'openOnDebugBreak',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'workbench.colorTheme': 'Default Light Modern',
  },
});
log('starting code-server');
const srv = await cs.start({ node, entry, dir: server, ...dirs, workspace });
log(`code-server at ${srv.url}`);

const browser = await puppeteer.launch({
  executablePath: env('E2E_CHROMIUM', '/usr/bin/chromium'),
  headless: true,
  userDataDir: path.join(out, 'chromium'),
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--window-size=1280,800'],
  env: { ...process.env, XDG_CONFIG_HOME: path.join(out, 'chromium', 'xdg'), XDG_CACHE_HOME: path.join(out, 'chromium', 'xdg-cache') },
  defaultViewport: { width: 1280, height: 800 },
});

let failed = false;
try {
  const page = await browser.newPage();
  page.setDefaultNavigationTimeout(180000);
  const ui = new UI(page, { shots, timeoutMs, log });
  const all = [{ name: 'workbench', run: openWorkbench }, ...scenarios.filter((s) => !only.length || only.includes(s.name))];
  for (const s of all) {
    const started = Date.now();
    log(`scenario ${s.name}`);
    try {
      await s.run(ui, workspace);
      log(`scenario ${s.name}: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed = true;
      const name = e instanceof StepError ? e.step : ui.step;
      console.error(`\nFAIL scenario ${s.name}, step "${name}": ${e instanceof Error ? e.message : e}`);
      try { console.error(`screenshot: ${await ui.shot(`FAIL-${s.name}`)}`); } catch { /* the page is gone */ }
      console.error(`\n--- page text ---\n${(await ui.text()).slice(0, 6000)}`);
      console.error(`\n--- extension host log ---\n${cs.extensionHostLog(dirs.userData) || '(none found)'}`);
      console.error(`\n--- code-server ---\n${srv.log().slice(-3000)}`);
      break;
    }
  }
} finally {
  await browser.close();
  await srv.stop();
}
/** Opens the workbench on the workspace and waits for the explorer. @param {UI} ui */
async function openWorkbench(ui) {
  ui.begin('open the workbench');
  await ui.page.goto(srv.url, { waitUntil: 'domcontentloaded' });
  await ui.until('the workbench', () => !!document.querySelector('.monaco-workbench'), [], 180000);
  await ui.until('the explorer', () => [...document.querySelectorAll('.explorer-folders-view .monaco-list-row')].length > 0, [], 120000);
}

log(failed ? 'FAILED' : `passed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
