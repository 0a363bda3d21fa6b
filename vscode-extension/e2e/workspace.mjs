// @ts-check
// The workspace the test opens: copies of testdata programs and a launch.json whose
// neural and compare configurations are the extension's own templates, as shipped.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The extension's own launch templates (package.json's initialConfigurations). */
function templates() {
  const pkg = JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
  return pkg.contributes.debuggers[0].initialConfigurations;
}

/** The template of that name, as shipped. */
export function templateNamed(name) {
  const t = templates().find((c) => c.name === name);
  if (!t) throw new Error(`no launch template named ${name} in package.json`);
  return t;
}

/** Rewrites the workspace's launch.json with these configurations. */
export function setLaunchConfigurations(dir, configurations) {
  fs.writeFileSync(path.join(dir, '.vscode', 'launch.json'), JSON.stringify({ version: '0.2.0', configurations }, null, 2));
}

/** The recorded configuration F5 starts (the first one). */
export const RECORDED = 'ndb: recorded callchain.py';

/**
 * Writes the workspace folder afresh and returns its path.
 * @param {string} dir
 * @param {string} programs testdata/programs
 */
export function prepareWorkspace(dir, programs) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  for (const f of ['callchain.py', 'count.py']) fs.copyFileSync(path.join(programs, f), path.join(dir, f));
  setLaunchConfigurations(dir, [
    { type: 'ndb', request: 'launch', name: RECORDED, program: '${workspaceFolder}/callchain.py', mode: 'recorded', stopOnEntry: true },
    ...templates().filter((c) => c.mode !== 'recorded'),
  ]);
  return dir;
}
