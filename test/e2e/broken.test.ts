// A bundle with a truncated endpoint.txt: the load succeeds, the summary counts the broken file,
// and Files & issues lists its issues with line numbers that open the excerpt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openNode, repo, shot } from './helpers.ts';

describe('a bundle with a truncated endpoint.txt', () => {
  let page: Page;
  let close: () => Promise<void>;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-e2e-broken-'));
    cpSync(path.join(repo, 'assets/demo/l2bridge-node'), dir, { recursive: true });
    const file = path.join(dir, 'endpoint.txt');
    const bytes = readFileSync(file);
    // Cut in the middle of the JSON, on a UTF-16 code unit boundary (the file is UTF-16LE).
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2) & ~1));
    ({ page, close } = await openNode(dir));
  });

  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads and counts the broken file in the summary', async () => {
    await page.waitForSelector('[data-testid="summary"]');
    const text = await page.textContent('[data-testid="summary"]');
    expect(text).toContain('1 broken');
    expect(text).toContain('endpoint.txt');
    await shot(page, 'broken-summary');
    await page.click('[data-testid="summary-close"]');
  });

  it('lists the file’s issues with line numbers and opens one', async () => {
    await page.click('[data-testid="view-files"]');
    await page.click('[data-testid="file-endpoint.txt"]');
    const issues = page.locator('[data-testid="issues-endpoint.txt"] [data-testid="issue"]');
    await issues.first().waitFor();
    const locs = await issues.locator('.issue-loc').allTextContents();
    expect(locs.some((l) => /^endpoint\.txt:\d+$/.test(l))).toBe(true);
    const error = page.locator('[data-testid="issues-endpoint.txt"] [data-testid="issue"]', { has: page.locator('.badge.error') }).first();
    const loc = (await error.locator('.issue-loc').textContent())!;
    expect(await error.textContent()).toMatch(/truncated/i);
    await shot(page, 'broken-files');
    await error.click();
    await page.waitForSelector('[data-testid="excerpt"] .code-line.focus');
    expect(await page.getAttribute('[data-testid="excerpt"] .code-line.focus', 'data-line')).toBe(loc.split(':')[1]);
    await shot(page, 'broken-excerpt');
  });
});
