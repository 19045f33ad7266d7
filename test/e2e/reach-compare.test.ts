// Compare's Reachability part (issue #25 point 5) at 1280×800: a generated node before and after one
// fault (a blocked port, tools/gen-bundle.ts --fault blocked-port, same seed) lists the packet classes
// the fault changed, each worse (got through before, dropped after); the list filters and is keyboard
// navigable; Enter opens both walks side by side — before on A, after on B — with the hop that decided
// lit, and Esc closes them. The demo compared with itself changes nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphReady, openNode, repo, shot } from './helpers.ts';

const gen = (out: string, ...args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', path.join(repo, 'tools/gen-bundle.ts'), '--out', out, '--seed', '7', ...args], { cwd: repo, stdio: 'pipe' });

async function compare(page: Page, b: string): Promise<void> {
  await graphReady(page);
  // A node with missing inputs opens on its summary: close it.
  if (await page.locator('[data-testid="summary-dialog"]').count()) {
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="summary-dialog"]', { state: 'detached' });
  }
  if (!(await page.locator('[data-testid="compare-dialog"]').count())) {
    await page.click('[data-testid="compare-open"]');
    await page.waitForSelector('[data-testid="compare-dialog"]');
  }
  await page.fill('[data-testid="compare-b"]', b);
  await page.click('[data-testid="compare-run"]');
  await page.waitForSelector('[data-testid="reach-diff"] h3 .badge', { timeout: 120_000 });
}

describe('Compare: what a blocked port changed in reachability (generated pair, 1280×800)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-e2e-reach-pair-'));
    gen(path.join(dir, 'before'));
    gen(path.join(dir, 'after'), '--fault', 'blocked-port');
    ({ page, errors, close } = await openNode(path.join(dir, 'before'), { allow: [dir], width: 1280, height: 800 }));
    await page.waitForSelector('[data-testid="compare-open"]', { timeout: 60_000 });
    await compare(page, path.join(dir, 'after'));
  }, 240_000);

  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the changed classes, each with its source, packets and both outcomes', async () => {
    await page.locator('[data-testid="reach-diff"]').scrollIntoViewIfNeeded();
    await shot(page, 'reach-compare-list');
    const lines = page.locator('[data-testid="reach-change"]');
    expect(await lines.count()).toBeGreaterThan(0);
    const labels = await lines.evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label') ?? '', e.getAttribute('data-kind')] as const));
    for (const [l] of labels) expect(l).toMatch(/^From .+ to .+ (TCP|UDP|ICMP): before .+; after .+$/);
    // A blocked port makes things worse: some packet got through before and is dropped after.
    expect(labels.some(([l, k]) => k === 'worse' && /after dropped/.test(l))).toBe(true);
  });

  it('filters what got worse, and by words', async () => {
    await page.click('[data-testid="reach-diff-filter-worse"]');
    const kinds = await page.locator('[data-testid="reach-change"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['worse']));
    await page.fill('[data-testid="reach-diff-search"]', 'no-such-pod');
    expect(await page.locator('[data-testid="reach-change"]').count()).toBe(0);
    await page.fill('[data-testid="reach-diff-search"]', '');
  });

  it('arrows move in the list, Enter opens both walks side by side with the deciding hop lit, Esc closes them', async () => {
    const list = page.locator('[data-testid="reach-diff-list"]');
    await list.focus();
    await page.keyboard.press('ArrowDown');
    const current = page.locator('[data-testid="reach-change"][aria-selected="true"]');
    expect(await current.getAttribute('data-index')).toBe('1');
    await page.keyboard.press('ArrowUp');
    expect(await current.getAttribute('data-index')).toBe('0');
    const label = (await current.getAttribute('aria-label'))!;
    const before = /before (\S+)/.exec(label)![1];
    const after = /after (\S+)/.exec(label)![1];
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="reach-walks"]');
    await page.waitForSelector('[data-testid="reach-walk-a"][data-verdict]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="reach-walk-b"][data-verdict]', { timeout: 60_000 });
    // Each side walks its own bundle to the outcome the list says.
    expect(await page.getAttribute('[data-testid="reach-walk-a"]', 'data-verdict')).toBe(before.replace(/[,;]$/, ''));
    expect(await page.getAttribute('[data-testid="reach-walk-b"]', 'data-verdict')).toBe(after.replace(/[,;]$/, ''));
    expect(await page.locator('[data-testid="reach-walk-deciding-a"]').count()).toBe(1);
    expect(await page.locator('[data-testid="reach-walk-deciding-b"]').count()).toBe(1);
    await shot(page, 'reach-compare-walks');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="reach-walks"]', { state: 'detached' });
    expect(await page.locator('[data-testid="compare-dialog"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('Compare: the demo against itself changes no reachability', () => {
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const demo = path.join(repo, 'assets/demo/l2bridge-node');
    ({ page, close } = await openNode(demo, { allow: [path.dirname(demo)], width: 1280, height: 800 }));
    await page.waitForSelector('[data-testid="compare-open"]', { timeout: 60_000 });
    await compare(page, demo);
  }, 240_000);

  afterAll(() => close?.());

  it('says no change, having compared every source', async () => {
    expect(await page.textContent('[data-testid="reach-diff"] h3 .badge')).toBe('no change');
    expect(await page.locator('[data-testid="reach-change"]').count()).toBe(0);
    const [done, all] = /(\d+) of (\d+) sources compared/.exec((await page.textContent('[data-testid="reach-diff"] h3'))!)!.slice(1).map(Number);
    expect(done).toBe(all);
    expect(all).toBeGreaterThan(0);
  });
});
