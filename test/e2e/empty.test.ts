// No bundle on the command line: the empty state offers every way in, and a demo opens from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openNode, shot } from './helpers.ts';

describe('empty state', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, errors, close } = await openNode(undefined));
  });

  afterAll(() => close?.());

  it('offers a path field, upload, both demos and the drop hint', async () => {
    await page.waitForSelector('[data-testid="empty-state"]');
    expect(await page.locator('[data-testid="path-input"]').count()).toBe(1);
    expect(await page.locator('[data-testid="demo-l2bridge-node"]').count()).toBe(1);
    expect(await page.locator('[data-testid="demo-overlay-node"]').count()).toBe(1);
    expect(await page.textContent('[data-testid="empty-state"]')).toContain('drop');
    await shot(page, 'empty-state');
  });

  it('says why a typed path the user did not choose is not opened', async () => {
    await page.fill('[data-testid="path-input"]', '/nonexistent/hnsight-e2e-bundle');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.toast.error');
    expect(await page.textContent('.toast.error')).toContain('/nonexistent/hnsight-e2e-bundle is not a bundle you chose');
    await page.waitForSelector('#root[data-app-state="ready"]');
    expect(await page.locator('[data-testid="empty-state"]').count()).toBe(1);
  });

  it('opens the overlay demo', async () => {
    await page.click('[data-testid="demo-overlay-node"]');
    await page.waitForSelector('[data-testid="summary"]', { timeout: 60_000 });
    await page.waitForSelector('#root[data-app-state="ready"]');
    expect(await page.textContent('[data-testid="summary"]')).toContain('list-rule');
    await shot(page, 'overlay-summary');
  });

  it('says there are no problems on the overlay demo, which stays healthy', async () => {
    await page.click('[data-testid="summary-close"]');
    await page.waitForSelector('[data-testid="summary"]', { state: 'detached' });
    await page.click('[data-testid="view-findings"]');
    await page.waitForSelector('[data-testid="no-problems"]');
    expect(await page.textContent('[data-testid="no-problems"]')).toContain('No problems found');
  });

  it('raised no page errors', () => {
    // The refused open above is answered 403; that console line is expected.
    expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
  });
});
