// The keyboard: ? opens a map of every key; Esc closes every dialog — the summary, search, the excerpt,
// Export (also after a save, and with the focus in its preview frame), Compare, Connect, Paste, Open
// path, the keyboard map — and the focus returns to where it was when the dialog opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openNode, shot } from './helpers.ts';

/** The data-testid (or the text) of the element that has the focus. */
const focused = (page: Page) => page.evaluate(() => {
  const a = document.activeElement as HTMLElement | null;
  return a?.dataset.testid ?? a?.textContent?.trim() ?? '';
});

/** Opens a dialog from `opener`, runs `inside`, presses Esc, and checks it closed and gave the focus back. */
async function escCloses(page: Page, opener: string, dialog: string, inside: () => Promise<void> = async () => {}, focusBack = opener): Promise<void> {
  await page.focus(`[data-testid="${opener}"]`);
  await page.click(`[data-testid="${opener}"]`);
  await page.waitForSelector(dialog);
  await inside();
  await page.keyboard.press('Escape');
  await page.waitForSelector(dialog, { state: 'detached' });
  expect(await focused(page)).toBe(focusBack);
}

describe('keyboard: the map and Esc on every dialog', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, errors, close } = await openNode('test/fixtures/foreign/ws2019-flannel-l2bridge-2020', { width: 1280, height: 800 }));
  });

  afterAll(() => close?.());

  it('closes the load summary with Esc', async () => {
    await page.waitForSelector('[data-testid="summary-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="summary-dialog"]', { state: 'detached' });
  });

  it('opens the keyboard map on ?, listing the keys the app answers to', async () => {
    await page.locator('body').click({ position: { x: 5, y: 790 } });
    await page.keyboard.type('?');
    const map = page.locator('[data-testid="keymap-dialog"]');
    await map.waitFor();
    const text = (await map.textContent()) ?? '';
    for (const what of ['Search IPs', 'Export a report', 'Paste output', 'Fit the whole node', 'Previous / next hop', 'This keyboard map', 'Close the dialog on top', 'On a node: select it']) expect(text).toContain(what);
    expect(await map.locator('[data-testid="keymap-row"]').count()).toBeGreaterThanOrEqual(14);
    await shot(page, 'keyboard-map');
    await page.keyboard.press('Escape');
    await map.waitFor({ state: 'detached' });
    // From the top bar, and back to its button.
    await escCloses(page, 'keymap-open', '[data-testid="keymap-dialog"]');
  });

  it('closes the summary opened again from the node name, the search, and an excerpt over the inspector', async () => {
    await page.click('.node-name');
    await page.waitForSelector('[data-testid="summary-dialog"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="summary-dialog"]', { state: 'detached' });
    await escCloses(page, 'search-trigger', '[data-testid="palette"]', async () => {
      await page.keyboard.type('10.244.3.5');
    });
    // Search for a pod, open it in the inspector, open one of its lines.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('10.244.3.5');
    await page.waitForSelector('[data-testid="hit"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    const link = page.locator('[data-testid="side-panel"] .src-link').first();
    await link.waitFor();
    const where = (await link.textContent()) ?? '';
    await link.focus();
    await link.click();
    await page.waitForSelector('[data-testid="excerpt"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="excerpt"]', { state: 'detached' });
    expect(await focused(page)).toBe(where);
  });

  it('closes Export with Esc after a save, and with the focus in its preview', async () => {
    await escCloses(page, 'export-open', '[data-testid="export-dialog"]', async () => {
      await page.waitForSelector('[data-testid="export-frame"]', { timeout: 30_000 });
      const download = page.waitForEvent('download');
      await page.click('[data-testid="export-save"]');
      await download;
      await page.waitForSelector('.toast:has-text("Saved the HTML report")');
      // The focus is back on Save… (it was disabled while saving), not dropped to the page.
      await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.testid === 'export-save');
    });
    await escCloses(page, 'export-open', '[data-testid="export-dialog"]', async () => {
      const frame = page.locator('[data-testid="export-frame"]');
      await frame.waitFor({ timeout: 30_000 });
      await frame.click({ position: { x: 40, y: 40 } });
    });
  });

  it('keeps Tab and Shift+Tab inside Export, its preview skipped, Save… reached', async () => {
    await escCloses(page, 'export-open', '[data-testid="export-dialog"]', async () => {
      const frame = page.locator('[data-testid="export-frame"]');
      await frame.waitFor({ timeout: 30_000 });
      // A click in the preview gives the focus back to the dialog's box: Tab goes on from there.
      await frame.click({ position: { x: 40, y: 40 } });
      const where = () =>
        page.evaluate(() => {
          const a = document.activeElement as HTMLElement | null;
          return { inside: !!a?.closest('[data-testid="export-dialog"]') && a !== document.querySelector('[data-testid="export-dialog"]'), id: a?.dataset.testid ?? a?.tagName ?? '' };
        });
      for (const key of ['Tab', 'Shift+Tab']) {
        const seen: string[] = [];
        for (let i = 0; i < 24; i++) {
          await page.keyboard.press(key);
          const w = await where();
          expect(w.inside, `${key} #${i + 1} left the dialog for ${w.id}`).toBe(true);
          seen.push(w.id);
        }
        expect(seen).toContain('export-save');
        expect(seen).not.toContain('IFRAME');
      }
    });
  });

  it('closes Compare, Connect, Paste and Open path with Esc, the focus back on what opened them', async () => {
    await escCloses(page, 'compare-open', '[data-testid="compare-dialog"]');
    const fromMenu = async (item: string, dialog: string) => {
      await page.click('[data-testid="open-menu"]');
      await page.click(item);
      await page.waitForSelector(dialog);
      await page.keyboard.press('Escape');
      await page.waitForSelector(dialog, { state: 'detached' });
      expect(await focused(page)).toBe('open-menu');
    };
    await fromMenu('[data-testid="open-connect"]', '[data-testid="connect-dialog"]');
    await fromMenu('[data-testid="open-paste"]', '[data-testid="paste-dialog"]');
    await fromMenu('[role="menuitem"]:has-text("Open path on this machine")', '[role="dialog"][aria-label="Open a bundle by path"]');
  });

  it('closes the graph legend with Esc (the focus back on its button) and with a click outside it', async () => {
    await escCloses(page, 'legend-button', '[data-testid="legend"]');
    expect(await page.getAttribute('[data-testid="legend-button"]', 'aria-expanded')).toBe('false');
    await page.click('[data-testid="legend-button"]');
    await page.waitForSelector('[data-testid="legend"]');
    await page.locator('[data-testid="graph"]').click({ position: { x: 20, y: 20 } });
    await page.waitForSelector('[data-testid="legend"]', { state: 'detached' });
    // Its own button still toggles it.
    await page.click('[data-testid="legend-button"]');
    await page.waitForSelector('[data-testid="legend"]');
    await page.click('[data-testid="legend-button"]');
    await page.waitForSelector('[data-testid="legend"]', { state: 'detached' });
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
