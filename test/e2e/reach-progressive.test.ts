// The Reachability view on a matrix bigger than its first pass (issue #25 point 3, big nodes): the
// demo with the first pass bounded to 40 cells (HNSIGHT_REACH_FIRST_CELLS), as a node with 250 pods
// and 2,000 Services is bounded by time. What is not worked out is shown as such — never as a verdict —
// and says so; the Services start collapsed by namespace; Enter on a blank cell, or on a group's
// cell, works out what is under it, and the cells come in as they are walked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphReady, openNode, shot } from './helpers.ts';

const GRID = '[data-testid="reach-grid"]';
const CELL = `${GRID} [role="gridcell"]`;
const FOCUSED = `${CELL}[tabindex="0"]`;
const idle = (page: Page) => page.waitForSelector('[data-testid="reach-run"][data-running="false"]', { timeout: 90_000 });

describe('the Reachability view beyond its first pass (demo, 1280×800)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  const before = process.env.HNSIGHT_REACH_FIRST_CELLS;

  beforeAll(async () => {
    process.env.HNSIGHT_REACH_FIRST_CELLS = '40';
    ({ page, errors, close } = await openNode('assets/demo/l2bridge-node', { width: 1280, height: 800 }));
    await graphReady(page);
    await page.click('[data-testid="view-reach"]');
    await page.waitForSelector(GRID, { timeout: 90_000 });
    await idle(page);
  }, 120_000);

  afterAll(async () => {
    if (before === undefined) delete process.env.HNSIGHT_REACH_FIRST_CELLS;
    else process.env.HNSIGHT_REACH_FIRST_CELLS = before;
    await close?.();
  });

  it('says how much is worked out, and shows the rest as not worked out, never as a verdict', async () => {
    await shot(page, 'reach-progressive-first-pass');
    const line = /^40 of (\d+) cells worked out: blank cells are not worked out/.exec((await page.textContent('[data-testid="reach-worked-out"]'))!);
    expect(line).not.toBeNull();
    // The view and the backend count the same cells (a source is not walked to its own address).
    expect(await page.textContent('[data-testid="reach-notes"]')).toContain(`Worked out 40 of ${line![1]} cells: the first pass stops after at most 40 cells`);
    const cells = await page.locator(`${CELL}:not(.sum)`).evaluateAll((els) => els.map((e) => [e.getAttribute('data-tone'), e.getAttribute('aria-label') ?? '', e.getAttribute('data-missing')] as const));
    const blank = cells.filter(([, l]) => /not worked out/.test(l));
    expect(blank.length).toBeGreaterThan(0);
    for (const [t, l, m] of blank) {
      expect(t).toBe('none');
      expect(m).toBe('1');
      expect(l).toMatch(/not worked out \(Enter works it out\)$/);
    }
    // What is worked out carries its verdict.
    expect(cells.some(([t]) => t !== 'none')).toBe(true);
  });

  it('groups the Services by namespace, collapsed', async () => {
    const heads = await page.locator(`${GRID} .reach-col-head [data-testid="reach-group"]`).evaluateAll((els) => els.map((e) => [e.textContent ?? '', e.getAttribute('aria-expanded')] as const));
    const services = heads.filter(([t]) => t.startsWith('Services'));
    expect(services.length).toBeGreaterThan(0);
    for (const [, open] of services) expect(open).toBe('false');
  });

  it('Enter on a blank cell works it out: it turns into a verdict', async () => {
    const grid = page.locator(GRID);
    await page.locator(FOCUSED).focus();
    // Move with the keyboard to the first blank cell of a source (not a group's line).
    let at = '';
    for (let i = 0; i < 600 && !at; i++) {
      const f = page.locator(FOCUSED);
      if ((await f.getAttribute('data-missing')) === '1' && !(await f.getAttribute('class'))!.includes('sum')) at = (await f.getAttribute('data-cell'))!;
      else {
        const k = Number((await f.getAttribute('data-cell'))!.split(':')[1]);
        const cols = Number(await grid.getAttribute('aria-colcount')) - 1;
        await page.keyboard.press(k + 1 < cols ? 'ArrowRight' : 'ArrowDown');
        if (k + 1 >= cols) await page.keyboard.press('Home');
      }
    }
    expect(at).not.toBe('');
    const label = (await page.locator(FOCUSED).getAttribute('aria-label'))!;
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-tone') !== 'none', `${CELL}[data-cell="${at}"]`, { timeout: 60_000 });
    const now = page.locator(`${CELL}[data-cell="${at}"]`);
    expect(await now.getAttribute('data-missing')).toBeNull();
    expect(await now.getAttribute('aria-label')).toMatch(new RegExp(`^${label.replace(/: not worked out.*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (delivered or forwarded|delivered|forwarded|dropped|unknown|ambiguous|insufficient information)`));
    await idle(page);
    expect(await page.textContent('[data-testid="reach-worked-out"]')).toMatch(/^41 of /);
  }, 120_000);

  it("Enter on a collapsed Services group's cell works out that row against the whole group", async () => {
    // The Services groups sit right of the pods: scroll there (the grid renders only the columns in sight).
    await page.locator(GRID).evaluate((g) => (g.scrollLeft = g.scrollWidth));
    const groupCell = page.locator(`${GRID} .reach-row.end [role="gridcell"].sum[data-missing]`).filter({ has: page.locator('xpath=self::*[contains(@aria-label, " to Services")]') }).first();
    const at = (await groupCell.getAttribute('data-cell'))!;
    const missing = Number(await groupCell.getAttribute('data-missing'));
    expect(missing).toBeGreaterThan(0);
    expect(await groupCell.getAttribute('aria-label')).toMatch(new RegExp(`${missing} not worked out`));
    await groupCell.click();
    await page.waitForFunction((sel) => !document.querySelector(sel)?.hasAttribute('data-missing'), `${CELL}[data-cell="${at}"]`, { timeout: 60_000 });
    expect(await page.locator(`${CELL}[data-cell="${at}"]`).getAttribute('data-tone')).not.toBe('none');
    await idle(page);
    await shot(page, 'reach-progressive-asked');
    expect(errors).toEqual([]);
  }, 120_000);
});
