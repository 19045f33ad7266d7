// The packet walkthrough on the l2bridge demo: a preset pod → service walk, stepping through the hops
// with the keyboard, the lbnat rule in context with its file:line and the other DIPs, the lit path
// on the graph; the palette's “A -> B” walk, “Walk from here”, Alt+click picking; light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { cameraSettled, expectOnCanvas, graphIds, graphReady, nodeSelector, openApp, openNode, shot, type Served } from './helpers.ts';

const POD = '10.244.32.3';
// Graph node ids of the demo's objects (HNS IDs in assets/demo/l2bridge-node/endpoint.txt and
// policy.txt): the source pod, the kube-dns UDP load balancer, the backend its hash picks first.
const POD_NODE = 'endpoint:2b34f52c-f614-4a59-a635-1dbfbe7b3d80';
const DNS_UDP_LB = 'loadbalancer:b16d1236-e093-44bd-b7d9-dbf2921c6fd1';
const BACKEND_NODE = 'endpoint:6f5467a7-5ed5-459c-b33c-e5f1290b35d8';
const OTHER_BACKEND_NODE = 'endpoint:48e68a6a-86c9-4f2c-81a6-a962bea56567';
const POD_2 = '10.244.32.4';
const POD_2_NODE = 'endpoint:339027a6-f184-4c6b-a2c6-25f56ebd1517';

