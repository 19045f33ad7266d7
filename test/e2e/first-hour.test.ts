// The first hour in the app at 1280×800 (issue #23 points 8, 12, 13): a Ctrl+K result opened while the
// findings are shown comes to the front in the inspector (the findings one tab away, as they were);
// nothing of the top bar, the graph's toolbar, the panel's tabs, the rail or the inventory's tabs is
// cut; the side panel resizes from the keyboard, hides and shows with P, and its width survives a
// reload; text pasted from another node opens as a new node by default, and the dialog says why.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphReady, openNode, repo, shot } from './helpers.ts';

const SPLITTER = '[data-testid="panel-splitter"]';

/** Elements matching `selector` whose content is wider than their box (cut or scrolled), as "selector: text". */
async function cut(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els, sel) =>
    els
      // Only what is drawn: a chip wrapped onto the clipped second line is hidden whole, not cut.
      .filter((e) => {
        const r = e.getBoundingClientRect();
        const p = e.parentElement!.getBoundingClientRect();
        return r.width > 0 && r.top < p.bottom;
      })
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || [...e.querySelectorAll('*')].some((c) => getComputedStyle(c).textOverflow === 'ellipsis' && c.scrollWidth > c.clientWidth + 1))
      .map((e) => `${sel}: ${e.textContent}`),
  selector);
}

