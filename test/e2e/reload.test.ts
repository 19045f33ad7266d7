// One load per bundle per server: a reloaded tab takes back the node it had (no second load, no
// summary shown again, its findings there), and a second tab opening the same bundle gets the same node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openNode, pageApi as api, type Served } from './helpers.ts';

describe('reloading a tab', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let server: Served;

  beforeAll(async () => {
    ({ browser, page, errors, close, server } = await openNode(undefined));
  });

  afterAll(() => close?.());

  it('takes back the node the tab had, without loading it again', async () => {
    await page.click('[data-testid="demo-l2bridge-node"]');
    await page.waitForSelector('[data-testid="summary"]');
    await page.click('[data-testid="summary-close"]');
    await page.waitForSelector('#root[data-findings="done"]');
    const id = await page.getAttribute('#root', 'data-bundle-id');
    expect(id).toBeTruthy();
    // The address bar no longer has the token; the reload finds it in the tab's storage.
    expect(page.url()).not.toContain('token=');
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
      // A new tab needs the printed URL (the token is the first tab's alone).
      await other.goto(server.url);
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
