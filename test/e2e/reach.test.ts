// The Reachability view (issue #25 point 3) at 1280×800 on the demo node (assets/demo/l2bridge-node):
// its faults — an OutBoundNAT ExceptionList typo on every pod, a pod endpoint whose vNIC never arrived —
// show as cells that are not green, and a cell opens the walk that explains it (the walk panel's
// verdict is the cell's, and the path is lit on the graph). The grid is virtualised (the DOM holds only
// the cells in sight) and keyboard navigable (a roving tabindex, arrow keys, Enter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphIds, openNode, reachViewReady, shot } from './helpers.ts';
import { LEGEND, LEGEND_MARKS } from '../../analysis/view-models/reach-view.ts';

const CELL = '[data-testid="reach-grid"] [role="gridcell"]';

describe('the Reachability view (demo, 1280×800)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    // On the worker's server of the demo: the tests read its matrix (the first pass holds it whole).
    ({ page, errors, close } = await openNode('assets/demo/l2bridge-node', { width: 1280, height: 800, shared: true }));
    await reachViewReady(page);
  }, 120_000);

  afterAll(() => close?.());

  it('shows the faults as cells that are not green, with a legend and what decided each cell', async () => {
    await shot(page, 'reach-demo');
    // The tones, then the marks a cell carries besides its glyph (the inference mark).
    expect(await page.locator('.reach-legend li').count()).toBe(LEGEND.length + LEGEND_MARKS.length);
    const tones = await page.locator(`${CELL}:not(.sum)`).evaluateAll((els) => els.map((e) => [e.getAttribute('data-tone'), e.getAttribute('aria-label')] as const));
    expect(tones.some(([t]) => t === 'delivered')).toBe(true);
    // The pod whose vNIC never arrived (10.244.32.9): nothing receives a packet to it.
    const toVnicLess = tones.filter(([t, l]) => t !== 'none' && / to 10\.244\.32\.9[:\s]/.test(l ?? ''));
    expect(toVnicLess.length).toBeGreaterThan(0);
    for (const [t, l] of toVnicLess) {
      expect(t).not.toBe('delivered');
      expect(l).toMatch(/no vNIC/);
    }
  });

  it('a cell to the pod without a vNIC opens its walk: dropped, the verdict says why, the path is lit', async () => {
    const cell = page.locator(`${CELL}[data-tone="dropped"]:not(.sum)`).filter({ has: page.locator('xpath=self::*[contains(@aria-label, " to 10.244.32.9")]') }).first();
    await cell.click();
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.getAttribute('data-verdict')).toBe('dropped');
    expect(await page.getAttribute('[data-testid="verdict-text"]', 'aria-label')).toMatch(/no vNIC/);
    expect(await verdict.getAttribute('data-flow')).toContain('10.244.32.9');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="graph"]')?.getAttribute('data-lit-ids'));
    expect((await graphIds(page, 'lit-ids')).length).toBeGreaterThan(0);
    await shot(page, 'reach-demo-vnic-walk');
    await page.click('[data-testid="view-reach"]');
    await page.waitForSelector('[data-testid="reach-grid"]');
  });

  it('the DOM holds only the cells in sight', async () => {
    const rendered = await page.locator(CELL).count();
    const total = await page.locator('[data-testid="reach-grid"]').evaluate((g) => (Number(g.getAttribute('aria-rowcount')) - 1) * (Number(g.getAttribute('aria-colcount')) - 1));
    const box = (await page.locator('[data-testid="reach-grid"]').boundingBox())!;
    // At 24 px a cell, plus the overscan on each side.
    expect(rendered).toBeLessThanOrEqual(Math.ceil(box.height / 24 + 12) * Math.ceil(box.width / 24 + 12));
    expect(rendered).toBeLessThanOrEqual(total);
  });

  it('filters what is dropped: every cell left matching is dropped, and says what decided it', async () => {
    await page.click('[data-testid="reach-filter-dropped"]');
    const dropped = page.locator(`${CELL}[data-tone="dropped"]:not(.sum)`).first();
    expect(await dropped.getAttribute('aria-label')).toMatch(/ to .*: dropped( \(inferred\))?\. decided/);
    expect(await dropped.getAttribute('title')).toBe(await dropped.getAttribute('aria-label'));
    const shown = await page.locator(`${CELL}:not(.dim):not(.sum)`).evaluateAll((els) => els.filter((e) => e.getAttribute('data-tone') !== 'none').map((e) => e.getAttribute('data-tone')));
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown)).toEqual(new Set(['dropped']));
    await shot(page, 'reach-demo-dropped');
  });

  it('arrow keys move a single tab stop, Enter opens the walk that explains a dropped cell, its path lit', async () => {
    const first = page.locator(`${CELL}[tabindex="0"]`);
    expect(await first.count()).toBe(1);
    await first.focus();
    // Walk the focus with the keyboard until it rests on a dropped cell of a source (not a group line).
    let label = '';
    for (let i = 0; i < 400; i++) {
      const f = page.locator(`${CELL}[tabindex="0"]`);
      if ((await f.getAttribute('data-tone')) === 'dropped' && !(await f.getAttribute('class'))!.includes('sum')) {
        label = (await f.getAttribute('aria-label'))!;
        break;
      }
      const [r, k] = (await f.getAttribute('data-cell'))!.split(':').map(Number);
      const cols = Number(await page.locator('[data-testid="reach-grid"]').getAttribute('aria-colcount')) - 1;
      await page.keyboard.press(k + 1 < cols ? 'ArrowRight' : 'ArrowDown');
      if (k + 1 >= cols) await page.keyboard.press('Home');
      const moved = page.locator(`${CELL}[tabindex="0"]`);
      expect(await moved.evaluate((e) => e === document.activeElement)).toBe(true);
      void r;
    }
    expect(label).toMatch(/dropped/);
    expect(await page.locator(`${CELL}[tabindex="0"]`).count()).toBe(1);
    await page.keyboard.press('Enter');
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.getAttribute('data-verdict')).toBe('dropped');
    // The focus follows to the walk's verdict, not dropped to the page.
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.testid === 'verdict');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="graph"]')?.getAttribute('data-lit-ids'));
    expect((await graphIds(page, 'lit-ids')).length).toBeGreaterThan(0);
    await shot(page, 'reach-demo-walk');
  });

  it('a click on a cell opens its walk too, and the node has no page errors', async () => {
    await page.click('[data-testid="view-reach"]');
    await page.waitForSelector('[data-testid="reach-grid"]');
    await page.click('[data-testid="reach-filter-all"]');
    const cell = page.locator(`${CELL}[data-tone="delivered"]:not(.sum)`).first();
    await cell.click();
    const verdict = page.locator('[data-testid="verdict"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="verdict"]')?.getAttribute('data-verdict') === 'delivered', undefined, { timeout: 30_000 });
    expect(await verdict.getAttribute('data-verdict')).toBe('delivered');
    expect(errors).toEqual([]);
  });
});
