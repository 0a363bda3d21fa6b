// @ts-check
// What a user does and sees, scenario by scenario. callchain.py: <module> (line 16)
// calls main (line 11), which calls count (the breakpoint on line 5).
import { StepError } from './ui.mjs';
import { RECORDED, setLaunchConfigurations, templateNamed } from './workspace.mjs';

const STACK = '.debug-call-stack';
const VARS = '.debug-variables';

/** A frame row's text as the Call Stack shows it: name, file, line:column. */
const frameRe = (fn, line) => new RegExp(`^${fn.replace(/[<>]/g, '\\$&')}\\s*callchain\\.py\\s*${line}:\\d+`);

/** The rows of the Call Stack that are frames of callchain.py, as "name line". */
async function frames(ui) {
  const rows = await ui.rows(STACK);
  return rows.map((t) => /^(\S+?)\s*callchain\.py\s*(\d+):\d+/.exec(t)).filter(Boolean).map((m) => `${m[1]} ${m[2]}`);
}

/**
 * Waits for a stop at fn:line (the Call Stack's top frame and the editor's yellow
 * line), then checks that Locals is open and no stray "Load More Stack Frames" link is
 * under the stack, and saves a screenshot.
 */
async function stoppedAt(ui, fn, line, shot, timeoutMs) {
  await ui.until(`a stop in ${fn} at line ${line}`, (src) => {
    const rows = [...document.querySelectorAll('.debug-call-stack .monaco-list-row')].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim());
    const top = rows.find((t) => /callchain\.py\s*\d+:\d+/.test(t)) || '';
    return new RegExp(src).test(top) && document.querySelector('.debug-top-stack-frame-line') ? rows : null;
  }, [frameRe(fn, line).source], timeoutMs);
  await localsOpen(ui);
  await noLoadMore(ui);
  if (shot) await ui.shot(shot);
}

/** The Locals scope is the first scope, and it is open. */
async function localsOpen(ui) {
  await ui.until('the Locals scope, open', () => {
    const first = document.querySelector('.debug-variables .monaco-list-row');
    return first && /^Locals/.test((first.textContent || '').trim()) && first.getAttribute('aria-expanded') === 'true';
  });
}

/**
 * No "Load More Stack Frames" row under the stack once the whole stack is loaded. VS Code
 * shows the top frame with the link at once and loads the rest 420 ms later; with frame
 * ids reused across stops it never redrew a stack of unchanged depth, and the link stayed.
 */
async function noLoadMore(ui) {
  await ui.until('no "Load More Stack Frames" link under the stack (the whole stack loaded)', () => {
    const rows = [...document.querySelectorAll('.debug-call-stack .monaco-list-row')].map((r) => (r.textContent || '').trim());
    return rows.length > 0 && !rows.some((t) => /Load More Stack Frames/i.test(t));
  }, [], 10000);
}

/** The Call Stack shows exactly these frames of callchain.py, innermost first. */
async function stackIs(ui, want) {
  await ui.until(`the call stack ${want.join(', ')}`, (src) => {
    const rows = [...document.querySelectorAll('.debug-call-stack .monaco-list-row')].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim());
    const got = rows.map((t) => /^(\S+?)\s*callchain\.py\s*(\d+):\d+/.exec(t)).filter(Boolean).map((m) => `${m[1]} ${m[2]}`);
    return got.join(',') === src ? got : null;
  }, [want.join(',')]);
  await noLoadMore(ui);
}

/** The Variables pane shows name with value (waits for it). */
async function variableIs(ui, name, value) {
  await ui.untilRow(`the variable ${name} = ${value}`, VARS, new RegExp(`^${name}\\s*[:=]?\\s*${value.replace(/[()[\]'.*+?]/g, '\\$&')}$`));
}

