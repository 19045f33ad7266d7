// The topology at 1280×800: fitted on open to the canvas beside the side panel, readable, nothing
// over a node; fitted again when the panel closes or opens; the summary layer below the minimum
// readable zoom; the keyboard (Tab walks the nodes and the camera follows, Enter selects); a pod's
// VFP port as a node of its own; on a faulty overlay node, the route to a remote subnet VFP lacks
// drawn red and the findings' markers, badges never over each other. Behaviour only: what is
// drawn where is read back from the page once the camera says it is still.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { nodeSelector, openNode, shot } from './helpers.ts';
import { writeGenerated } from '../helpers/generated-bundle.ts';

const GRAPH = '[data-testid="graph"]';
type Box = { x: number; y: number; width: number; height: number };

const inside = (b: Box, c: Box) => b.x >= c.x - 0.5 && b.y >= c.y - 0.5 && b.x + b.width <= c.x + c.width + 0.5 && b.y + b.height <= c.y + c.height + 0.5;
const apart = (a: Box, b: Box) => a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;

/** What the camera says it is doing, for a failure's message. */
const said = (page: Page) =>
  page.evaluate((sel) => {
    const g = document.querySelector(sel);
    return `camera ${g?.getAttribute('data-camera')} for ${g?.getAttribute('data-camera-reason')}, ${g?.getAttribute('data-camera-fitted') === 'true' ? 'fitted' : 'not fitted'}`;
  }, GRAPH);

/** Waits until the camera's last move was for one of `reasons` and has ended. */
async function still(page: Page, ...reasons: string[]): Promise<void> {
  await page.waitForFunction(
    ([sel, rs]) => {
      const g = document.querySelector(sel);
      return g?.getAttribute('data-camera') === 'still' && rs.includes(g.getAttribute('data-camera-reason') ?? '');
    },
    [GRAPH, reasons] as const,
    { timeout: 20_000 },
  ).catch(async (e: Error) => {
    throw new Error(`the camera did not settle after ${reasons.join(' or ')}: ${await said(page)}\n${e.message}`);
  });
}

/** The React Flow viewport's zoom. */
async function zoom(page: Page): Promise<number> {
  return page.locator('.react-flow__viewport').evaluate((v) => new DOMMatrix(getComputedStyle(v).transform).a);
}

/** How many nodes the toolbar says the graph draws (on screen or not). */
async function nodeCount(page: Page): Promise<number> {
  return Number(/^([\d,]+) nodes/.exec((await page.textContent('[data-testid="graph-stats"]'))!)![1].replace(/,/g, ''));
}

/** Every drawn node lies on the canvas and under nothing else: the toolbar, the side panel, the minimap. */
async function expectNothingCovered(page: Page): Promise<void> {
  const canvas = (await page.locator(GRAPH).boundingBox())!;
  const covers: Box[] = [];
  for (const sel of ['.graph-toolbar', '[data-testid="side-panel"]', '.react-flow__minimap', '.reopen-inspector', '[data-testid="pick-banner"]']) {
    for (const l of await page.locator(sel).all()) {
      const b = await l.boundingBox();
      if (b) covers.push(b);
    }
  }
  const nodes = await page.locator('.react-flow__node').all();
  expect(nodes.length).toBeGreaterThan(0);
  for (const n of nodes) {
    const id = await n.getAttribute('data-id');
    const b = (await n.boundingBox())!;
    expect(inside(b, canvas), `${id} on the canvas`).toBe(true);
    for (const c of covers) expect(apart(b, c), `${id} under an overlay`).toBe(true);
  }
}

