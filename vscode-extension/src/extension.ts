// The ndb extension: a debugger of type "ndb" for Python files, served by `ndb dap`.
import * as vscode from 'vscode';
import { resolveInferPath, resolveNdbPath } from './ndbPath';

export { resolveInferPath, resolveNdbPath };

export const DEBUG_TYPE = 'ndb';

/** The kinds of ndb's custom `ndbReverseStep` request (docs/dap.md). */
export type ReverseKind = 'into' | 'over' | 'call';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new NdbConfigurationProvider()),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new NdbAdapterFactory(context)),
    vscode.commands.registerCommand('ndb.stepBackInto', () => reverseStep('into')),
    vscode.commands.registerCommand('ndb.stepBackOver', () => reverseStep('over')),
    vscode.commands.registerCommand('ndb.reverseToCall', () => reverseStep('call')),
  );
}

export function deactivate(): void {}

/**
 * Fills in a launch configuration: with no launch.json (an empty configuration) it
 * debugs the active Python file in recorded mode; a configuration without `program`
 * gets the active Python file; with no Python editor open it refuses with a message.
 */
export class NdbConfigurationProvider implements vscode.DebugConfigurationProvider {
  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    if (!config.type && !config.request && !config.name) {
      config.type = DEBUG_TYPE;
      config.request = 'launch';
      config.name = 'ndb: recorded (current file)';
      config.mode = 'recorded';
      config.stopOnEntry = true;
    }
    if (!config.program) {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.languageId !== 'python' || editor.document.isUntitled) {
        void vscode.window.showErrorMessage(
          'ndb: no Python file to debug. Open a saved Python file, or set "program" in the launch configuration.',
        );
        return undefined; // aborts the launch
      }
      config.program = editor.document.uri.fsPath;
    }
    return config;
  }
}

/** Starts `ndb dap` on stdio for each debug session (with the model server it finds). */
export class NdbAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly context: vscode.ExtensionContext) {}

  createDebugAdapterDescriptor(): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    const settings = vscode.workspace.getConfiguration('ndb');
    const ndb = resolveNdbPath(settings.get<string>('path', ''), this.context.extensionPath);
    const infer = resolveInferPath(settings.get<string>('inferPath', ''), this.context.extensionPath);
    // The environment given is merged with the extension host's.
    return new vscode.DebugAdapterExecutable(ndb, ['dap'], infer ? { env: { NDB_INFER: infer } } : undefined);
  }
}

/** Sends ndb's custom reverse-step request on the active ndb session. */
async function reverseStep(kind: ReverseKind): Promise<void> {
  const session = vscode.debug.activeDebugSession;
  if (!session || session.type !== DEBUG_TYPE) {
    void vscode.window.showWarningMessage('ndb: no active ndb debug session.');
    return;
  }
  const threadId = activeThreadId(session) ?? 1;
  try {
    await session.customRequest('ndbReverseStep', { threadId, kind });
  } catch (err) {
    void vscode.window.showErrorMessage(`ndb: reverse step failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The thread focused in the Call Stack view, when it belongs to this session. */
function activeThreadId(session: vscode.DebugSession): number | undefined {
  // activeStackItem appeared in VS Code 1.90; read it loosely to keep the 1.80 engine.
  const item = (vscode.debug as unknown as { activeStackItem?: { session: vscode.DebugSession; threadId: number } })
    .activeStackItem;
  if (item && item.session && item.session.id === session.id && typeof item.threadId === 'number') {
    return item.threadId;
  }
  return undefined;
}
