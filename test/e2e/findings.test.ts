// Findings and the CNI timeline on a generated faulty node (a stale load balancer DIP, a blocked
// port, an ExceptionList typo; reservedports.txt left out so one check cannot decide; kubelet,
// containerd and CNI agent logs copied in): counts in the rail and summary, a finding's objects lit
// on the graph with its evidence, “Walk this packet” to the deciding hop, the timeline.
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cameraSettled, expectOnCanvas, graphIds, nodeSelector, openNode, repo, shot } from './helpers.ts';
import { writeGenerated } from '../helpers/generated-bundle.ts';

async function makeBundle(): Promise<string> {
  const { bundle: out } = await writeGenerated({ faults: ['stale-lb-dip', 'blocked-port', 'exception-list-typo'] }, {}, 'hnsight-e2e-faulty-');
  rmSync(path.join(out, 'reservedports.txt'));
  const logs = path.join(repo, 'test/fixtures/logs');
  for (const f of readdirSync(logs)) copyFileSync(path.join(logs, f), path.join(out, f));
  return out;
}

describe('findings and the CNI timeline on a faulty node', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let bundle: string;

  beforeAll(async () => {
    bundle = await makeBundle();
    ({ page, errors, close } = await openNode(bundle));
  });

  afterAll(async () => {
    await close?.();
    if (bundle) rmSync(path.dirname(bundle), { recursive: true, force: true });
  });

  it('counts the findings by severity in the summary and the rail', async () => {
    await page.waitForSelector('[data-testid="summary"]');
    await page.waitForFunction(() => /error/.test(document.querySelector('[data-testid="summary-findings"]')?.textContent ?? '') && !document.querySelector('[data-testid="summary-findings"] .spinner'));
    const text = (await page.textContent('[data-testid="summary-findings"]'))!;
    expect(text).toMatch(/[1-9]\d* errors?/);
    expect(text).toContain('could not decide');
    await shot(page, 'findings-summary');
    expect(Number(await page.textContent('[data-testid="rail-findings"] .badge.error'))).toBeGreaterThanOrEqual(3);
    await page.click('[data-testid="summary-open-findings"]');
    await page.waitForSelector('[data-testid="findings-panel"]');
    await page.waitForSelector('.react-flow__node', { timeout: 30_000 });
    await page.waitForFunction(() => !document.querySelector('.graph-status'), undefined, { timeout: 30_000 });
  });

  it('opens a finding: its objects light up on the graph and its evidence lines are listed', async () => {
    const card = page.locator('[data-testid="finding"][data-finding="lb-stale-dip"]');
    await card.locator('.finding-head').click();
    await card.locator('[data-testid="finding-body"]').waitFor();
    const ev = await card.locator('[data-testid="evidence"] .ev-loc').allTextContents();
    expect(ev.some((e) => /^policy\.txt:\d+$/.test(e))).toBe(true);
    expect(await card.locator('.fix-text').textContent()).toBeTruthy();
    // Its objects are lit (the graph's own account); once the camera has fitted them, they are drawn lit.
    const lit = await graphIds(page, 'finding-ids');
    expect(lit.length).toBeGreaterThanOrEqual(1);
    expect(lit.some((id) => id.startsWith('loadbalancer:'))).toBe(true);
    const shows = await cameraSettled(page, `finding:${await card.getAttribute('data-key')}`);
    expect(shows.length).toBeGreaterThanOrEqual(1);
    expect(lit).toEqual(expect.arrayContaining(shows));
    await expectOnCanvas(page, shows);
    for (const id of shows) expect(await page.getAttribute(nodeSelector(id), 'class')).toContain('finding-lit');
    await shot(page, 'findings-lb-stale-dip-light');
    await card.locator('[data-testid="evidence"]').first().click();
    await page.waitForSelector('[data-testid="excerpt"] .code-line.focus');
    expect(await page.textContent('[data-testid="excerpt"] h2')).toMatch(/^policy\.txt:\d+$/);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="excerpt"]', { state: 'detached' });
  });

  it('shows an undecided check dimmed, with the file it lacked', async () => {
    const u = page.locator('[data-testid="finding"].undecided').first();
    await u.waitFor();
    expect(await u.textContent()).toContain('reservedports.txt');
    await page.click('[data-testid="sev-info"]');
    expect(await page.locator('[data-testid="finding"].undecided').count()).toBe(0);
    await page.click('[data-testid="sev-info"]');
  });

  it('walks the packet of a finding to the hop that decides it', async () => {
    const card = page.locator('[data-testid="finding"][data-finding="vfp-port-blocked"]');
    await card.locator('.finding-head').click();
    await card.locator('[data-testid="walk-this"]').click();
    await page.waitForSelector('[data-testid="verdict"]');
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/Dropped/i);
    const current = page.locator('[data-testid="hop"][aria-current="step"]');
    expect(await current.getAttribute('class')).toContain('deciding');
    expect(await current.textContent()).toContain('drop');
    // The verdict points back at the finding that explains it.
    const chip = page.locator('[data-testid="verdict-finding"]', { hasText: 'blocked' });
    expect(await chip.count()).toBe(1);
    // The graph lights the walk's deciding hop, and the camera brings the walk into view.
    expect((await graphIds(page, 'current-ids')).length).toBeGreaterThanOrEqual(1);
    await expectOnCanvas(page, await cameraSettled(page, 'walk'));
    await shot(page, 'findings-walk-dropped-light');
    await page.click('[data-testid="theme-toggle"]');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await shot(page, 'findings-walk-dropped-dark');
    await chip.click();
    await page.waitForSelector('[data-testid="findings-panel"]');
    expect(await page.locator('[data-testid="finding"].open').getAttribute('data-finding')).toBe('vfp-port-blocked');
    // Back in front, the findings panel lights the finding's objects instead of the walk.
    expect((await graphIds(page, 'finding-ids')).length).toBeGreaterThanOrEqual(1);
    expect(await graphIds(page, 'lit-ids')).toEqual([]);
    await page.waitForSelector('[data-testid="graph"][data-camera="still"]');
    await shot(page, 'findings-panel-dark');
    await page.click('[data-testid="theme-toggle"]');
  });

  it('lists the CNI ADD timeline with the longest gap named', async () => {
    await page.click('[data-testid="view-timeline"]');
    await page.waitForSelector('[data-testid="timeline"]');
    const slow = page.locator('[data-testid="timeline"]', { hasText: 'db-6cqff' });
    expect(await slow.textContent()).toContain('4.958 s');
    await slow.locator('.tl-head').click();
    await slow.locator('[data-testid="timeline-steps"]').waitFor();
    expect(await slow.locator('.tl-gap-note').textContent()).toMatch(/Longest gap 2\.495 s between “antrea: configuring the IP address” and “antrea: adding the OVS port”/);
    expect(await slow.locator('.tl-step.after-gap .src-link').textContent()).toBe('antrea-agent.log:5');
    await shot(page, 'timeline-light');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
