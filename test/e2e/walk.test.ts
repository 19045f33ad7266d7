// The packet walkthrough on the l2bridge demo: a preset pod → service walk, stepping through the hops
// with the keyboard, the lbnat rule in context with its file:line and the other DIPs, the lit path
// on the graph; the palette's “A -> B” walk, “Walk from here”, Alt+click picking; light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openApp, serve, shot, type Served, graphReady } from './helpers.ts';

const POD = '10.244.32.3';

describe('packet walk on the l2bridge demo node', () => {
  let server: Served;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launch();
    server = await serve(['assets/demo/l2bridge-node']);
    ({ page, errors } = await openApp(browser, server.url));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    await graphReady(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('walks pod → service from a preset and lights the path on the graph', async () => {
    await page.click('[data-testid="view-walk"]');
    await page.waitForSelector('[data-testid="walk-panel"]');
    await page.click('[data-testid="preset-pod-to-service"]');
    await page.waitForSelector('[data-testid="verdict"]');
    // The reply comes back from the VIP: the lbnat rule's flow pair translates it.
    expect(await page.textContent('[data-testid="walk-reply"]')).toMatch(/arrives as UDP 10\.96\.0\.10:53 → 10\.244\.32\.3/);
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/Forwarded/i);
    expect(await page.inputValue('[data-testid="walk-src"]')).toBe(POD);
    expect(await page.inputValue('[data-testid="walk-dst"]')).toBe('10.96.0.10:53');
    expect(await page.getAttribute('[data-testid="proto-udp"]', 'aria-checked')).toBe('true');
    // The path on the graph: numbered badges, the current hop emphasised, animated edges.
    await page.waitForSelector('.hop-badge');
    expect(await page.locator('.hop-badge').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('.react-flow__node.walk-current').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.react-flow__edge.walk-edge.animated').count()).toBeGreaterThanOrEqual(1);
  });

  it('steps through the hops with the keyboard to the lbnat rule, in context, with its DIP alternatives', async () => {
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('1');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('4');
    const matched = page.locator('[data-testid="matched-rule"]');
    expect(await matched.textContent()).toContain('LB_DSR_');
    expect(await matched.textContent()).toContain('lbnat');
    expect(await matched.locator('.src-link').textContent()).toMatch(/^vfpOutput\.txt:\d+$/);
    // The rule above it that did not match, and why.
    expect(await page.textContent('.rc-rule.skipped')).toContain('protocol 17');
    expect(await page.textContent('[data-testid="hop-inferred"]')).toMatch(/inferred: VFP picks one of 2 backends/);
    expect(await page.locator('[data-testid="dip-alt"]').allTextContents()).toEqual(['10.244.33.3:53']);
    expect(await page.textContent('[data-testid="packet-table"] tr.changed')).toContain('10.96.0.10');
    // The lbnat hop lights the source pod, the load balancer and the backend it chose; the camera follows the hop.
    const current = await page.locator('.react-flow__node.walk-current .tnode-label').allTextContents();
    expect(current).toContain('10.96.0.10:53/UDP');
    // (the backend it chose, 10.244.33.4, is lit too but may lie outside the viewport, where React Flow draws nothing)
    expect(current).toContain('10.244.32.3');
    await page.waitForTimeout(500);
    const box = (await page.locator('.react-flow__node.walk-current', { hasText: '10.96.0.10:53/UDP' }).boundingBox())!;
    const canvas = (await page.locator('.graph-wrap').boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    await shot(page, 'walk-pod-to-service-light');
    await page.keyboard.press('[');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('3');
    await page.keyboard.press(']');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('4');
  });

  it('opens the evidence line in the excerpt view', async () => {
    await page.locator('[data-testid="matched-rule"] .src-link').click();
    await page.waitForSelector('[data-testid="excerpt"] .code-line.focus');
    expect(await page.textContent('[data-testid="excerpt"] .code-line.focus')).toContain('LB_DSR_');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="excerpt"]', { state: 'detached' });
    // Esc closed the excerpt only: the walk is still there.
    expect(await page.locator('[data-testid="verdict"]').count()).toBe(1);
  });

  it('walks again with the other backend', async () => {
    await page.click('[data-testid="dip-alt"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="dip-alt"]')?.textContent === '10.244.33.4:53');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('4');
    expect(await page.textContent('[data-testid="packet-table"] tr.changed td:last-child')).toBe('10.244.33.3');
  });

  it('copies the walk as text', async () => {
    await page.click('[data-testid="walk-copy"]');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toContain('trace UDP 10.244.32.3:49152 → 10.96.0.10:53');
    expect(text).toMatch(/LB_DSR_\S+ \[lbnat\]/);
    expect(text).toContain('verdict: FORWARDED');
  });

  it('shows the walk in the dark theme', async () => {
    await page.click('[data-testid="theme-toggle"]');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.waitForTimeout(400);
    await shot(page, 'walk-pod-to-service-dark');
    await page.click('[data-testid="theme-toggle"]');
  });

  it('leaves the walk with Esc', async () => {
    await page.locator('.verdict-reason').click();
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="verdict"]', { state: 'detached' });
    expect(await page.locator('.hop-badge').count()).toBe(0);
  });

  it('walks “A -> B:port/proto” typed in the palette', async () => {
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type(`${POD} -> 93.184.216.34:443/tcp`);
    await page.waitForSelector('[data-testid="walk-hit"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="verdict"]');
    expect(await page.inputValue('[data-testid="walk-dst"]')).toBe('93.184.216.34:443');
    expect(await page.getAttribute('[data-testid="proto-tcp"]', 'aria-checked')).toBe('true');
    expect(await page.textContent('[data-testid="hop-list"]')).toMatch(/SNAT|OUTBOUNDNAT|uplink/i);
  });

  it('starts a walk from an endpoint in the inspector, and picks the destination with Alt+click', async () => {
    await page.keyboard.press('Escape');
    await page.click('[data-testid="view-topology"]');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('10.244.32.4');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="inspector-title"]')?.textContent === '10.244.32.4');
    await page.click('[data-testid="walk-from-here"]');
    await page.waitForSelector('[data-testid="walk-panel"]');
    expect(await page.inputValue('[data-testid="walk-src"]')).toBe('10.244.32.4');
    // Pick mode is on for the destination: the banner says so; Alt+click works as well.
    await page.waitForSelector('[data-testid="pick-banner"]');
    const target = page.locator('.react-flow__node', { has: page.locator('.tnode-label', { hasText: /^10\.244\.32\.3$/ }) });
    await target.click({ modifiers: ['Alt'] });
    expect(await page.inputValue('[data-testid="walk-dst"]')).toBe(POD);
    await page.click('[data-testid="walk-run"]');
    await page.waitForSelector('[data-testid="verdict"]');
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/Delivered/i);
    await page.waitForTimeout(500);
    await shot(page, 'walk-pod-to-pod-light');
  });

  it('says there are no problems on the healthy demo', async () => {
    await page.click('[data-testid="view-findings"]');
    await page.waitForSelector('[data-testid="no-problems"]');
    expect(await page.textContent('[data-testid="no-problems"]')).toContain('No problems found');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