/** Opens a file of the workspace from the explorer and puts the cursor in it. */
async function openFile(ui, name) {
  ui.begin(`open ${name}`);
  await ui.command('View: Show Explorer');
  await ui.until(`${name} in the explorer`, (n) => {
    const row = [...document.querySelectorAll('.explorer-folders-view .monaco-list-row')].find((r) => (r.textContent || '').trim() === n);
    if (!row) return false;
    /** @type {HTMLElement} */ (row).click();
    return true;
  }, [name]);
  await ui.until(`the editor of ${name}`, (n) => {
    const tab = document.querySelector('.tabs-container .tab.active');
    return tab && (tab.textContent || '').includes(n) && document.querySelector('.monaco-editor .view-lines');
  }, [name]);
  await ui.page.click('.monaco-editor .view-lines');
}

/** Shows the Run and Debug view (Call Stack, Variables). */
async function showRunView(ui) {
  ui.begin('show the Run and Debug view');
  await ui.command('View: Show Run and Debug');
  await ui.until('the Run and Debug view', () => !!document.querySelector('.debug-call-stack, .debug-variables, .debug-viewlet, .debug-start-view'));
}

/** Ends the session (Shift+F5) and waits until the debug toolbar is gone. */
async function stopDebugging(ui) {
  ui.begin('stop debugging');
  await ui.press('Shift+F5');
  await ui.until('the end of the session', () => !document.querySelector('.debug-toolbar') || getComputedStyle(document.querySelector('.debug-toolbar')).display === 'none' || !document.querySelector('.debug-top-stack-frame-line'));
}