describe('the first hour at 1280×800', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    // On the worker's server of the demo: the paste opens a node of its own and leaves the demo's as it was.
    ({ page, errors, close } = await openNode('assets/demo/l2bridge-node', { width: 1280, height: 800, clipboard: true, shared: true }));
    await graphReady(page);
    await page.waitForSelector('#root[data-findings="done"]');
  });
  afterAll(() => close?.());

  it('Enter on a Ctrl+K result shows it in the inspector, the findings one tab away as they were', async () => {
    await page.click('[data-testid="panel-findings"]');
    await page.locator('[data-testid="finding"] .finding-head').first().click();
    await page.waitForSelector('[data-testid="finding-body"]');
    const openFinding = await page.locator('[data-testid="finding"].open').getAttribute('data-key');
    // "… on 8 pod endpoint(s)": five evidence lines, then "3 more", which shows the other three.
    const count = Number(/on (\d+) pod endpoint/.exec((await page.textContent('[data-testid="finding"].open .finding-title'))!)![1]);
    expect(count).toBe(8);
    expect(await page.locator('[data-testid="evidence"]').count()).toBe(5);
    expect(await page.textContent('[data-testid="evidence-more"]')).toBe('3 more');
    await shot(page, 'first-hour-evidence-more');
    await page.click('[data-testid="evidence-more"]');
    expect(await page.locator('[data-testid="evidence"]').count()).toBe(count);
    expect(await page.locator('[data-testid="evidence-more"]').count()).toBe(0);
    await page.keyboard.press('Control+k');
    await page.fill('[data-testid="palette-input"]', '10.244.32.5');
    await page.waitForSelector('[data-testid="palette-results"][data-hits-for="10.244.32.5"][aria-busy="false"] [data-testid="hit"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    expect(await page.getAttribute('[data-testid="panel-inspector"]', 'aria-selected')).toBe('true');
    const title = page.locator('[data-testid="inspector-title"]');
    await title.waitFor();
    expect(await title.isVisible()).toBe(true);
    expect(await title.textContent()).toContain('10.244.32.5');
    await shot(page, 'first-hour-palette-to-inspector');
    // Back to the findings: the finding that was open still is.
    await page.click('[data-testid="panel-findings"]');
    expect(await page.locator('[data-testid="finding"].open').getAttribute('data-key')).toBe(openFinding);
    await page.click('[data-testid="panel-inspector"]');
  });

  it('cuts nothing: the top bar, the toolbar on one line, the rail, the panel tabs, the fact chips, the inventory tabs', async () => {
    for (const panel of ['inspector', 'walk', 'findings'] as const) {
      await page.click(`[data-testid="panel-${panel}"]`);
      const toolbar = page.locator('.graph-toolbar');
      // One line: the controls of the toolbar share a row (every one's box overlaps every other's vertically).
      const rows = await toolbar.locator(':scope > *').evaluateAll((els) => {
        const boxes = els.map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
        return { lowestTop: Math.max(...boxes.map((r) => r.top)), highestBottom: Math.min(...boxes.map((r) => r.bottom)) };
      });
      expect(rows.lowestTop, panel).toBeLessThan(rows.highestBottom);
      for (const sel of ['.graph-toolbar', '.graph-toolbar > button', '.panel-tabs', '.panel-tab', '.topbar-actions button', '.fact-chips .chip', '.node-name', '.rail-tab']) expect(await cut(page, sel), `${panel}: ${sel}`).toEqual([]);
    }
    // Every control of the top bar lies within the window, on the bar's one line.
    const outside = await page.locator('.topbar button').evaluateAll((els) => els.filter((e) => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth || r.bottom > 48; }).map((e) => e.textContent));
    expect(outside).toEqual([]);
    await shot(page, 'first-hour-findings-1280');
    await page.click('[data-testid="view-inventory"]');
    await page.waitForSelector('.subtabs');
    expect(await cut(page, '.subtab')).toEqual([]);
    // A cut cell keeps its whole value on hover.
    const cells = await page.locator('[role="gridcell"].ellipsis').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => [e.getAttribute('title'), e.textContent]));
    for (const [title, text] of cells) expect(title).toBe(text);
    await shot(page, 'first-hour-inventory-1280');
    await page.click('[data-testid="view-topology"]');
  });

  it('the side panel resizes from the keyboard, hides and shows with P, and keeps its width across a reload', async () => {
    const width = async () => Number(await page.getAttribute(SPLITTER, 'aria-valuenow'));
    const before = await width();
    const min = Number(await page.getAttribute(SPLITTER, 'aria-valuemin'));
    const max = Number(await page.getAttribute(SPLITTER, 'aria-valuemax'));
    expect(before).toBeGreaterThanOrEqual(min);
    expect(before).toBeLessThanOrEqual(max);
    expect(max).toBeLessThanOrEqual(1280 - 640);
    await page.focus(SPLITTER);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await width()).toBe(Math.min(max, before + 40));
    // The panel's own box follows the value it announces.
    const box = (await page.locator('[data-testid="side-panel"]').boundingBox())!;
    expect(Math.abs(box.width - (await width()))).toBeLessThanOrEqual(2);
    await page.keyboard.press('Home');
    expect(await width()).toBe(min);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const chosen = await width();
    expect(chosen).toBe(min + 60);
    // P hides the panel, P shows it again at the same width.
    await page.locator('[data-testid="graph"]').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('p');
    await page.waitForSelector('[data-testid="side-panel"]', { state: 'detached' });
    await page.keyboard.press('p');
    await page.waitForSelector('[data-testid="side-panel"]');
    expect(await width()).toBe(chosen);
    // Enter on the separator hides it too (the window splitter pattern), the button shows it.
    await page.focus(SPLITTER);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="side-panel"]', { state: 'detached' });
    await page.click('[data-testid="panel-show"]');
    await page.reload();
    await page.waitForSelector('#root[data-app-state="ready"]');
    await page.waitForSelector(SPLITTER);
    expect(await width()).toBe(chosen);
  });

  it('text pasted from another node opens as a new node by default, and the dialog says why', async () => {
    // The overlay demo's ipconfig (UTF-16, as collectlogs writes it) pasted on the l2bridge node.
    const other = readFileSync(path.join(repo, 'assets/demo/overlay-node/ip.txt'), 'utf16le').replace(/^\uFEFF/, '');
    const own = readFileSync(path.join(repo, 'assets/demo/l2bridge-node/ip.txt'), 'utf16le').replace(/^\uFEFF/, '');
    const open = async (text: string) => {
      await page.evaluate((t) => navigator.clipboard.writeText(t), text);
      await page.locator('[data-testid="graph"]').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Control+Shift+V');
      await page.waitForSelector('[data-testid="paste-dialog"]');
      await page.waitForSelector('[data-testid="paste-preview"][data-state="ready"]');
    };
    const primary = () => page.locator('[data-testid="paste-dialog"] .dialog-actions .btn.primary').getAttribute('data-testid');

    await open(own);
    expect(await page.locator('[data-testid="paste-other-node"]').count()).toBe(0);
    expect(await primary()).toBe('paste-add');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="paste-dialog"]', { state: 'detached' });

    await open(other);
    const note = page.locator('[data-testid="paste-other-node"]');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^This looks like another node: host \S+ \(the open node is win-fl-l2b-01\)/);
    expect(await primary()).toBe('paste-new');
    expect(await page.textContent('.paste-keys')).toContain('opens as a new node');
    await shot(page, 'first-hour-paste-other-node');
    // Ctrl+Enter does what the emphasis says: a node of its own, not the two joined.
    await page.focus('[data-testid="paste-text"]');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="paste-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="summary"]');
    const files = await page.locator('[data-testid="summary-file"]').count();
    expect(files).toBe(1);
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