describe('packet walk on the l2bridge demo node', () => {
  let server: Served;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, server, page, errors, close } = await openNode('assets/demo/l2bridge-node', { clipboard: true, shared: true }));
    await graphReady(page);
  });

  afterAll(() => close?.());

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
    // What the walk lights, in the graph's own account (React Flow draws only what is on screen):
    // the pod, the service's load balancer and its backend; the first hop is the pod's.
    const lit = await graphIds(page, 'lit-ids');
    expect(lit).toEqual(expect.arrayContaining([POD_NODE, DNS_UDP_LB, BACKEND_NODE]));
    expect(await graphIds(page, 'current-ids')).toEqual([POD_NODE]);
    // The camera brings the path into view (or, when it only fits below a readable zoom, the
    // current hop); once it is still, what it shows is drawn lit, with hop badges.
    const shows = await cameraSettled(page, 'walk');
    expect(shows.length).toBeGreaterThan(0);
    expect(lit).toEqual(expect.arrayContaining(shows));
    await expectOnCanvas(page, shows);
    for (const id of shows) {
      expect(await page.getAttribute(nodeSelector(id), 'class')).toContain('walk-lit');
      expect(await page.locator(`${nodeSelector(id)} [data-testid="hop-badge"]`).count()).toBe(1);
    }
    expect(await page.getAttribute(nodeSelector(POD_NODE), 'class')).toContain('walk-current');
    // The pod's walked edge to the load balancer touches a drawn node, so React Flow draws it: bold
    // (at least 4 screen pixels), over everything else dimmed. Read in one pass over the page: React
    // Flow may replace an edge's element between finding it and reading it, and a detached element
    // has no computed style.
    const styles = await page.evaluate(() => ({
      walked: [...document.querySelectorAll('.react-flow__edge.walk-edge .react-flow__edge-path')].map((p) => parseFloat(getComputedStyle(p).strokeWidth)),
      others: [...document.querySelectorAll('.react-flow__edge:not(.walk-edge) .react-flow__edge-path')].map((p) => Number(getComputedStyle(p).opacity)),
    }));
    expect(styles.walked.length).toBeGreaterThanOrEqual(1);
    expect(styles.walked[0]).toBeGreaterThanOrEqual(4);
    expect(styles.others.length).toBeGreaterThanOrEqual(1);
    expect(styles.others[0]).toBeLessThan(0.5);
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
    // The lbnat hop lights the source pod, the load balancer and the backend it chose.
    expect(await graphIds(page, 'current-ids')).toEqual([POD_NODE, DNS_UDP_LB, BACKEND_NODE]);
    // The camera follows the hop: once still, the load balancer (what the hop reached) is drawn on
    // the canvas as the current hop, with whatever else of the hop the move could promise.
    const shows = await cameraSettled(page, 'hop:4');
    expect(shows).toContain(DNS_UDP_LB);
    await expectOnCanvas(page, shows);
    const lb = page.locator(nodeSelector(DNS_UDP_LB));
    expect(await lb.getAttribute('class')).toContain('walk-current');
    expect(await lb.locator('.tnode-label').textContent()).toBe('10.96.0.10:53/UDP');
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
    expect(await graphIds(page, 'current-ids')).toEqual([POD_NODE, DNS_UDP_LB, OTHER_BACKEND_NODE]);
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
    await page.waitForSelector('[data-testid="graph"][data-camera="still"]');
    await shot(page, 'walk-pod-to-service-dark');
    await page.click('[data-testid="theme-toggle"]');
  });

  it('leaves the walk with Esc', async () => {
    await page.locator('.verdict-reason').click();
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="verdict"]', { state: 'detached' });
    expect(await graphIds(page, 'lit-ids')).toEqual([]);
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
    await page.keyboard.type(POD_2);
    await page.keyboard.press('Enter');
    await page.waitForFunction((ip) => document.querySelector('[data-testid="inspector-title"]')?.textContent === ip, POD_2);
    await page.click('[data-testid="walk-from-here"]');
    await page.waitForSelector('[data-testid="walk-panel"]');
    expect(await page.inputValue('[data-testid="walk-src"]')).toBe(POD_2);
    // Pick mode is on for the destination: the banner says so; Alt+click works as well.
    await page.waitForSelector('[data-testid="pick-banner"]');
    // Bring the destination pod into view (search zooms to it), then Alt+click it.
    await page.keyboard.press('Control+k');
    await page.keyboard.type(POD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    await expectOnCanvas(page, await cameraSettled(page, `focus:${POD_NODE}`));
    expect(await page.locator('[data-testid="pick-banner"]').count()).toBe(1);
    await page.locator(nodeSelector(POD_NODE)).click({ modifiers: ['Alt'] });
    expect(await page.inputValue('[data-testid="walk-src"]')).toBe(POD_2);
    expect(await page.inputValue('[data-testid="walk-dst"]')).toBe(POD);
    await page.click('[data-testid="walk-run"]');
    await page.waitForSelector('[data-testid="verdict"]');
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/Delivered/i);
    expect(await graphIds(page, 'lit-ids')).toEqual(expect.arrayContaining([POD_2_NODE, POD_NODE]));
    await expectOnCanvas(page, await cameraSettled(page, 'walk'));
    await shot(page, 'walk-pod-to-pod-light');
  });

  it('lists the default demo’s two faults in the findings view', async () => {
    await page.click('[data-testid="view-findings"]');
    await page.waitForSelector('[data-testid="findings-panel"]');
    // tools/gen/demo.ts: an OutBoundNAT ExceptionList typo on every pod, one pod endpoint without its vNIC.
    await page.waitForSelector('[data-testid="finding"][data-finding="outboundnat-exception-typo"]');
    expect(await page.locator('[data-testid="finding"][data-finding="endpoint-without-vnic"]').count()).toBe(1);
    expect(await page.locator('[data-testid="no-problems"]').count()).toBe(0);
  });

  it('does not show the last walk while the next one is on its way (its verdict would read as the new packet\'s)', async () => {
    // The walks above left one in the store (the findings view is showing); the next walk's answer is
    // held until checked.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/walk', async (route) => {
      await held;
      await route.continue();
    });
    try {
      const card = page.locator('[data-testid="finding"][data-finding="endpoint-without-vnic"]');
      await card.locator('.finding-head').click();
      await card.locator('[data-testid="walk-this"]').click();
      await page.waitForSelector('.walk-empty[aria-busy="true"]');
      expect(await page.locator('[data-testid="verdict"]').isVisible()).toBe(false);
      release();
      await page.waitForSelector('[data-testid="verdict"]');
      expect(await page.locator('.walk-empty[aria-busy="true"]').count()).toBe(0);
    } finally {
      release();
      await page.unroute('**/api/walk');
    }
    // Back to the findings, as the next test expects.
    await page.click('[data-testid="view-findings"]');
    await page.waitForSelector('[data-testid="findings-panel"]');
  });

  it('walks the packet of the ExceptionList typo: its hops show the exception rule that matched it', async () => {
    const card = page.locator('[data-testid="finding"][data-finding="outboundnat-exception-typo"]');
    await card.locator('.finding-head').click();
    await card.locator('[data-testid="walk-this"]').click();
    await page.waitForSelector('[data-testid="verdict"]');
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/Forwarded/i);
    expect(await page.textContent('[data-testid="hop-list"]')).toMatch(/EXCEPTIONS_OUTBOUNDNAT/);
  });

  it('at 1280×800 frames every hop’s node of the DNS walk, the load balancer too, with no minimap over them, and keeps the verdict in view', async () => {
    const small = await openApp(browser, server.url, { width: 1280, height: 800 });
    const p = small.page;
    try {
      await graphReady(p);
      await p.click('[data-testid="view-walk"]');
      await p.click('[data-testid="preset-pod-to-service"]');
      await p.waitForSelector('[data-testid="verdict"]');
      const lit = await graphIds(p, 'lit-ids');
      expect(lit).toContain(DNS_UDP_LB);
      // The camera says it brought every node the walk lights into view, and it did.
      const shows = await cameraSettled(p, 'walk');
      expect([...shows].sort()).toEqual([...lit].sort());
      await expectOnCanvas(p, lit);
      expect(await p.locator('.react-flow__minimap').count()).toBe(0);
      // The verdict's headline is not scrolled out of the panel.
      const panel = (await p.locator('[data-testid="walk-panel"]').boundingBox())!;
      const head = (await p.locator('[data-testid="verdict-text"]').boundingBox())!;
      expect(head.y).toBeGreaterThanOrEqual(panel.y);
      expect(head.y + head.height).toBeLessThanOrEqual(panel.y + panel.height);
      // A finding's objects are framed without the minimap too.
      await p.click('[data-testid="view-findings"]');
      const card = p.locator('[data-testid="finding"][data-finding="outboundnat-exception-typo"]');
      await card.locator('.finding-head').click();
      // Its fix shows its commands as code, with no backtick left.
      const fix = card.locator('[data-testid="fix-text"]');
      expect(await fix.locator('code').count()).toBeGreaterThan(0);
      expect(await fix.textContent()).not.toContain('`');
      const objs = await cameraSettled(p, `finding:${await card.getAttribute('data-key')}`);
      expect(objs.length).toBeGreaterThan(0);
      await expectOnCanvas(p, objs);
      expect(await p.locator('.react-flow__minimap').count()).toBe(0);
      expect(small.errors).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
