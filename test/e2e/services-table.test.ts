// The Services table (issue #26 point 3) at 1280×800 on a generated Flannel host-gw node with a kubectl
// snapshot and one injected Service fault (the generator's `stale-backend`: a load balancer still sends
// to a pod that is gone; what it injected is read from its ground truth, --expected). The faulty
// Service's rows are red with their state; a row opens its evidence (the file viewer at the line) and
// a walk from a local pod to its VIP (the walk panel, the path lit on the graph). The table is
// virtualised, sortable, filterable (words, state chips) and driven from the keyboard (/ ↑ ↓ Enter Esc).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphIds, graphReady, openNode, shot } from './helpers.ts';
import { writeGenerated } from '../helpers/generated-bundle.ts';
import type { GeneratedNode } from '../../tools/gen/index.ts';

const ROW = '[data-testid="services-row"]';
const SERVICES = 200;

describe('the Services table (generated node, a stale backend injected, 1280×800)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let dir: string;
  let svc: string;
  let staleIp: string;

  beforeAll(async () => {
    // What `npm run gen -- --platform flannel-host-gw --services 200 --fault stale-backend --expected FILE`
    // writes, written in this process (test/helpers/generated-bundle.ts).
    let bundle: string;
    let node: GeneratedNode;
    ({ dir, bundle, node } = await writeGenerated({ platform: 'flannel-host-gw', services: SERVICES, faults: ['stale-backend'] }, {}, 'hnsight-e2e-svc-'));
    const f = node.expected.faults.find((x) => x.name === 'stale-backend')!;
    [svc, staleIp] = f.objects as [string, string];
    ({ page, errors, close } = await openNode(bundle, { width: 1280, height: 800 }));
    await graphReady(page);
    await page.click('[data-testid="view-services"]');
    await page.waitForSelector('[data-testid="services-grid"]', { timeout: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('puts the injected Service first, red, with its state; the others are realised', async () => {
    await shot(page, 'services-table');
    const first = page.locator(ROW).first();
    expect(await first.getAttribute('data-tone')).toBe('bad');
    expect(await first.getAttribute('data-state')).toBe('stale backends');
    expect(await first.getAttribute('data-key')).toMatch(new RegExp(`^${svc.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\|`));
    const bg = await first.evaluate((e) => getComputedStyle(e).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r! - Math.max(g!, b!)).toBeGreaterThan(10);
    const states = await page.locator(ROW).evaluateAll((els) => els.map((e) => [e.getAttribute('data-key'), e.getAttribute('data-state')]));
    for (const [key, state] of states) if (!key!.startsWith(`${svc}|`)) expect(state, key!).toBe('realised');
    expect(await page.textContent('[data-testid="services-count"]')).toMatch(/Service ports · [1-9]\d* not realised/);
  });

  it('is virtualised: the DOM holds the lines in sight, not every Service port', async () => {
    const total = await page.locator('[data-testid="services-grid"]').evaluate((g) => Number(g.getAttribute('aria-rowcount')) - 1);
    expect(total).toBeGreaterThan(SERVICES);
    const inDom = await page.locator('[data-testid="services-grid"] [role="row"][data-line]').count();
    const box = (await page.locator('[data-testid="services-grid"]').boundingBox())!;
    expect(inDom).toBeLessThanOrEqual(Math.ceil(box.height / 28) + 2 * 8 + 2);
    expect(inDom).toBeLessThan(total);
  });

  it('a column header sorts, and again the other way', async () => {
    // The ports of the first namespace's rows in sight (rows sort within their namespace).
    const ports = () =>
      page.locator(ROW).evaluateAll((els) => {
        const ns = (k: string | null) => (k ?? '').split('/')[0];
        const first = ns(els[0]?.getAttribute('data-key') ?? null);
        return els.filter((e) => ns(e.getAttribute('data-key')) === first).map((e) => Number(/\d+/.exec(e.querySelector('.svc-col-port')?.textContent ?? '')?.[0]));
      });
    await page.click('[data-testid="services-sort-port"]');
    const asc = await ports();
    expect(await page.getAttribute('.svc-col-port[role="columnheader"]', 'aria-sort')).toBe('ascending');
    await page.click('[data-testid="services-sort-port"]');
    expect(await page.getAttribute('.svc-col-port[role="columnheader"]', 'aria-sort')).toBe('descending');
    const desc = await ports();
    expect(asc.length).toBeGreaterThan(1);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await page.click('[data-testid="services-sort-state"]');
  });

  it('the "not realised" chip keeps only red rows', async () => {
    await page.click('[data-testid="services-chip-not-realised"]');
    const tones = await page.locator(ROW).evaluateAll((els) => els.map((e) => e.getAttribute('data-tone')));
    expect(tones.length).toBeGreaterThan(0);
    expect(new Set(tones)).toEqual(new Set(['bad']));
    await shot(page, 'services-table-not-realised');
    await page.click('[data-testid="services-chip-not-realised"]');
  });

  it('/ focuses the filter; the words narrow the table; ↓ and Enter open the row; its evidence opens the file viewer', async () => {
    await page.locator('[data-testid="services-grid"] [role="row"][tabindex="0"]').focus();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('services-filter');
    await page.keyboard.type(svc.split('/')[1]!);
    const keys = await page.locator(ROW).evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toContain(svc.split('/')[1]!);
    await page.keyboard.press('ArrowDown'); // into the table: the namespace's line
    await page.keyboard.press('ArrowDown'); // the first row: the injected Service
    await page.keyboard.press('Enter');
    const detail = page.locator('[data-testid="service-detail"]');
    await detail.waitFor();
    expect(await page.textContent('[data-testid="service-detail-state"]')).toBe('stale backends');
    expect(await detail.textContent()).toContain(staleIp);
    await shot(page, 'services-table-detail');
    const ev = page.locator('[data-testid="service-evidence"]', { hasText: 'policy.txt' }).first();
    const where = (await ev.locator('.ev-loc').textContent())!;
    await ev.click();
    await page.waitForSelector('[data-testid="excerpt"]');
    expect(await page.textContent('[data-testid="excerpt"]')).toContain(where.split(':')[0]!);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="excerpt"]', { state: 'detached' });
    // Esc with the row open closes it, and the keyboard carries on from the row.
    await page.locator('[data-testid="services-grid"] [role="row"][tabindex="0"]').focus();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('services-row');
  });

  it('a row opens a walk from a local pod to its VIP:port: the walk panel\'s flow is the row\'s, the path lit', async () => {
    await page.keyboard.press('Enter');
    const walk = page.locator('[data-testid="service-walk"]');
    await walk.waitFor();
    const flow = (await walk.locator('.mono').textContent())!;
    await walk.click();
    const verdict = page.locator('[data-testid="verdict"]');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.getAttribute('data-flow')).toBe(flow);
    await page.waitForFunction(() => !!document.querySelector('[data-testid="graph"]')?.getAttribute('data-lit-ids'));
    expect((await graphIds(page, 'lit-ids')).length).toBeGreaterThan(0);
    await shot(page, 'services-table-walk');
    expect(errors).toEqual([]);
  });
});

describe('the Services table of a bundle without a kubectl snapshot', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let dir: string;

  beforeAll(async () => {
    // `npm run gen -- --platform flannel-host-gw --no-kubectl`, in this process.
    let bundle: string;
    ({ dir, bundle } = await writeGenerated({ platform: 'flannel-host-gw' }, { kubectl: false }, 'hnsight-e2e-svc0-'));
    ({ page, errors, close } = await openNode(bundle, { width: 1280, height: 800 }));
    await graphReady(page);
    await page.click('[data-testid="view-services"]');
  }, 180_000);

  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says in words that a snapshot is needed, and the command that collects it', async () => {
    const empty = page.locator('[data-testid="services-empty"]');
    await empty.waitFor({ timeout: 60_000 });
    expect(await empty.textContent()).toMatch(/^Insufficient information: needs a kubectl snapshot/);
    expect(await empty.locator('code').textContent()).toContain('kubectl get pods,services,endpointslices,nodes,networkpolicies -A -o json');
    expect(await page.locator('[data-testid="services-grid"]').count()).toBe(0);
    await shot(page, 'services-table-no-snapshot');
    expect(errors).toEqual([]);
  });
});
