// One load per bundle per server: a reloaded tab takes back the node it had (no second load, no
// summary shown again, its findings there), and a second tab opening the same bundle gets the same node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openNode } from './helpers.ts';

async function api<T>(page: Page, method: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([m, b]) => {
      const r = await fetch(`./api/${m}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b), credentials: 'same-origin' });
      const e = await r.json();
      if (!e.ok) throw new Error(e.error);
      return e.value;
    },
    [method, body] as const,
  ) as Promise<T>;
}

describe('reloading a tab', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, page, errors, close } = await openNode(undefined));
  });

  afterAll(() => close?.());

  it('takes back the node the tab had, without loading it again', async () => {
    await page.click('[data-testid="demo-l2bridge-node"]');
    await page.waitForSelector('[data-testid="summary"]');
    await page.click('[data-testid="summary-close"]');
    await page.waitForSelector('#root[data-findings="done"]');
    const id = await page.getAttribute('#root', 'data-bundle-id');
    expect(id).toBeTruthy();
    await page.reload();
    await page.waitForSelector('#root[data-app-state="ready"]');
    await page.waitForSelector(`#root[data-bundle-id="${id}"][data-findings="done"]`);
    // Taken back, not loaded: no load summary, one node open on the server.
    expect(await page.locator('[data-testid="summary"]').count()).toBe(0);
    const open = await api<{ bundles: { bundleId: string }[]; loads: unknown[] }>(page, 'listOpen', {});
    expect(open.bundles.map((b) => b.bundleId)).toEqual([id]);
    expect(errors).toEqual([]);
  });

  it('a second tab opening the same bundle gets the same node', async () => {
    const id = await page.getAttribute('#root', 'data-bundle-id');
    const other = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    try {
      await other.goto(page.url());
      await other.waitForSelector('#root[data-app-state="ready"]');
      await other.click('[data-testid="demo-l2bridge-node"]');
      await other.waitForSelector(`#root[data-bundle-id="${id}"]`);
      const open = await api<{ bundles: { bundleId: string }[] }>(other, 'listOpen', {});
      expect(open.bundles.map((b) => b.bundleId)).toEqual([id]);
    } finally {
      await other.close();
    }
  });
});