/** Every drawn label reads at 9 screen pixels or more. */
async function expectReadable(page: Page): Promise<void> {
  const z = await zoom(page);
  const sizes = await page.locator('.tnode-label').evaluateAll((ls) => ls.map((l) => parseFloat(getComputedStyle(l).fontSize)));
  expect(sizes.length).toBeGreaterThan(0);
  // 8 px at the least: a long address is drawn that small rather than split or cut (graph.css).
  for (const px of sizes) expect(px * z).toBeGreaterThanOrEqual(8);
  // No piece of a title (an address, "80/TCP") is split over two lines (its boxes' tops: a title
  // ellipsized at its end cuts a piece into boxes on one line) or cut short.
  const pieces = await page.locator('.tnode-piece').evaluateAll((ps) =>
    ps.map((p) => ({ text: p.textContent, lines: new Set([...p.getClientRects()].map((r) => Math.round(r.top))).size, cut: p.scrollWidth > p.clientWidth + 1 })),
  );
  expect(pieces.length).toBeGreaterThan(0);
  for (const p of pieces) expect(p, p.text ?? '').toMatchObject({ lines: 1, cut: false });
}

/** Waits until the camera is still after a fit of the whole graph at a zoom bigger than, or the same as, `than`. */
async function zoomSettles(page: Page, want: 'bigger' | 'same', than: number): Promise<void> {
  await page
    .waitForFunction(
      ([sel, w, b]) => {
        const g = document.querySelector(sel);
        const v = document.querySelector('.react-flow__viewport');
        if (!g || !v || g.getAttribute('data-camera') !== 'still' || !['place', 'refit'].includes(g.getAttribute('data-camera-reason') ?? '')) return false;
        const z = new DOMMatrix(getComputedStyle(v).transform).a;
        return w === 'bigger' ? z > b + 0.005 : Math.abs(z - b) < 0.005;
      },
      [GRAPH, want, than] as const,
      { timeout: 20_000 },
    )
    .catch(async (e: Error) => {
      throw new Error(`no fit to a zoom ${want} than ${than} (now ${await zoom(page)}): ${await said(page)}\n${e.message}`);
    });
}

async function zoomOutToSummary(page: Page): Promise<void> {
  for (let i = 0; i < 20 && (await page.getAttribute(GRAPH, 'data-lod')) !== 'summary'; i++) {
    await page.click('button[aria-label="Zoom out"]');
    await page.waitForTimeout(200);
  }
}

/** One bundle served (`shared`: on the worker's server of it) and opened at 1280×800, its summary closed, its graph arranged. */
async function openArranged(bundle: string, shared = false) {
  const opened = await openNode(bundle, { width: 1280, height: 800, shared });
  const { page } = opened;
  await page.waitForSelector('[data-testid="summary"]');
  await page.click('[data-testid="summary-close"]');
  await page.waitForSelector('.react-flow__node', { timeout: 30_000 });
  // Arranged (ELK's order, when it answers, replaces the instant one and places the view again).
  await page.waitForSelector('[data-testid="layout-status"]', { state: 'detached', timeout: 30_000 });
  return opened;
}

