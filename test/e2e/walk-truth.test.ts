// The walk panel says everything the walk knows, on a bundle nobody here generated: the hand-written
// WS2019 flannel node (test/fixtures/foreign) with two walk scenarios applied — a rule of a type
// hnsight does not model (a17) and two load-balancing rules of equal priority (a09). The verdict says
// what it depends on and which hop, an ambiguous hop says the outcome is undefined, a documented
// Windows limit comes with its source, and the reply is walked as a walk of its own with its hops lit
// on the graph. IPv6 addresses are typed as a person writes them (the dual-stack base).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { graphIds, graphReady, openNode, shot } from './helpers.ts';
import { readScenario, scenarioBundle } from '../helpers/scenario-bundle.ts';

const DUALSTACK = 'test/fixtures/walk-scenarios/bases/dualstack-l2bridge';

const POD = '10.244.3.5';

/** Walks from the form and waits for the verdict of this flow (`flow` as the verdict's data-flow writes it). */
async function walk(page: Page, src: string, dst: string, proto: 'tcp' | 'udp' | 'icmp', flow: string): Promise<void> {
  await page.fill('[data-testid="walk-src"]', src);
  await page.fill('[data-testid="walk-dst"]', dst);
  await page.click(`[data-testid="proto-${proto}"]`);
  await page.click('[data-testid="walk-run"]');
  await page.waitForSelector(`[data-testid="verdict"][data-flow="${flow}"]`);
}

