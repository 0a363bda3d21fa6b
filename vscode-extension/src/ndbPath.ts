// Where the `ndb` binary is: kept free of the vscode module so that tests can load it.
import * as fs from 'fs';
import * as path from 'path';

/**
 * The binary to run for `ndb dap`: the `ndb.path` setting when set, else the binary
 * shipped inside the extension (bin/ndb, bin/ndb.exe on Windows), else `ndb` on PATH.
 */
export function resolveNdbPath(
  setting: string | undefined,
  extensionPath: string,
  platform: NodeJS.Platform = process.platform,
): string {
  if (setting && setting.trim() !== '') {
    return setting.trim();
  }
  const shipped = path.join(extensionPath, 'bin', platform === 'win32' ? 'ndb.exe' : 'ndb');
  if (fs.existsSync(shipped)) {
    if (platform !== 'win32') ensureExecutable(shipped);
    return shipped;
  }
  return 'ndb';
}

/**
 * The model server for neural and compare sessions, passed to `ndb dap` as NDB_INFER:
 * the `ndb.inferPath` setting when set, else the ndb-infer shipped beside the
 * extension's ndb (bin/ndb-infer), else undefined: ndb then looks beside itself and
 * on PATH. ndb is pure Go; ndb-infer is the one binary that links libtorch.
 */
export function resolveInferPath(
  setting: string | undefined,
  extensionPath: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (setting && setting.trim() !== '') {
    return setting.trim();
  }
  const shipped = path.join(extensionPath, 'bin', platform === 'win32' ? 'ndb-infer.exe' : 'ndb-infer');
  if (fs.existsSync(shipped)) {
    if (platform !== 'win32') ensureExecutable(shipped);
    return shipped;
  }
  return undefined;
}

/** A .vsix may drop the executable bit of a shipped binary: put it back when it can. */
function ensureExecutable(file: string): void {
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(file, 0o755);
    } catch {
      // left as is: starting the adapter then fails with a clear spawn error
    }
  }
}
