// Compare's Reachability part (issue #25 point 5) at 1280×800: a generated node before and after two
// faults (tools/gen-bundle.ts --fault blocked-port --fault exception-list-typo, same seed, 3 pods and 40
// Services: 330 changed classes) lists every packet class the faults changed — more than the 300 lines
// the list once stopped at — and says as many as `hnsight diff A B --reach --json` does; every one is
// reached by scrolling the (virtualised) list, grouped by source and then destination kind; "became
// dropped" keeps exactly the classes the CLI says became dropped; the list is keyboard navigable (↑↓,
// End, `/` to the words, Esc back); Enter opens both walks side by side — before on A, after on B —
// with the hop that decided lit and the findings on each path: the blocked port on B's walk only.
// The demo compared with itself changes nothing.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphReady, openNode, repo, shot } from './helpers.ts';
import { writeGenerated } from '../helpers/generated-bundle.ts';
import { runCli } from '../helpers/cli.ts';
import { changeWords, type ReachChangeLine } from '../../analysis/view-models/reach-diff-view.ts';

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
  await page.waitForSelector('[data-testid="reach-diff"] h3 .badge', { timeout: 180_000 });
}

/** Every change line of the virtualised list, by its index: scrolled from top to bottom. */
async function everyLine(page: Page): Promise<Map<number, { label: string; kind: string }>> {
  const list = page.locator('[data-testid="reach-diff-list"]');
  await list.evaluate((el) => (el.scrollTop = 0));
  const out = new Map<number, { label: string; kind: string }>();
  for (let i = 0; i < 2000; i++) {
    const seen = await list.locator('[data-testid="reach-change"]').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-index')), e.getAttribute('aria-label') ?? '', e.getAttribute('data-kind') ?? ''] as const));
    for (const [n, label, kind] of seen) out.set(n, { label, kind });
    const done = await list.evaluate((el) => {
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return true;
      el.scrollTop += Math.max(20, el.clientHeight - 40);
      return false;
    });
    if (done) {
      // The last slice drawn after the last scroll.
      await page.waitForTimeout(50);
      const last = await list.locator('[data-testid="reach-change"]').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-index')), e.getAttribute('aria-label') ?? '', e.getAttribute('data-kind') ?? ''] as const));
      for (const [n, label, kind] of last) out.set(n, { label, kind });
      break;
    }
    await page.waitForTimeout(20);
  }
  return out;
}

const sorted = (xs: string[]) => [...xs].sort();