describe('the topology at 1280×800 on the l2bridge demo', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    // The tests read the node; what they change is this page's (panel, selection, viewport).
    ({ page, errors, close } = await openArranged('assets/demo/l2bridge-node', true));
  });

  afterAll(() => close?.());

  it('fits the whole node on open, beside the side panel, readable, with nothing over a node', async () => {
    await still(page, 'place', 'refit');
    expect(await page.getAttribute(GRAPH, 'data-lod')).not.toBe('summary');
    // All of it is on screen, so React Flow draws every node.
    expect(await page.locator('.react-flow__node').count()).toBe(await nodeCount(page));
    await expectNothingCovered(page);
    await expectReadable(page);
    await shot(page, 'graph-demo-1280x800-fit');
  });

  it('fits again to the room the side panel leaves when it closes and when it opens', async () => {
    const before = await zoom(page);
    await page.click('button[aria-label="Hide the side panel"]');
    await page.waitForSelector('[data-testid="side-panel"]', { state: 'detached' });
    // A new fit (its columns split again for the wider canvas when that reads better): bigger.
    await zoomSettles(page, 'bigger', before);
    expect(await zoom(page)).toBeGreaterThan(before);
    expect(await page.locator('.react-flow__node').count()).toBe(await nodeCount(page));
    await expectNothingCovered(page);
    await expectReadable(page);
    await shot(page, 'graph-demo-1280x800-panel-closed');
    await page.click('button[aria-label="Show the side panel"]');
    await page.waitForSelector('[data-testid="side-panel"]');
    // Back to the first view's arrangement and zoom.
    await zoomSettles(page, 'same', before);
    expect(await zoom(page)).toBeCloseTo(before, 2);
    await expectNothingCovered(page);
  });

  it('draws the summary layer below the minimum readable zoom: counts per column, no node text', async () => {
    await zoomOutToSummary(page);
    expect(await page.getAttribute(GRAPH, 'data-lod')).toBe('summary');
    await page.waitForSelector('[data-testid="summary-layer"]');
    expect(await page.locator('.tnode').count()).toBe(0);
    const columns = await page.locator('[data-testid="summary-column"]').allTextContents();
    expect(columns.find((c) => c.startsWith('Pods and host'))).toContain('9 endpoints');
    expect(columns.find((c) => c.startsWith('Load balancers'))).toContain('17 load balancers');
    expect(columns.find((c) => c.startsWith('This node'))).toContain('1 vSwitch');
    // The counts are text a person can read, whatever the zoom.
    const cardPx = await page.locator('.summary-card').first().evaluate((c) => c.getBoundingClientRect().height);
    expect(cardPx).toBeGreaterThan(30);
    // Every card is wholly on the canvas, and none lies over another.
    const canvas = (await page.locator(GRAPH).boundingBox())!;
    const cards = await page.locator('.summary-card').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().toJSON() as { left: number; top: number; right: number; bottom: number }));
    expect(cards.length).toBe(columns.length);
    for (const a of cards) {
      expect(a.left).toBeGreaterThanOrEqual(canvas.x);
      expect(a.top).toBeGreaterThanOrEqual(canvas.y);
      expect(a.right).toBeLessThanOrEqual(canvas.x + canvas.width);
      expect(a.bottom).toBeLessThanOrEqual(canvas.y + canvas.height);
      for (const b of cards) if (a !== b) expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top).toBe(true);
    }
    await shot(page, 'graph-demo-1280x800-summary');
    // A column's card zooms into it, readable again.
    await page.locator('[data-testid="summary-column"]', { hasText: 'Load balancers' }).click();
    await still(page, 'zoom');
    expect(await page.getAttribute(GRAPH, 'data-lod')).not.toBe('summary');
    expect(await page.locator('.react-flow__node.kind-loadbalancer').count()).toBeGreaterThan(0);
  });

  it('walks the nodes with Tab, bringing each into view, and selects one with Enter', async () => {
    await page.keyboard.press('f');
    await still(page, 'fit');
    // Zoomed in far enough that most of the node is off screen.
    for (let i = 0; i < 4; i++) await page.click('button[aria-label="Zoom in"]');
    await page.waitForTimeout(400);
    const canvas = (await page.locator(GRAPH).boundingBox())!;
    const first = page.locator('.react-flow__node').first();
    await first.focus();
    const seen: string[] = [];
    let moved = 0;
    let current = await first.getAttribute('data-id');
    for (let i = 0; i < 14; i++) {
      const before = await page.locator('.react-flow__viewport').getAttribute('style');
      await page.keyboard.press('Tab');
      // The focus moves once the camera has brought the next node on screen and React Flow drew it.
      await page.waitForFunction((prev) => {
        const id = (document.activeElement as HTMLElement | null)?.dataset.id;
        return !!id && id !== prev;
      }, current);
      const id = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id);
      expect(id, `Tab ${i + 1} stays in the graph`).toBeTruthy();
      current = id!;
      await still(page, `key:${id}`);
      if ((await page.locator('.react-flow__viewport').getAttribute('style')) !== before) moved++;
      const b = (await page.locator(nodeSelector(id!)).boundingBox())!;
      expect(inside(b, canvas), `${id} brought into view`).toBe(true);
      seen.push(id!);
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Some of those nodes were off screen: the camera followed.
    expect(moved).toBeGreaterThan(0);
    // Shift+Tab goes back.
    const focusedId = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id);
    const tab = async (back: boolean) => {
      const prev = await focusedId();
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      await page.waitForFunction((p) => (document.activeElement as HTMLElement | null)?.dataset.id !== p, prev);
    };
    await tab(true);
    expect(await focusedId()).toBe(seen[seen.length - 2]);
    // Enter selects the focused pod: the inspector opens on it; Space selects the next one.
    // The topmost pod drawn (pods come first in reading order, so another follows it), focused with the keyboard.
    const top = await page.locator('.react-flow__node[data-id^="endpoint:"]').evaluateAll((es) => es.sort((a, b) => a.getBoundingClientRect().y - b.getBoundingClientRect().y)[0]?.getAttribute('data-id'));
    expect(top).toBeTruthy();
    await page.locator(nodeSelector(top!)).focus();
    await tab(false);
    if (!(await focusedId())?.startsWith('endpoint:')) await tab(true);
    const pod = (await focusedId())!;
    expect(pod).toMatch(/^endpoint:/);
    await still(page, `key:${pod}`);
    const label = (await page.locator(`${nodeSelector(pod)} .tnode-label`).textContent())!;
    await page.keyboard.press('Enter');
    await page.waitForFunction((l) => document.querySelector('[data-testid="inspector-title"]')?.textContent === l, label);
    expect(await page.locator(`${nodeSelector(pod)} .tnode.is-selected`).count()).toBe(1);
    await shot(page, 'graph-demo-keyboard');
    for (let i = 0; i < 40; i++) {
      await tab(false);
      if ((await focusedId())?.startsWith('endpoint:')) break;
    }
    const next = (await focusedId())!;
    expect(next).toMatch(/^endpoint:/);
    expect(next).not.toBe(pod);
    await still(page, `key:${next}`);
    const nextLabel = (await page.locator(`${nodeSelector(next)} .tnode-label`).textContent())!;
    await page.keyboard.press(' ');
    await page.waitForFunction((l) => document.querySelector('[data-testid="inspector-title"]')?.textContent === l, nextLabel);
  });

  it('draws a pod’s VFP port as a node of its own when opened, and every port from the toolbar', async () => {
    await page.keyboard.press('f');
    await still(page, 'fit');
    const total = await nodeCount(page);
    // The control is the foot's at full detail, a chip on the node's edge when only labels are drawn.
    const expanders = page.locator('[data-testid="node-expand"][aria-expanded="false"]:visible');
    const pods = await page.locator('.tnode-expand', { hasText: 'port' }).count();
    expect(pods).toBeGreaterThan(0);
    const podId = await expanders.first().evaluate((e) => (e.closest('.react-flow__node') as HTMLElement).dataset.id!);
    expect(podId).toMatch(/^endpoint:/);
    const pod = page.locator(nodeSelector(podId));
    await expanders.first().click();
    const port = page.locator('.react-flow__node.kind-vfp-port');
    await port.waitFor();
    expect(await nodeCount(page)).toBe(total + 1);
    expect(await port.locator('.tnode-label').textContent()).toMatch(/^VFP port /);
    expect(await port.locator('.tnode-details').textContent()).toMatch(/rules/);
    // Joined to its endpoint, right under it.
    expect(await page.locator(`.react-flow__edge.edge-port[data-id^="port:${podId}->"]`).count()).toBe(1);
    const pb = (await pod.boundingBox())!;
    const qb = (await port.boundingBox())!;
    expect(qb.y).toBeGreaterThanOrEqual(pb.y + pb.height - 0.5);
    expect(Math.abs(qb.x - pb.x)).toBeLessThan(1);
    // Folded again from the same control.
    await pod.locator('[data-testid="node-expand"][aria-expanded="true"]:visible').click();
    await port.waitFor({ state: 'detached' });
    expect(await nodeCount(page)).toBe(total);
    // The toolbar draws every pod's port.
    await page.check('[data-testid="show-ports"]');
    await page.waitForFunction(([t, n]) => Number(/^([\d,]+) nodes/.exec(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? '')?.[1]) === t + n, [total, pods] as const);
    await page.uncheck('[data-testid="show-ports"]');
    await page.waitForFunction((t) => Number(/^([\d,]+) nodes/.exec(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? '')?.[1]) === t, total);
  });

  it('fits the node readably at 1920×1080 too', async () => {
    // The view was left fitted (only the ports were opened and folded since): a new window size fits again.
    const before = await zoom(page);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await zoomSettles(page, 'bigger', before);
    expect(await page.locator('.react-flow__node').count()).toBe(await nodeCount(page));
    await expectNothingCovered(page);
    await expectReadable(page);
    await shot(page, 'graph-demo-1920x1080-fit');
    await zoomOutToSummary(page);
    await page.waitForSelector('[data-testid="summary-layer"]');
    await shot(page, 'graph-demo-1920x1080-summary');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});

