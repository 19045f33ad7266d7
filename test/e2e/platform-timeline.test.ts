// The summary says which network plugin and cloud built the node, how sure hnsight is and why (each
// evidence line opens its excerpt), which checks did not run and what the checks rely on; the CNI
// timeline lists the slowest ADD first, the failed ADDs grouped by pod, offsets from the ADD's start
// that are never negative and messages read out of their log format. The node is a generated AKS
// Azure CNI node with two of the generator's platform faults (a 7 s stall in one ADD, a pod whose ADD
// fails three times); what the generator injected is read from its ground truth (--expected).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openNode, shot } from './helpers.ts';
import { writeGenerated } from '../helpers/generated-bundle.ts';

interface Fault {
  name: string;
  objects: string[];
}

describe('the platform in the summary and the CNI timeline of an AKS node', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let dir: string;
  let bundle: string;
  let faults: Fault[];
  let nodeNames: string[];

  beforeAll(async () => {
    let node;
    ({ dir, bundle, node } = await writeGenerated({ platform: 'azure-cni', faults: ['slow-cni-add', 'cni-add-failures'] }, {}, 'hnsight-e2e-aks-'));
    faults = node.expected.faults as Fault[];
    const kubectl = JSON.parse(readFileSync(path.join(bundle, 'kubectl-get-all.json'), 'utf8')) as { items: { kind: string; metadata: { name: string } }[] };
    nodeNames = kubectl.items.filter((i) => i.kind === 'Node').map((i) => i.metadata.name);
    ({ page, errors, close } = await openNode(bundle, { width: 1280, height: 800 }));
    await page.waitForSelector('[data-testid="summary"]');
  });

  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('names the plugin, the cloud and the Kubernetes node, with the evidence folded under it', async () => {
    expect(await page.textContent('[data-testid="summary-plugin"]')).toMatch(/^Azure CNI \(VNet pod IPs\) on AKS/);
    expect(nodeNames).toContain(await page.textContent('[data-testid="summary-k8s-node"]'));
    const details = page.locator('[data-testid="summary-platform"]');
    // Folded: the summary stays readable at 1280×800.
    expect(await details.getAttribute('open')).toBeNull();
    expect(await details.locator(':scope > summary').textContent()).toMatch(/high confidence/);
    await details.locator(':scope > summary').click();
    const lines = details.locator('[data-testid="platform-evidence"] [data-testid="platform-evidence-line"]');
    expect(await lines.count()).toBeGreaterThanOrEqual(2);
    expect(await details.locator('[data-testid="platform-skipped"]').textContent()).toMatch(/Routes to remote pod subnets — does not apply to Azure CNI/);
    await details.locator('[data-testid="platform-facts"] > summary').click();
    expect(await details.locator('[data-testid="platform-facts"] dl').textContent()).toMatch(/pod gateway.*source: /s);
    await page.locator('[data-testid="summary-platform"]').scrollIntoViewIfNeeded();
    await shot(page, 'summary-platform-1280x800');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'summary-platform-1920x1080');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('opens an evidence line’s excerpt over the summary; Esc closes the excerpt, then the summary', async () => {
    const line = page.locator('[data-testid="platform-evidence"] [data-testid="platform-evidence-line"]', { has: page.locator('.src-link') }).first();
    const quoted = ((await line.locator('.pe-text').textContent()) ?? '').trim();
    const link = line.locator('.src-link');
    const where = (await link.textContent()) ?? '';
    await link.click();
    await page.waitForSelector('[data-testid="excerpt"] .code-line.focus');
    expect(await page.textContent('[data-testid="excerpt"] h2')).toBe(where);
    expect(await page.textContent('[data-testid="excerpt"] .code-line.focus')).toContain(quoted);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="excerpt"]', { state: 'detached' });
    expect(await page.locator('[data-testid="summary"]').count()).toBe(1);
    // Focus is back on the link that opened the excerpt.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(where);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="summary"]', { state: 'detached' });
  });

  it('lists the slowest ADD first and the failed ADDs grouped by pod', async () => {
    const slow = faults.find((f) => f.name === 'slow-cni-add')!.objects[0];
    const failing = faults.find((f) => f.name === 'cni-add-failures')!.objects[0];
    await page.click('[data-testid="view-timeline"]');
    await page.waitForSelector('[data-testid="timeline"]');
    const names = await page.locator('[data-testid="timeline"] .tl-name').allTextContents();
    expect(names[0]).toBe(slow);
    // One entry for the pod however many attempts failed.
    const failure = page.locator('[data-testid="timeline-failure"]', { hasText: failing });
    expect(await failure.count()).toBe(1);
    expect(await failure.textContent()).toContain('failed 3 times');
    expect(await page.locator('[data-testid="timeline-failure"]').count()).toBe(1);
  });

  it('shows the slow ADD’s steps from its start, never negative, its messages in words', async () => {
    const row = page.locator('[data-testid="timeline"]').first();
    await row.locator('.tl-head').click();
    await row.locator('[data-testid="timeline-steps"]').waitFor();
    expect(await row.locator('[data-testid="timeline-gap"]').textContent()).toMatch(/^Longest gap 7\.\d{3} s between “.+” and “.+”, in the plugin’s own log \(azure-vnet\)$/);
    const offsets = await row.locator('[data-testid="step-offset"]').allTextContents();
    expect(offsets).toContain('start');
    for (const o of offsets) expect(o).toMatch(/^(start|before the ADD|–|\+\d[\d.]* (ms|s)|about \+\d+ s|within 1 s|\d+ min \d+ s)$/);
    // The runtime asked for the sandbox before the plugin's ADD began: said, not a negative offset.
    expect(offsets[0]).toBe('before the ADD');
    // No line is shown raw: no JSON object, no logrus key=value line as the label.
    for (const label of await row.locator('[data-testid="step-label"]').allTextContents()) {
      expect(label.trim()).not.toMatch(/^\{|^level=|^time=/);
    }
    expect(await row.locator('[data-testid="step-level"]').count()).toBeGreaterThan(0);
    await shot(page, 'timeline-1280x800');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'timeline-1920x1080');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