describe('Compare: what two faults changed in reachability, every class listed (generated pair, 1280×800)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let dirs: string[] = [];
  let cli: ReachChangeLine[];

  beforeAll(async () => {
    // `npm run gen -- --seed 7 --pods 3 --services 40 [--fault …]`, written in this process.
    const size = { seed: 7, pods: 3, services: 40 };
    const before = await writeGenerated({ ...size }, {}, 'hnsight-e2e-reach-before-');
    const after = await writeGenerated({ ...size, faults: ['blocked-port', 'exception-list-typo'] }, {}, 'hnsight-e2e-reach-after-');
    dirs = [before.dir, after.dir];
    // What the CLI says first, alone (the app's comparison has a time bound: not shared with it); its
    // main() in this process (test/helpers/cli.ts), what `hnsight diff A B --reach --json` prints.
    const diff = await runCli('diff', before.bundle, after.bundle, '--reach', '--json');
    expect(diff.code, diff.stderr).toBe(0);
    cli = (JSON.parse(diff.stdout) as { changed: ReachChangeLine[] }).changed;
    ({ page, errors, close } = await openNode(before.bundle, { allow: [after.dir], width: 1280, height: 800 }));
    await page.waitForSelector('[data-testid="compare-open"]', { timeout: 60_000 });
    await compare(page, after.bundle);
  }, 420_000);

  afterAll(async () => {
    await close?.();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('says as many changed classes as the CLI, having compared every source', async () => {
    await page.locator('[data-testid="reach-diff"]').scrollIntoViewIfNeeded();
    await shot(page, 'reach-compare-list');
    const head = (await page.textContent('[data-testid="reach-diff"] h3'))!;
    const [done, all] = /(\d+) of (\d+) sources compared/.exec(head)!.slice(1).map(Number);
    expect(done, 'the app compared every source within its time bound').toBe(all);
    expect(cli.length).toBeGreaterThan(300);
    expect(Number(await page.getAttribute('[data-testid="reach-diff-count"]', 'data-count'))).toBe(cli.length);
    expect(Number(await page.getAttribute('[data-testid="reach-diff-shown"]', 'data-count'))).toBe(cli.length);
  });

  it('every class is reached by scrolling, grouped by source then destination kind: the same classes as the CLI', async () => {
    const lines = await everyLine(page);
    expect([...lines.keys()].sort((a, b) => a - b)).toEqual(cli.map((_, i) => i));
    expect(sorted([...lines.values()].map((l) => l.label))).toEqual(sorted(cli.map((c) => changeWords(c))));
    for (const { label } of lines.values()) expect(label).toMatch(/^From .+ to .+ (TCP|UDP|ICMP): before .+; after .+$/);
    // A blocked port makes things worse: some packet got through before and is dropped after.
    expect([...lines.values()].some((l) => l.kind === 'worse' && /after dropped/.test(l.label))).toBe(true);
    // Grouped: the list starts with a source's header, then a destination kind's, then its changes.
    await page.locator('[data-testid="reach-diff-list"]').evaluate((el) => (el.scrollTop = 0));
    await page.waitForSelector('[data-testid="reach-diff-source"]');
    const first = await page.locator('[data-testid="reach-diff-list"] [style*="top"]').evaluateAll((els) =>
      els
        .map((e) => [parseFloat((e as HTMLElement).style.top), e.getAttribute('data-testid')] as const)
        .sort((x, y) => x[0] - y[0])
        .slice(0, 3)
        .map(([, t]) => t),
    );
    expect(first).toEqual(['reach-diff-source', 'reach-diff-destination', 'reach-change']);
  });

  it('"became dropped" keeps exactly the classes that became dropped', async () => {
    await page.selectOption('[data-testid="reach-diff-became"]', 'dropped');
    const expected = cli.filter((c) => c.after.verdict === 'dropped' && c.before.verdict !== 'dropped');
    expect(expected.length).toBeGreaterThan(0);
    expect(Number(await page.getAttribute('[data-testid="reach-diff-shown"]', 'data-count'))).toBe(expected.length);
    const lines = await everyLine(page);
    expect(sorted([...lines.values()].map((l) => l.label))).toEqual(sorted(expected.map((c) => changeWords(c))));
    await page.selectOption('[data-testid="reach-diff-became"]', 'any');
  });

  it('filters what got worse, and by words', async () => {
    await page.click('[data-testid="reach-diff-filter-worse"]');
    const kinds = await page.locator('[data-testid="reach-change"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['worse']));
    await page.fill('[data-testid="reach-diff-search"]', 'no-such-pod');
    expect(await page.locator('[data-testid="reach-change"]').count()).toBe(0);
    await page.fill('[data-testid="reach-diff-search"]', '');
    await page.click('[data-testid="reach-diff-filter-all"]');
  });

  it('keys: arrows and End move in the list, / goes to the words, Esc clears them and goes back', async () => {
    const list = page.locator('[data-testid="reach-diff-list"]');
    await list.focus();
    const current = page.locator('[data-testid="reach-change"][aria-selected="true"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    expect(await current.getAttribute('data-index')).toBe('1');
    await page.keyboard.press('End');
    await page.waitForFunction((n) => document.querySelector('[data-testid="reach-change"][aria-selected="true"]')?.getAttribute('data-index') === String(n), cli.length - 1);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('reach-diff-search');
    await page.keyboard.type('no-such-pod');
    expect(await page.locator('[data-testid="reach-change"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.inputValue('[data-testid="reach-diff-search"]')).toBe('');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('reach-diff-list');
    // Esc in the words never closed the comparison.
    expect(await page.locator('[data-testid="compare-dialog"]').count()).toBe(1);
    await page.keyboard.press('Home');
    expect(await current.getAttribute('data-index')).toBe('0');
  });

  it('Enter opens both walks side by side, the deciding hop lit and the blocked port on the after walk only; Esc closes them', async () => {
    await page.click('[data-testid="reach-diff-filter-worse"]');
    await page.fill('[data-testid="reach-diff-search"]', 'after dropped');
    const list = page.locator('[data-testid="reach-diff-list"]');
    await list.focus();
    await page.keyboard.press('Home');
    const current = page.locator('[data-testid="reach-change"][aria-selected="true"]');
    const label = (await current.getAttribute('aria-label'))!;
    // The verdict before: "delivered", "forwarded" or "delivered or forwarded" (a worse change got through).
    const before = /before (.+?)(?: by rule|, reply|;)/.exec(label)![1];
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="reach-walks"]');
    await page.waitForSelector('[data-testid="reach-walk-a"][data-verdict]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="reach-walk-b"][data-verdict]', { timeout: 60_000 });
    // Each side walks its own bundle to the outcome the list says (a class "delivered or forwarded" walks to one of the two).
    const a = (await page.getAttribute('[data-testid="reach-walk-a"]', 'data-verdict'))!;
    expect(before.split(' or ')).toContain(a);
    expect(await page.getAttribute('[data-testid="reach-walk-b"]', 'data-verdict')).toBe('dropped');
    expect(await page.locator('[data-testid="reach-walk-deciding-a"]').count()).toBe(1);
    expect(await page.locator('[data-testid="reach-walk-deciding-b"]').count()).toBe(1);
    // The findings on each path: B's checks flag the blocked port, on B's walk; A has no such finding.
    const bFindings = page.locator('[data-testid="reach-walk-findings-b"] [data-testid="path-finding"]');
    const bTitles = await bFindings.evaluateAll((els) => els.map((e) => [e.getAttribute('data-severity'), e.textContent ?? ''] as const));
    expect(bTitles.some(([sev, t]) => sev === 'error' && /blocked/i.test(t))).toBe(true);
    expect(await page.textContent('[data-testid="reach-walk-verdict-b"] strong')).toMatch(/^Dropped, and .*blocked/i);
    const aTitles = await page.locator('[data-testid="reach-walk-a"] [data-testid="path-finding"]').allTextContents();
    expect(aTitles.some((t) => /blocked/i.test(t))).toBe(false);
    // The defect note is for a walk that contradicts its class, not for this one.
    expect(await page.locator('[data-testid="reach-walks"] .note.warning').count()).toBe(0);
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
    // The shipped demos may be opened by path in browser mode (services/backend/backend.ts grants them):
    // the worker's server of the demo compares it with itself.
    ({ page, close } = await openNode(demo, { shared: true, width: 1280, height: 800 }));
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