describe('the walk’s whole truth on a foreign WS2019 node', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let bundle: string;

  beforeAll(async () => {
    bundle = scenarioBundle(['a17-unknown-type-unmodelled', 'a09-equal-priority-overlap']);
    ({ page, errors, close } = await openNode(bundle, { width: 1280, height: 800 }));
    await graphReady(page);
    await page.click('[data-testid="view-walk"]');
    await page.waitForSelector('[data-testid="walk-panel"]');
  });

  afterAll(async () => {
    await close?.();
    if (bundle) rmSync(path.dirname(bundle), { recursive: true, force: true });
  });

  it('says the verdict depends on a rule hnsight does not model, and which one', async () => {
    await walk(page, POD, '192.168.30.50:22', 'tcp', `${POD} → 192.168.30.50:22/TCP`);
    const verdict = page.locator('[data-testid="verdict"]');
    expect(await verdict.getAttribute('data-verdict')).toBe('forwarded');
    // Not the plain colour of a forwarded packet: the outcome rests on something hnsight cannot read.
    expect(await verdict.getAttribute('data-tone')).toBe('warning');
    const flag = page.locator('[data-testid="verdict-unmodelled"]');
    expect(await flag.textContent()).toMatch(/^Depends on a rule hnsight does not model — hop \d+: EXCEPTIONS_OUTBOUNDNAT_20EB0_192\.168\.30\.21192\.168\.30\.0\. A real node may do something else there\.$/);
    expect(await page.locator('[data-testid="walk-caveat"][data-kind="unmodelled"]').count()).toBe(1);
    // The flag leads to the hop, which says what is not modelled.
    const link = page.locator('[data-testid="unmodelled-hop"]');
    const n = Number(/hop (\d+)/.exec((await link.textContent()) ?? '')![1]);
    await link.click();
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe(String(n));
    const current = page.locator('[data-testid="hop"][aria-current="step"]');
    expect(await current.locator('[data-testid="hop-mark-unmodelled"]').count()).toBe(1);
    expect(await current.locator('[data-testid="hop-unmodelled"]').textContent()).toMatch(/^not modelled: .*redirect/);
    expect(await current.locator('[data-testid="matched-rule"]').textContent()).toContain('redirect');
  });

  it('marks the hop where two rules of equal priority match: the outcome is undefined on a real node', async () => {
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type(`${POD} -> 10.102.220.146:80/tcp`);
    await page.waitForSelector('[data-testid="walk-hit"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    await page.waitForSelector(`[data-testid="verdict"][data-flow="${POD} → 10.102.220.146:80/TCP"]`);
    await page.waitForSelector('[data-testid="walk-caveat"][data-kind="ambiguous"]');
    const hop = page.locator('[data-testid="hop"]', { has: page.locator('[data-testid="hop-mark-ambiguous"]') });
    expect(await hop.count()).toBe(1);
    await hop.locator('.hop-head').click();
    const text = await hop.locator('[data-testid="hop-ambiguous"]').textContent();
    expect(text).toContain('LB_DUP42_192.168.30.21_10.102.220.146_80_80_6');
    expect(text).toMatch(/Which one a real node applies is undefined/);
  });

  it('gives a documented Windows limit with its source', async () => {
    await walk(page, POD, '93.184.216.34', 'icmp', `${POD} → 93.184.216.34/ICMP`);
    const caveat = page.locator('[data-testid="walk-caveat"][data-kind="icmp"]');
    await caveat.waitFor();
    // Forwarded, but the answer cannot come back: not shown in the plain colour of a forwarded packet.
    expect(await page.getAttribute('[data-testid="verdict"]', 'data-verdict')).toBe('forwarded');
    expect(await page.getAttribute('[data-testid="verdict"]', 'data-tone')).toBe('warning');
    const src = caveat.locator('[data-testid="caveat-source"]');
    expect(await src.getAttribute('href')).toBe('https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations');
    expect(await src.getAttribute('target')).toBe('_blank');
    await page.evaluate(() => document.querySelector('[data-testid="walk-panel"]')!.scrollTo(0, 0));
    await shot(page, 'walk-caveats-1280x800');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'walk-caveats-1920x1080');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('walks the reply as a walk of its own, its hops lit on the graph, and goes back to the request', async () => {
    // With a walk shown the presets are folded away.
    expect(await page.locator('[data-testid="preset-pod-to-service"]').isVisible()).toBe(false);
    await page.click('[data-testid="walk-presets"] > summary');
    await page.click('[data-testid="preset-pod-to-service"]');
    await page.waitForSelector(`[data-testid="verdict"][data-flow="${POD} → 10.96.0.10:53/UDP"]`);
    await page.waitForSelector('[data-testid="walk-the-reply"]');
    // The request starts at the pod.
    const pod = await graphIds(page, 'current-ids');
    expect(pod.length).toBe(1);
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('2');
    await page.click('[data-testid="walk-the-reply"]');
    await page.waitForSelector('[data-testid="reply-bar"]');
    expect(await page.textContent('[data-testid="reply-bar"]')).toMatch(/The reply UDP 10\.244\.\d+\.\d+:53 → 10\.244\.3\.5:49152/);
    expect(await page.getAttribute('[data-testid="verdict"]', 'data-verdict')).toBe('delivered');
    expect(await page.textContent('[data-testid="hop-nav"]')).toMatch(/reply hop 1 of (\d+)/);
    const hops = await page.locator('[data-testid="hop"]').count();
    // At least one layer let the answer through by the request's flow state, not by a rule.
    expect(await page.locator('[data-testid="hop-mark-flow"]').count()).toBeGreaterThanOrEqual(1);
    // Stepped to its end with the keys, the reply lights the pod it comes back to.
    for (let i = 1; i < hops; i++) await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe(String(hops));
    expect(await graphIds(page, 'current-ids')).toEqual(expect.arrayContaining(pod));
    expect(await graphIds(page, 'lit-ids')).toEqual(expect.arrayContaining(pod));
    await shot(page, 'walk-reply-1280x800');
    await page.click('[data-testid="walk-back-to-request"]');
    await page.waitForSelector('[data-testid="reply-bar"]', { state: 'detached' });
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('2');
    expect(await page.getAttribute('[data-testid="verdict"]', 'data-verdict')).toBe('forwarded');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});

describe('IPv6 walks typed as a person writes them', () => {
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // The hand-written dual-stack base (test/fixtures/walk-scenarios/bases) as it is: scenario d01 has
    // no edits, so its bundle is the base itself, opened on the worker's shared server (the walks only
    // read it; test/e2e/reach-v6.test.ts opens it there too).
    expect(readScenario('d01-dualstack-v6-pod-pod')).toMatchObject({ base: 'bases/dualstack-l2bridge', edits: [] });
    ({ page, close } = await openNode(DUALSTACK, { width: 1280, height: 800, shared: true }));
    await graphReady(page);
    await page.click('[data-testid="view-walk"]');
  });

  afterAll(async () => {
    await close?.();
  });

  it('takes [fd00::…]:port and a bare IPv6 address', async () => {
    await walk(page, 'fd00:10:244:5::a', '[fd00:10:244:5::b]:8080', 'tcp', 'fd00:10:244:5::a → [fd00:10:244:5::b]:8080/TCP');
    expect(await page.getAttribute('[data-testid="verdict"]', 'data-verdict')).toBe('delivered');
    // The form keeps the brackets: fd00:10:244:5::b:8080 would be another address.
    expect(await page.inputValue('[data-testid="walk-dst"]')).toBe('[fd00:10:244:5::b]:8080');
    expect(await page.textContent('[data-testid="verdict"]')).toContain('[fd00:10:244:5::b]:8080');
    await walk(page, 'fd00:10:244:5::a', 'fd00:10:244:5::b', 'icmp', 'fd00:10:244:5::a → fd00:10:244:5::b/ICMP');
    expect(await page.locator('.walk-error').count()).toBe(0);
    expect(await page.textContent('[data-testid="verdict"]')).toContain('ICMP fd00:10:244:5::a → fd00:10:244:5::b');
  });
});
