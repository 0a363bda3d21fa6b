// @ts-check
// The workspace the test opens: copies of testdata programs and a launch.json whose
// neural and compare configurations are the extension's own templates, as shipped.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

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
  const pkg = JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
  const templates = pkg.contributes.debuggers[0].initialConfigurations.filter((c) => c.mode !== 'recorded');
  const launch = {
    version: '0.2.0',
    configurations: [
      { type: 'ndb', request: 'launch', name: RECORDED, program: '${workspaceFolder}/callchain.py', mode: 'recorded', stopOnEntry: true },
      ...templates,
    ],
  };
  fs.writeFileSync(path.join(dir, '.vscode', 'launch.json'), JSON.stringify(launch, null, 2));
  return dir;
}