async function recorded(ui) {
  await openFile(ui, 'callchain.py');
  ui.begin('set a breakpoint on line 5 (F9)');
  await ui.command('Go to Line/Column');
  await ui.page.keyboard.type('5');
  await ui.press('Enter');
  await ui.until('the cursor on line 5 of a focused editor', () => !!document.querySelector('.monaco-editor.focused') &&
    /Ln 5,/.test(document.querySelector('.statusbar')?.textContent || ''));
  for (let tries = 1; ; tries++) {
    await ui.press('F9');
    try {
      await ui.until('the breakpoint glyph', () => !!document.querySelector('.codicon-debug-breakpoint'), [], 5000);
      break;
    } catch (e) {
      if (tries === 3) throw e; // F9 came before the editor took it: again
    }
  }

  await showRunView(ui);
  ui.begin(`F5 (${RECORDED}): stop on entry`);
  await ui.press('F5');
  await stoppedAt(ui, '<module>', 1, 'recorded-entry', 180000); // the first launch starts ndb and its tracer
  const errs = await ui.errors();
  if (errs.length) throw new StepError(ui.step, `error notifications: ${JSON.stringify(errs)}`);

  ui.begin('the debug toolbar has Step Back, Reverse and the three ndb buttons');
  const want = ['Step Back', 'Reverse', 'Step Back Into', 'Step Back Over', 'Reverse to Call (predict inputs)'];
  await ui.until(`the toolbar buttons ${want.join(', ')}`, (w) => {
    const labels = [...document.querySelectorAll('.debug-toolbar .action-label')].map((e) => e.getAttribute('aria-label') || '');
    return w.every((l) => labels.some((a) => a === l || a.startsWith(`${l} (`))) ? labels : null;
  }, [want]);

  ui.begin('F10: from the script\'s call state to its first line (still line 1)');
  await ui.press('F10');
  await ui.until('"Paused on step"', () => /Paused on step/i.test(document.querySelector('.debug-call-stack')?.closest('.pane')?.textContent || ''));
  await stoppedAt(ui, '<module>', 1);
  ui.begin('F10, F10: over the defs to the call of main');
  await ui.press('F10');
  await stoppedAt(ui, '<module>', 9);
  await ui.press('F10');
  await stoppedAt(ui, '<module>', 16);
  ui.begin('F11: into main');
  await ui.press('F11');
  await stoppedAt(ui, 'main', 9);
  await stackIs(ui, ['main 9', '<module> 16']);
  ui.begin('F10, F10: main\'s locals');
  await ui.press('F10');
  await stoppedAt(ui, 'main', 10);
  await ui.press('F10');
  await stoppedAt(ui, 'main', 11, 'recorded-step');
  await variableIs(ui, 'word', "'berry'");

  ui.begin('Continue (F5) to the breakpoint: the real call stack');
  await ui.press('F5');
  await stoppedAt(ui, 'count', 5);
  await stackIs(ui, ['count 5', 'main 11', '<module> 16']);
  await variableIs(ui, 'n', '0');
  await variableIs(ui, 'c', "'r'");
  await noErrors(ui);
  await ui.shot('recorded-breakpoint');

  ui.begin('the Debug Console evaluates c == t and len(s)');
  await ui.command('Debug Console: Focus on Debug Console View');
  await ui.until('the Debug Console input, focused', () => !!document.querySelector('.repl-input-wrapper .monaco-editor.focused'));
  await ui.page.keyboard.type('c == t');
  await ui.press('Enter');
  await ui.untilRow('True in the Debug Console', '.repl', /^True$/);
  await ui.page.keyboard.type('len(s)');
  await ui.press('Enter');
  await ui.untilRow('5 in the Debug Console', '.repl', /^5$/);
  await ui.shot('recorded-console');

  ui.begin('Continue to the second stop on line 5 (same depth)');
  await ui.press('F5');
  await variableIs(ui, 'n', '1');
  await stoppedAt(ui, 'count', 5);
  await stackIs(ui, ['count 5', 'main 11', '<module> 16']);

  ui.begin('Step Back: line 4');
  await ui.toolbar('Step Back');
  await stoppedAt(ui, 'count', 4);
  ui.begin('Reverse to Call (predict inputs): count\'s call, its inputs');
  await ui.toolbar('Reverse to Call (predict inputs)');
  await stoppedAt(ui, 'count', 1);
  await variableIs(ui, 's', "'berry'");
  await variableIs(ui, 't', "'r'");
  ui.begin('Step Back Over: main\'s line that made the call');
  await ui.toolbar('Step Back Over');
  await stoppedAt(ui, 'main', 11);
  await stackIs(ui, ['main 11', '<module> 16']);
  ui.begin('Step Back Into: main line 10');
  await ui.toolbar('Step Back Into');
  await stoppedAt(ui, 'main', 10);
  ui.begin('Reverse: no earlier breakpoint line, back to the entry');
  await ui.toolbar('Reverse');
  await stoppedAt(ui, '<module>', 1);
  ui.begin('Continue: the breakpoint again');
  await ui.press('F5');
  await stoppedAt(ui, 'count', 5);
  await variableIs(ui, 'n', '0');
  ui.begin('Reverse from the second stop: back to the first');
  await ui.press('F5');
  await variableIs(ui, 'n', '1');
  await ui.toolbar('Reverse');
  await variableIs(ui, 'n', '0');
  await stoppedAt(ui, 'count', 5, 'recorded-reverse');
  await noErrors(ui);
  await stopDebugging(ui);
}

/**
 * Presses a key that resumes and waits for the next stop on any line of the file,
 * when the line cannot be known in advance (the model's prediction): a running state
 * seen on the toolbar, or a different top frame, and then a stop.
 */
async function nextStop(ui, key) {
  const before = await ui.page.evaluate(() => {
    const top = [...document.querySelectorAll('.debug-call-stack .monaco-list-row')].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim())
      .find((t) => /\.py\s*\d+:\d+/.test(t)) || '';
    const w = /** @type {any} */ (window);
    w.__e2eRan = false;
    w.__e2eObserver?.disconnect();
    w.__e2eObserver = new MutationObserver(() => {
      if (document.querySelector('.debug-toolbar .codicon-debug-pause')) w.__e2eRan = true;
    });
    w.__e2eObserver.observe(document.body, { subtree: true, childList: true, attributes: true });
    return top;
  });
  await ui.press(key);
  return ui.until('the next stop on a line of the file', (prev) => {
    const w = /** @type {any} */ (window);
    const top = [...document.querySelectorAll('.debug-call-stack .monaco-list-row')].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim())
      .find((t) => /\.py\s*\d+:\d+/.test(t)) || '';
    const stopped = !document.querySelector('.debug-toolbar .codicon-debug-pause') && document.querySelector('.debug-top-stack-frame-line');
    return (w.__e2eRan || top !== prev) && stopped && top ? top : null;
  }, [before], 120000);
}

