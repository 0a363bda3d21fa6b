// @ts-check
// Driving VS Code's workbench in the page: every wait is on what the page shows (text
// in a view, an element appearing), retried until a deadline, never a fixed sleep;
// every step has a name that a failure reports.
import fs from 'node:fs';
import path from 'node:path';

/** A step that failed: its name and what the page showed. */
export class StepError extends Error {
  /** @param {string} step @param {string} why */
  constructor(step, why) {
    super(`step "${step}" failed: ${why}`);
    this.step = step;
  }
}

export class UI {
  /**
   * @param {import('puppeteer-core').Page} page
   * @param {{shots: string, timeoutMs: number, log: (s: string) => void}} o
   */
  constructor(page, o) {
    this.page = page;
    this.shots = o.shots;
    this.timeoutMs = o.timeoutMs;
    this.log = o.log;
    this.shotN = 0;
    /** @type {string} */
    this.step = 'start';
  }

  /** Names the step under way (for the log and for a failure). */
  begin(step) {
    this.step = step;
    this.log(`  - ${step}`);
  }

  /**
   * Polls fn in the page until it returns a truthy value; throws a StepError naming
   * the current step with what the last poll returned.
   * @template T
   * @param {string} what
   * @param {(...a: any[]) => T} fn
   * @param {any[]} args
   * @param {number} [timeoutMs]
   */
  async until(what, fn, args = [], timeoutMs = this.timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
      try {
        last = await this.page.evaluate(fn, ...args);
        if (last && (!Array.isArray(last) || last.length)) return last;
      } catch (e) {
        last = `(${e instanceof Error ? e.message : e})`;
      }
      if (Date.now() > deadline) throw new StepError(this.step, `waited ${timeoutMs / 1000} s for ${what}; last saw ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** The text rows of a list in a view (selector of the view's container). */
  async rows(selector) {
    return this.page.evaluate((sel) => [...document.querySelectorAll(`${sel} .monaco-list-row`)].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim()), selector);
  }

  /** Waits until some row of a view matches re; returns all rows then. */
  async untilRow(what, selector, re, timeoutMs) {
    return this.until(what, (sel, src, flags) => {
      const rows = [...document.querySelectorAll(`${sel} .monaco-list-row`)].map((r) => (r.textContent || '').replace(/\s+/g, ' ').trim());
      return rows.some((t) => new RegExp(src, flags).test(t)) ? rows : null;
    }, [selector, re.source, re.flags], timeoutMs);
  }

  /** Presses a key chord such as 'F5', 'Shift+F5', 'Control+Shift+Y'. */
  async press(chord) {
    const keys = chord.split('+');
    for (const k of keys.slice(0, -1)) await this.page.keyboard.down(/** @type {any} */ (k));
    await this.page.keyboard.press(/** @type {any} */ (keys[keys.length - 1]));
    for (const k of keys.slice(0, -1).reverse()) await this.page.keyboard.up(/** @type {any} */ (k));
  }

  /** Runs a command of the palette by its title (F1, type, Enter on the match). */
  async command(title) {
    await this.press('F1');
    await this.until('the command palette', () => !!document.querySelector('.quick-input-widget input:focus'));
    await this.page.keyboard.type(title);
    await this.until(`"${title}" in the palette`, (t) => [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((r) => (r.getAttribute('aria-label') || r.textContent || '').includes(t)), [title]);
    await this.press('Enter');
  }

  /** Types text into an open quick pick and picks the item with that label. */
  async pick(text, label = text) {
    await this.until('a quick pick', () => !!document.querySelector('.quick-input-widget input:focus'));
    await this.page.keyboard.type(text);
    await this.until(`"${label}" in the quick pick`, (t) => [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((r) => (r.textContent || '').includes(t)), [label]);
    await this.press('Enter');
  }

  /** Clicks a debug toolbar button by its label (the aria-label, or it with a key binding in parentheses). */
  async toolbar(label) {
    const ok = await this.until(`the toolbar button "${label}"`, (l) => {
      const b = [...document.querySelectorAll('.debug-toolbar .action-label')]
        .find((e) => {
          const a = e.getAttribute('aria-label') || '';
          return (a === l || a.startsWith(`${l} (`)) && !e.classList.contains('disabled');
        });
      if (!b) return false;
      /** @type {HTMLElement} */ (b).click();
      return true;
    }, [label]);
    return ok;
  }

  /** The debug toolbar's button labels. */
  async toolbarLabels() {
    return this.page.evaluate(() => [...document.querySelectorAll('.debug-toolbar .action-label')].map((e) => e.getAttribute('aria-label') || ''));
  }

  /** Error toasts (not infos or warnings) and modal dialogs on screen (texts). */
  async errors() {
    return this.page.evaluate(() => [...document.querySelectorAll('.notification-toast .notification-list-item, .monaco-dialog-box')]
      .filter((e) => e.classList.contains('monaco-dialog-box') || e.querySelector('.codicon-error'))
      .map((e) => (e.textContent || '').replace(/\s+/g, ' ').trim())
      .filter((t) => t && !/marketplace|extension gallery|ENOTFOUND/i.test(t)));
  }

  /** Saves a screenshot of the page as NN-name.png in the shots folder. */
  async shot(name) {
    this.shotN++;
    const file = path.join(this.shots, `${String(this.shotN).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: /** @type {`${string}.png`} */ (file) });
    return file;
  }

  /** The page's visible text, for a failure report. */
  async text() {
    try {
      return await this.page.evaluate(() => document.body.innerText);
    } catch (e) {
      return `(no page text: ${e})`;
    }
  }
}

/** Writes a file and its folder. */
export function writeFile(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
