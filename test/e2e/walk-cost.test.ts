// What a walk costs the page, counted rather than timed (issue 27, point 4: the page's share of a walk
// ≤ 100 ms on the big node; docs/performance.md, the app). Counts, on the l2bridge demo:
// - how often the graph's component renders from the preset clicked until the camera has fitted the
//   path: a fixed few (the walk, its path lit, the camera's status), not one per frame of the
//   camera's animated fit — the zoom's CSS variables once made every step of it re-render the graph;
// - the same for a zoom in small steps (what each frame of an animated fit does);
// - how many elements the walk adds to the page: the hop list draws the current hop's details only.
// A render is seen through React's own devtools hook (what React DevTools uses, present in a
// production build): after each commit, the graph container's props object is a new one exactly
// when the component drawing it rendered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cameraSettled, graphReady, openNode } from './helpers.ts';

/** Installed before the app loads: counts commits, and the commits in which the graph rendered. */
function countRenders(): void {
  const w = window as unknown as Record<string, unknown>;
  const counts = { commits: 0, graph: 0 };
  w.__renderCounts = counts;
  let lastProps: unknown;
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    onCommitFiberRoot: () => {
      counts.commits++;
      const el = document.querySelector('[data-testid="graph"]') as (Element & Record<string, unknown>) | null;
      const key = el && Object.keys(el).find((k) => k.startsWith('__reactProps$'));
      const props = key ? el[key] : undefined;
      if (props && props !== lastProps) counts.graph++;
      lastProps = props;
    },
  };
}

const counts = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { __renderCounts: { commits: number; graph: number } }).__renderCounts }));

describe('what a walk costs the page', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, errors, close } = await openNode('assets/demo/l2bridge-node', { shared: true }));
    await graphReady(page);
    // Again with the counting hook in place (the load summary, closed once, stays closed).
    await page.addInitScript(countRenders);
    await page.reload();
    await page.waitForSelector('#root[data-app-state="ready"]', { timeout: 60_000 });
    await page.click('[data-testid="summary-close"]', { timeout: 5_000 }).catch(() => undefined);
    await page.waitForSelector('.react-flow__node', { timeout: 30_000 });
    await page.waitForFunction(() => !document.querySelector('.graph-status'), undefined, { timeout: 30_000 });
    await page.click('[data-testid="view-walk"]');
    await page.waitForSelector('[data-testid="preset-pod-to-service"]');
  });

  afterAll(() => close?.());

  it('renders the graph a few times for a walk, not once per frame of the camera', async () => {
    const before = await counts(page);
    expect(before.commits).toBeGreaterThan(0); // the hook is seen by React: the counts can fail
    await page.click('[data-testid="preset-pod-to-service"]');
    await page.waitForSelector('[data-testid="verdict"]');
    await cameraSettled(page, 'walk');
    const after = await counts(page);
    const graph = after.graph - before.graph;
    console.log(`walk-cost: a walk: ${after.commits - before.commits} commits, the graph rendered in ${graph}`);
    // The walk's state, its path lit and the camera's status (moving, still): a handful, whatever
    // the number of frames the fit animates.
    expect(graph).toBeGreaterThan(0);
    expect(graph).toBeLessThanOrEqual(5);
  });

  it('does not render the graph on each step of a zoom', async () => {
    await page.click('[aria-label="Fit"]');
    await cameraSettled(page, 'fit');
    const box = (await page.locator('[data-testid="graph"]').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const before = await counts(page);
    // Twelve small wheel steps (≈ 3 % each): every one changes the zoom variables graph.css reads,
    // as each frame of an animated fit does, whatever the machine's frame rate.
    for (let i = 0; i < 12; i++) {
      await page.mouse.wheel(0, -15);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
    }
    const after = await counts(page);
    console.log(`walk-cost: 12 zoom steps: ${after.commits - before.commits} commits, the graph rendered in ${after.graph - before.graph}`);
    // React Flow's own viewport re-renders on every step (the commits grow); the graph only when
    // the camera's status changes (the user moved it) and the level of detail crosses a threshold.
    expect(after.commits - before.commits).toBeGreaterThanOrEqual(12);
    expect(after.graph - before.graph).toBeLessThanOrEqual(3);
  });

  it('adds elements in proportion to the hops, not to the rules', async () => {
    await page.click('[data-testid="walk-clear"]');
    await page.waitForSelector('[data-testid="hop-list"]', { state: 'detached' });
    if (!(await page.locator('[data-testid="preset-pod-to-service"]').isVisible())) await page.click('[data-testid="walk-presets"] > summary');
    await page.waitForSelector('[data-testid="preset-pod-to-service"]');
    const panelBefore = await page.evaluate(() => document.querySelectorAll('[data-testid="walk-panel"] *').length);
    await page.click('[data-testid="preset-pod-to-service"]');
    await page.waitForSelector('[data-testid="hop-list"]');
    const hops = await page.locator('[data-testid="hop"]').count();
    const panelAfter = await page.evaluate(() => document.querySelectorAll('[data-testid="walk-panel"] *').length);
    const detail = await page.evaluate(() => document.querySelectorAll('[data-testid="hop-detail"] *').length);
    expect(await page.locator('[data-testid="hop-detail"]').count()).toBe(1);
    expect(hops).toBeGreaterThan(3);
    // The rows' heads (≈ 20 elements each) and one hop's details: bounded by the hops, whatever the rules' text.
    expect(panelAfter - panelBefore).toBeLessThanOrEqual(25 * hops + 80);
    console.log(`walk-cost: ${hops} hops, ${panelAfter - panelBefore} elements added to the panel, ${detail} in the open hop`);
    expect(errors).toEqual([]);
  });
});
