// The Reachability view on a dual-stack node (issue #25 point 2, IPv6) at 1280×800: the walk
// scenarios' dual-stack base (test/fixtures/walk-scenarios/bases/dualstack-l2bridge) shows the IPv6
// address of its pods and of its host as rows of their own ("IPv6 pods · …", "IPv6 host"), against the
// IPv6 destinations, and an IPv6 cell opens the walk of its example packet (an IPv6 flow) with the path lit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphIds, openNode, reachViewReady, shot } from './helpers.ts';

const CELL = '[data-testid="reach-grid"] [role="gridcell"]';

describe('the Reachability view on a dual-stack node (1280×800)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, errors, close } = await openNode('test/fixtures/walk-scenarios/bases/dualstack-l2bridge', { width: 1280, height: 800, shared: true }));
    await reachViewReady(page);
  }, 120_000);

  afterAll(() => close?.());

  it('has IPv6 rows, and IPv6 cells worked out', async () => {
    await shot(page, 'reach-dualstack');
    const groups = await page.locator('[data-testid="reach-group"]').allTextContents();
    expect(groups.some((g) => /^IPv6 pods/.test(g))).toBe(true);
    expect(groups.some((g) => /^IPv6 host/.test(g))).toBe(true);
    // Every cell of a family is worked out; the cells between an IPv4 and an IPv6 address are none to walk.
    expect(await page.textContent('[data-testid="reach-worked-out"]')).toMatch(/^(\d+) of \1 cells worked out\.$/);
  });

  it('the last cell (the IPv6 host to the outside over IPv6) opens its walk, an IPv6 flow with its path lit', async () => {
    const first = page.locator(`${CELL}[tabindex="0"]`);
    await first.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('End');
    const last = page.locator(`${CELL}[tabindex="0"]`);
    const label = (await last.getAttribute('aria-label'))!;
    // The IPv6 host to the outside's IPv6 address (example.com's), on port 443.
    expect(label).toMatch(/^host · [0-9a-f:]+:[0-9a-f:]* to outside · \[2606:2800:220:1:248:1893:25c8:1946\]:443\/TCP: /);
    expect(await last.getAttribute('data-tone')).not.toBe('none');
    await shot(page, 'reach-dualstack-v6-corner');
    await page.keyboard.press('Enter');
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.getAttribute('data-flow')).toContain('2606:2800:220:1:248:1893:25c8:1946');
    await page.waitForFunction(() => !!document.querySelector('[data-testid="graph"]')?.getAttribute('data-lit-ids'));
    expect((await graphIds(page, 'lit-ids')).length).toBeGreaterThan(0);
    await shot(page, 'reach-dualstack-v6-walk');
    expect(errors).toEqual([]);
  });
});
