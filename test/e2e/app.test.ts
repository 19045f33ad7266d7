// The main journey on the l2bridge demo node: summary, topology, Ctrl+K to a pod by IP, its VFP
// rules with file:line, the excerpt, a rule hit, the inventory, the theme.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cameraSettled, expectOnCanvas, nodeSelector, openNode, shot } from './helpers.ts';

const POD_IP = '10.244.32.3';
// The pod's graph node (its HNS endpoint ID in assets/demo/l2bridge-node/endpoint.txt).
const POD_NODE = 'endpoint:2b34f52c-f614-4a59-a635-1dbfbe7b3d80';

describe('hnsight on the l2bridge demo node', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    // The real command: `hnsight serve <bundle>` as users start it.
    ({ page, errors, close } = await openNode('assets/demo/l2bridge-node', { process: true }));
  });

  afterAll(() => close?.());

  it('opens the bundle given on the command line and shows its summary', async () => {
    await page.waitForSelector('[data-testid="summary"]');
    expect(await page.textContent('[data-testid="summary-host"]')).toBe('win-fl-l2b-01');
    const summary = await page.textContent('[data-testid="summary"]');
    expect(summary).toContain('10.0.20348');
    expect(summary).toContain('get-rule-counter');
    expect(summary).toContain('VFP rules');
    expect(await page.textContent('[data-testid="node-facts"]')).toContain('schema v2');
    await shot(page, 'l2bridge-summary');
    await page.click('[data-testid="summary-close"]');
    await page.waitForSelector('[data-testid="summary"]', { state: 'detached' });
  });

  it('draws the topology', async () => {
    await page.waitForSelector('.react-flow__node', { timeout: 30_000 });
    // The graph is laid out in the worker; wait until the arranging notice is gone.
    await page.waitForFunction(() => !document.querySelector('.graph-status'), undefined, { timeout: 30_000 });
    // The whole model is laid out (the toolbar counts what is drawn, on screen or not), and the
    // camera has placed the first view.
    const stats = (await page.textContent('[data-testid="graph-stats"]'))!;
    expect(Number(/^([\d,]+) nodes/.exec(stats)![1].replace(/,/g, ''))).toBeGreaterThan(5);
    await cameraSettled(page, 'place');
    expect(await page.locator('.react-flow__node').count()).toBeGreaterThan(0);
    await shot(page, 'l2bridge-topology');
  });

  it('opens a pod’s port and compartment from the keyboard and folds them again', async () => {
    // Every pod is drawn as its endpoint, its VFP port and compartment folded: → opens the port,
    // → again the compartment around the pod; the compartment's header folds it, ← the port.
    await page.locator(nodeSelector(POD_NODE)).focus();
    await page.keyboard.press('ArrowRight');
    const port = page.locator('.react-flow__node.kind-vfp-port');
    await port.first().waitFor();
    expect(await port.count()).toBe(1);
    expect(await port.locator('.tnode-label').textContent()).toMatch(/^VFP port [0-9a-f]{8}…$/i);
    await page.keyboard.press('ArrowRight');
    const group = page.locator('.react-flow__node-topoGroup');
    await group.first().waitFor();
    expect(await group.count()).toBe(1);
    expect(await group.getAttribute('data-id')).toMatch(/^compartment:\d+$/);
    const g = (await group.boundingBox())!;
    for (const inside of [page.locator(nodeSelector(POD_NODE)), port]) {
      const b = (await inside.boundingBox())!;
      expect(b.x >= g.x && b.y >= g.y && b.x + b.width <= g.x + g.width && b.y + b.height <= g.y + g.height).toBe(true);
    }
    await group.locator('.tgroup-head').click();
    await group.waitFor({ state: 'detached' });
    await page.locator(nodeSelector(POD_NODE)).focus();
    await page.keyboard.press('ArrowLeft');
    await port.waitFor({ state: 'detached' });
    await page.keyboard.press('f');
  });

  it('finds a pod by IP with Ctrl+K and Enter, and shows its VFP rules with file:line', async () => {
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type(POD_IP);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    await page.waitForFunction((ip) => document.querySelector('[data-testid="inspector-title"]')?.textContent === ip, POD_IP);
    await page.waitForSelector('[data-testid="policy"]');
    const lbRule = page.locator('li.rule', { hasText: 'LB_DSR_' }).first();
    await lbRule.waitFor();
    expect(await lbRule.textContent()).toContain('lbnat');
    const src = lbRule.locator('.src-link');
    expect(await src.textContent()).toMatch(/^vfpOutput\.txt:\d+$/);
    // The graph zooms to the pod (only what is on screen is drawn) and highlights it.
    expect(await cameraSettled(page, `focus:${POD_NODE}`)).toEqual([POD_NODE]);
    await expectOnCanvas(page, [POD_NODE]);
    expect(await page.locator('.tnode.is-selected').count()).toBe(1);
    expect(await page.textContent(`${nodeSelector(POD_NODE)} .tnode.is-selected .tnode-label`)).toBe(POD_IP);
    await shot(page, 'l2bridge-pod-inspector');

    await src.click();
    await page.waitForSelector('[data-testid="excerpt"] .code-line.focus');
    expect(await page.textContent('[data-testid="excerpt"] .code-line.focus')).toContain('LB_DSR_');
    await shot(page, 'l2bridge-excerpt');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="excerpt"]', { state: 'detached' });
  });

  it('opens a rule hit on its port, scrolled to the rule', async () => {
    await page.click('[data-testid="search-trigger"]');
    await page.keyboard.type('LB_DSR');
    // The hits of the first letters typed ("LB_") show first and are then replaced in place, row by
    // row: a hit read, or clicked, before that would be another rule on another port by the time
    // the click lands. Take one once the list answers the whole query and no search is pending.
    await page.locator('[data-testid="palette-results"][data-hits-for="LB_DSR"][aria-busy="false"]').waitFor();
    const ruleHit = page.locator('.hit-group[aria-label="VFP rules"] [data-testid="hit"]', { has: page.locator('.hit-text', { hasText: 'LB_DSR' }) }).first();
    const name = (await ruleHit.locator('.hit-text').textContent())!;
    await ruleHit.click();
    // The port's policy is drawn after the click; an earlier step may have left another rule focused
    // until then, so wait for this one, then check it is the only one.
    await page.locator('li.rule.focused .rule-name', { hasText: name }).first().waitFor();
    expect(await page.locator('li.rule.focused .rule-name').allTextContents()).toEqual([name]);
  });

  it('filters a port’s rules', async () => {
    await page.fill('[data-testid="rule-filter"]', 'EXCEPTIONS_OUTBOUNDNAT');
    const names = await page.locator('li.rule .rule-name').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.includes('EXCEPTIONS_OUTBOUNDNAT'))).toBe(true);
  });

  it('lists endpoints in the inventory and selects one', async () => {
    await page.click('[data-testid="view-inventory"]');
    await page.waitForSelector('[data-testid="table-endpoints"] [role="row"][aria-selected]');
    await page.fill('[data-testid="inventory-filter"]', '10.244.32.4');
    await page.locator('[data-testid="table-endpoints"] [role="row"][aria-selected]').first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="inspector-title"]')?.textContent === '10.244.32.4');
    await shot(page, 'l2bridge-inventory');
  });

  it('switches theme and remembers it', async () => {
    const before = await page.getAttribute('html', 'data-theme');
    await page.click('[data-testid="theme-toggle"]');
    const after = await page.getAttribute('html', 'data-theme');
    expect(after).not.toBe(before);
    expect(await page.evaluate(() => localStorage.getItem('hnsight.theme'))).toBe(after);
    await page.click('[data-testid="view-topology"]');
    await shot(page, `l2bridge-topology-${after}`);
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
