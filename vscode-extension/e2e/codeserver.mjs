// @ts-check
// A code-server of its own for the end-to-end test: every folder it writes (config,
// user data, extensions, logs) is under the test's build folder, it listens on
// 127.0.0.1 only, with no auth, no telemetry and no update check.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * @typedef {object} CodeServer
 * @property {string} url         the workbench of the workspace folder
 * @property {string} userData    the user-data folder (logs under logs/)
 * @property {() => string} log   code-server's own output so far
 * @property {() => Promise<void>} stop
 */

/** A free TCP port on 127.0.0.1. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/**
 * Installs the .vsix into a fresh extensions folder and writes the user settings.
 * @param {{node: string, entry: string, dir: string, vsix: string, settings: object}} o
 */
export function install(o) {
  for (const sub of ['user-data', 'extensions']) fs.rmSync(path.join(o.dir, sub), { recursive: true, force: true });
  const userData = path.join(o.dir, 'user-data');
  const extensions = path.join(o.dir, 'extensions');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(o.settings, null, 2));
  const r = spawnSync(o.node, [o.entry, '--install-extension', o.vsix, '--extensions-dir', extensions,
    '--user-data-dir', userData, '--config', writeConfig(o.dir, 0)], { encoding: 'utf8', env: nodeEnv(o.node) });
  if (r.status !== 0) {
    throw new Error(`code-server --install-extension ${o.vsix} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return { userData, extensions };
}

/** code-server's config file (without one it writes ~/.config/code-server). */
function writeConfig(dir, port) {
  const file = path.join(dir, 'config.yaml');
  fs.writeFileSync(file, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  return file;
}

/** PATH with Node 24 first: code-server and the extension host run on it. */
function nodeEnv(node) {
  return { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` };
}

/**
 * Starts code-server on a free port and waits until it answers.
 * @param {{node: string, entry: string, dir: string, userData: string, extensions: string, workspace: string}} o
 * @returns {Promise<CodeServer>}
 */
export async function start(o) {
  const port = await freePort();
  const config = writeConfig(o.dir, port);
  const args = [o.entry, '--config', config, '--user-data-dir', o.userData, '--extensions-dir', o.extensions,
    '--disable-telemetry', '--disable-workspace-trust', '--disable-update-check', '--disable-getting-started-override',
    '--ignore-last-opened', o.workspace];
  const child = spawn(o.node, args, { env: nodeEnv(o.node), stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`code-server did not answer on ${base} within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url: `${base}/?folder=${encodeURIComponent(o.workspace)}`,
    userData: o.userData,
    log: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => { child.once('exit', r); setTimeout(r, 5000); });
    },
  };
}

/** The newest extension host log under a user-data folder, or '' when there is none. */
export function extensionHostLog(userData) {
  const found = [];
  const walk = (dir) => {
    let entries = [];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^exthost.*\.log$/.test(e.name) || (p.includes(`${path.sep}exthost`) && e.name.endsWith('.log'))) found.push(p);
    }
  };
  walk(path.join(userData, 'logs'));
  found.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return found.slice(0, 3).map((f) => `--- ${f}\n${fs.readFileSync(f, 'utf8').slice(-6000)}`).join('\n');
}
