// The Reachability grid at 1280×800 shows, in the cell, that a verdict rests on an inference (issue #25):
// before, "(inferred)" was only in the cell's title. On the hand-written WS2019 flannel host-gw node
// (test/fixtures/foreign/ws2019-flannel-l2bridge-2020), whose pod → Service cells through a backend
// that is the pod itself (hairpin without SNAT) are "unknown" or "ambiguous" by an inference, and on
// the demo, whose cells to the pod without a vNIC are dropped by one: each such cell shows the mark as
// text beside its glyph (not a colour), every marked cell's title says "(inferred", and no other cell
// shows it; the legend explains the mark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openNode, reachViewReady, shot } from './helpers.ts';
import { INFERRED_MARK } from '../../analysis/view-models/reach-view.ts';

const CELL = '[data-testid="reach-grid"] [role="gridcell"]';

for (const [name, bundle] of [
  ['ws2019-flannel-l2bridge-2020', 'test/fixtures/foreign/ws2019-flannel-l2bridge-2020'],
  ['demo l2bridge-node', 'assets/demo/l2bridge-node'],
] as const)
  describe(`the inference mark in the Reachability grid (${name}, 1280×800)`, () => {
    let page: Page;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ page, close } = await openNode(bundle, { width: 1280, height: 800, shared: true }));
      await reachViewReady(page);
    }, 180_000);

    afterAll(() => close?.());

    it('a group\'s summary cell carries the mark only when its outcome rests on an inference, and says so', async () => {
      await shot(page, `reach-inferred-${name.split(' ')[0]}`);
      const sums = await page.locator(`${CELL}.sum`).evaluateAll((els) => els.map((e) => ({ label: e.getAttribute('aria-label') ?? '', marked: e.getAttribute('data-inferred') === 'true' })));
      for (const s of sums.filter((x) => x.marked)) expect(s.label).toMatch(/of them inferred\)/);
    });

    it('marks exactly the cells whose verdict rests on an inference, with a visible glyph', async () => {
      // Open the groups that start collapsed (the Services), so their cells are in the grid.
      for (let i = 0; i < 10; i++) {
        const closed = page.locator('[data-testid="reach-group"][aria-expanded="false"]');
        if (!(await closed.count())) break;
        await closed.first().click();
      }
      await shot(page, `reach-inferred-${name.split(' ')[0]}-open`);
      const cells = await page.locator(`${CELL}:not(.sum)`).evaluateAll((els) =>
        els.map((e) => {
          const mark = e.querySelector('.reach-inferred');
          const r = mark?.getBoundingClientRect();
          const c = e.getBoundingClientRect();
          return {
            label: e.getAttribute('aria-label') ?? '',
            marked: e.getAttribute('data-inferred') === 'true',
            text: e.textContent ?? '',
            // The mark is drawn inside its cell, with a size (not hidden, not clipped away).
            inside: !!r && r.width > 0 && r.height > 0 && r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5,
          };
        }),
      );
      const marked = cells.filter((c) => c.marked);
      expect(marked.length).toBeGreaterThan(0);
      for (const c of cells) {
        // The title's "(inferred)" and the mark go together.
        expect({ label: c.label, marked: c.marked }).toEqual({ label: c.label, marked: / \(inferred\)/.test(c.label) });
        if (c.marked) {
          expect(c.text.endsWith(INFERRED_MARK)).toBe(true);
          expect(c.inside, c.label).toBe(true);
        } else expect(c.text.includes(INFERRED_MARK)).toBe(false);
      }
    });

    it('the legend explains the mark', async () => {
      const item = page.locator('[data-testid="reach-legend-inferred"]');
      expect(await item.count()).toBe(1);
      expect(await item.textContent()).toMatch(/^\*.*inference/);
      expect(await item.isVisible()).toBe(true);
    });
  });