/** The line of the top frame row ("name file N:M"), checked against the file's lines. */
function lineOf(ui, top, nLines) {
  const m = /\.py\s*(\d+):\d+/.exec(top);
  const line = m ? Number(m[1]) : 0;
  if (line < 1 || line > nLines) throw new StepError(ui.step, `stopped at "${top}": not a line of the file (1-${nLines})`);
  return line;
}

/**
 * Starts one of the extension's own templates, as shipped: launch.json is rewritten to
 * hold only that configuration, VS Code selects it (the Run view shows its name), F5.
 */
async function startConfig(ui, workspace, name) {
  setLaunchConfigurations(workspace, [templateNamed(name)]);
  await ui.until(`"${name}" selected in the Run view`, (n) => (document.querySelector('.part.sidebar')?.innerHTML || '').includes(n), [name]);
  await ui.page.click('.monaco-editor .view-lines');
  await ui.press('F5');
}

async function noErrors(ui) {
  const errs = await ui.errors();
  if (errs.length) throw new StepError(ui.step, `error notifications or dialogs: ${JSON.stringify(errs)}`);
}

async function neural(ui, workspace) {
  await openFile(ui, 'callchain.py');
  await showRunView(ui);
  ui.begin('start "ndb: neural (current file)", the template as shipped: stop on entry, no error');
  await startConfig(ui, workspace, 'ndb: neural (current file)');
  const top = await ui.until('a stop on entry', () => {
    const rows = [...document.querySelectorAll('.debug-call-stack .monaco-list-row')].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim());
    const errors = [...document.querySelectorAll('.notification-toast .notification-list-item, .monaco-dialog-box')]
      .filter((e) => e.classList.contains('monaco-dialog-box') || e.querySelector('.codicon-error')).map((e) => e.textContent || '');
    if (errors.length) return `ERROR ${errors.join(' | ')}`;
    return document.querySelector('.debug-top-stack-frame-line') && rows.find((t) => /\.py\s*\d+:\d+/.test(t));
  }, [], 120000);
  if (top.startsWith('ERROR')) throw new StepError(ui.step, top);
  lineOf(ui, top, 16);
  await noErrors(ui);
  await localsOpen(ui);
  await ui.shot('neural-entry');
  for (let i = 1; i <= 3; i++) {
    ui.begin(`neural: F10 #${i} stops on a line of the file`);
    const at = await nextStop(ui, 'F10');
    lineOf(ui, at, 16);
    await noErrors(ui);
    await localsOpen(ui);
    await ui.shot(`neural-step${i}`);
  }
  await stopDebugging(ui);
}

async function compare(ui, workspace) {
  await openFile(ui, 'callchain.py');
  await showRunView(ui);
  ui.begin('start "ndb: compare (current file)": two threads');
  await startConfig(ui, workspace, 'ndb: compare (current file)');
  await ui.untilRow('the thread "recorded"', STACK, /^recorded/i, 120000);
  await ui.untilRow('the thread "predicted"', STACK, /^predicted/i);
  await noErrors(ui);
  ui.begin('compare: F10, then the Differences scope');
  await nextStop(ui, 'F10');
  await ui.untilRow('the Differences scope', VARS, /^Differences/);
  await localsOpen(ui);
  await ui.shot('compare');
  await stopDebugging(ui);
}

export const scenarios = [
  { name: 'recorded', run: recorded },
  { name: 'neural', run: neural },
  { name: 'compare', run: compare },
];