/** An overlay node whose VFP lost the REMOTESUBNETROUTE for one remote node, with a stale DIP and a blocked port. */
async function faultyOverlay(): Promise<string> {
  const spec = { network: 'overlay', schema: 1, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830', faults: ['missing-remote-subnet-route', 'stale-lb-dip', 'blocked-port'] } as const;
  return (await writeGenerated({ ...spec, faults: [...spec.faults] }, {}, 'hnsight-e2e-graph-')).bundle;
}

/** The colour a CSS colour variable resolves to, as computed styles print it. */
async function cssColor(page: Page, variable: string): Promise<string> {
  return page.evaluate((v) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${v})`;
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, variable);
}

const stroke = (l: Locator) => l.locator('.react-flow__edge-path').evaluate((p) => getComputedStyle(p).stroke);

describe('faults drawn on the objects they concern, on a faulty overlay node', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let bundle: string;

  beforeAll(async () => {
    bundle = await faultyOverlay();
    ({ page, errors, close } = await openNode(bundle, { width: 1280, height: 800 }));
    await page.waitForSelector('[data-testid="summary"]');
    await page.click('[data-testid="summary-close"]');
    await page.waitForSelector('#root[data-findings="done"]', { timeout: 60_000 });
    await page.waitForSelector(`${GRAPH}[data-fault-edges]`, { timeout: 30_000 });
    await page.waitForSelector('[data-testid="layout-status"]', { state: 'detached', timeout: 30_000 });
    await still(page, 'place', 'refit');
  });

  afterAll(async () => {
    await close?.();
    if (bundle) rmSync(path.dirname(bundle), { recursive: true, force: true });
  });

  it('draws the route and the tunnel to the remote subnet VFP lacks in red; the healthy subnet’s stay as they are', async () => {
    const faulty = (await page.getAttribute(GRAPH, 'data-fault-edges'))!.split(' ');
    const route = faulty.find((e) => /^route:network:.+->remote-subnet:/.test(e));
    expect(route, faulty.join(' ')).toBeDefined();
    const subnet = route!.split('->')[1];
    expect(faulty).toContain(faulty.find((e) => e.startsWith(`encap:${subnet}->next-hop:`)));
    const red = await cssColor(page, '--error');
    expect(await stroke(page.locator(`.react-flow__edge[data-id="${route}"]`))).toBe(red);
    // The other remote subnet HNS and VFP agree on: its route is not red.
    const ids = await page.locator('.react-flow__edge.edge-route').evaluateAll((es) => es.map((e) => e.getAttribute('data-id')!));
    const other = ids.find((id) => /^route:network:.+->remote-subnet:/.test(id) && id !== route);
    expect(other).toBeDefined();
    expect(faulty).not.toContain(other);
    expect(await stroke(page.locator(`.react-flow__edge[data-id="${other}"]`))).not.toBe(red);
    // The subnet carries the finding's marker; a click opens that finding.
    const marker = page.locator(`${nodeSelector(subnet)} [data-testid="fault-marker"]`);
    expect(await marker.getAttribute('title')).toMatch(/REMOTESUBNETROUTE/);
    await shot(page, 'graph-faulty-1280x800-fit');
    await marker.click();
    await page.waitForSelector('[data-testid="findings-panel"]');
    // The finding is the one looked at: its objects are lit, the subnet among them.
    await page.waitForFunction(([sel, id]) => (document.querySelector(sel)?.getAttribute('data-finding-ids') ?? '').split(' ').includes(id), [GRAPH, subnet] as const);
  });

  it('keeps every badge of a node’s foot apart from the others and from the label', async () => {
    // Close enough for every line of a node.
    await page.keyboard.press('f');
    await still(page, 'fit');
    for (let i = 0; i < 8 && (await page.getAttribute(GRAPH, 'data-lod')) !== 'detail'; i++) {
      await page.click('button[aria-label="Zoom in"]');
      await page.waitForTimeout(200);
    }
    expect(await page.getAttribute(GRAPH, 'data-lod')).toBe('detail');
    const checked = await page.locator('.tnode').evaluateAll((nodes) => {
      const r = (e: Element) => e.getBoundingClientRect();
      const apartR = (a: DOMRect, b: DOMRect) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
      const bad: string[] = [];
      let items = 0;
      for (const n of nodes) {
        const foot = n.querySelector('.tnode-foot');
        const title = n.querySelector('.tnode-title');
        if (!foot || !title) continue;
        const f = r(foot);
        const kids = [...foot.children].map(r);
        items += kids.length;
        for (const k of kids) if (k.left < f.left - 0.5 || k.right > f.right + 0.5) bad.push(`${n.textContent}: a badge runs out of its row`);
        for (let i = 0; i < kids.length; i++) for (let j = i + 1; j < kids.length; j++) if (!apartR(kids[i], kids[j])) bad.push(`${n.textContent}: two badges overlap`);
        if (!apartR(r(title), f)) bad.push(`${n.textContent}: the label runs into the badges`);
        const details = n.querySelector('.tnode-details');
        if (details && !apartR(r(title), r(details))) bad.push(`${n.textContent}: the label runs into its details`);
      }
      return { bad, items };
    });
    expect(checked.items).toBeGreaterThan(0);
    expect(checked.bad).toEqual([]);
    await shot(page, 'graph-faulty-detail');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});

describe('a fault on a host vNIC the finding names by its adapter name', () => {
  // test/fixtures/foreign-faults/overlay-apipa-host-vnic: vEthernet (Ethernet) has only 169.254.107.49.
  // Its node is the host vNIC's VFP port; the finding names the adapter, not that port.
  const VNIC = 'port:ba60314c-d4db-4bf9-9fc8-a208697a1a02';
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, errors, close } = await openArranged('test/fixtures/foreign-faults/overlay-apipa-host-vnic'));
    await page.waitForSelector('#root[data-findings="done"]', { timeout: 60_000 });
    await still(page, 'place', 'refit');
  });

  afterAll(() => close?.());

  it('draws vEthernet (Ethernet) red, with the APIPA finding’s marker', async () => {
    await page.waitForFunction(([sel, id]) => (document.querySelector(sel)?.getAttribute('data-fault-ids') ?? '').split(' ').includes(id), [GRAPH, VNIC] as const);
    const node = page.locator(nodeSelector(VNIC));
    expect(await node.textContent()).toContain('vEthernet (Ethernet)');
    const marker = node.locator('[data-testid="fault-marker"]');
    expect(await marker.getAttribute('class')).toContain('error');
    expect(await marker.getAttribute('title')).toMatch(/APIPA/);
    await shot(page, 'graph-apipa-host-vnic-1280x800');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
