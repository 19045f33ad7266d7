// Issue 6's scenario in browser mode: walk pod → service on the l2bridge demo, write a note on a hop
// and one on an object, add the walk to the report, export HTML (the preview holds both notes and the
// walk), Copy as Markdown, undo/redo a note; then Compare the demo with a copy whose routes.txt
// changed and see exactly that change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cameraSettled, graphReady, nodeSelector, openApp, openNode, repo, shot, type Served } from './helpers.ts';

const HOP_NOTE = 'Hop 4: the lbnat rule DNATs to 10.244.32.3, check the backend';
const OBJECT_NOTE = 'This service VIP is what the failing pods resolve DNS through';
// The kube-dns UDP load balancer's graph node (its HNS ID in assets/demo/l2bridge-node/policy.txt).
const DNS_UDP_LB = 'loadbalancer:b16d1236-e093-44bd-b7d9-dbf2921c6fd1';

// Where the changed copy is made: a folder the page may open bundles from (serve --allow).
const COPIES = mkdtempSync(path.join(os.tmpdir(), 'hnsight-diff-'));

/** A copy of the demo bundle whose route to 10.244.33.0/24 has metric 99 instead of 271. */
function changedCopy(): string {
  const dir = path.join(COPIES, 'l2bridge-after');
  cpSync(path.join(repo, 'assets/demo/l2bridge-node'), dir, { recursive: true });
  const file = path.join(dir, 'routes.txt');
  const buf = readFileSync(file);
  expect([...buf.subarray(0, 2)]).toEqual([0xff, 0xfe]);
  const text = buf.subarray(2).toString('utf16le');
  const line = text.split('\r\n').find((l) => /^\s+10\.244\.33\.0\s+255\.255\.255\.0\s+10\.240\.0\.20/.test(l))!;
  expect(line).toMatch(/271$/);
  const next = text.replace(line, line.replace(/271$/, ' 99'));
  writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(next, 'utf16le')]));
  return dir;
}

describe('notes, export and compare (browser mode)', () => {
  let server: Served;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, server, page, errors, close } = await openNode('assets/demo/l2bridge-node', { allow: [COPIES], clipboard: true }));
    await graphReady(page);
  });

  afterAll(() => close?.());

  it('writes a note on a hop of the pod → service walk and adds the walk to the report', async () => {
    await page.click('[data-testid="view-walk"]');
    await page.click('[data-testid="preset-pod-to-service"]');
    await page.waitForSelector('[data-testid="verdict"]');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await page.textContent('[data-testid="hop-pos"]')).toBe('4');
    const detail = page.locator('[data-testid="hop-detail"]');
    await detail.locator('[data-testid="note-add"]').click();
    await detail.locator('[data-testid="note-input"]').fill(HOP_NOTE);
    await detail.locator('[data-testid="note-save"]').click();
    expect(await detail.locator('[data-testid="note"]').textContent()).toContain(HOP_NOTE);
    expect(await page.locator('.hop.current [data-testid="note-badge"]').textContent()).toBe('1');
    expect(await page.getAttribute('[data-testid="notes-for"]', 'data-ref')).toBe('trace:10.244.32.3-10.96.0.10:53/udp#3');
    await page.click('[data-testid="walk-add-report"]');
    expect(await page.textContent('[data-testid="walk-add-report"]')).toContain('In the report');
    await page.waitForSelector('[data-testid="notes-status"]:has-text("saved")');
    await detail.locator('[data-testid="notes-for"]').scrollIntoViewIfNeeded();
    await shot(page, 'report-walk-note-light');
  });

  it('writes a note on an object (the service load balancer) in the inspector', async () => {
    // The camera followed hop 4 to the load balancer it reached: click it once the camera is still.
    expect(await cameraSettled(page, 'hop:4')).toContain(DNS_UDP_LB);
    const lb = page.locator(nodeSelector(DNS_UDP_LB));
    expect(await lb.locator('.tnode-label').textContent()).toBe('10.96.0.10:53/UDP');
    await lb.click();
    await page.click('[data-testid="panel-inspector"]');
    await page.waitForSelector('[data-testid="inspector-title"]');
    const insp = page.locator('[data-testid="inspector"]');
    await insp.locator('[data-testid="note-add"]').click();
    await insp.locator('[data-testid="note-input"]').fill(OBJECT_NOTE);
    await insp.locator('[data-testid="note-input"]').press('Control+Enter');
    expect(await insp.locator('[data-testid="note"]').textContent()).toContain(OBJECT_NOTE);
    expect(await page.getAttribute('[data-testid="inspector"] [data-testid="notes-for"]', 'data-ref')).toMatch(/^object:loadbalancer:/);
    expect(await page.textContent('[data-testid="inspector-title"] [data-testid="note-badge"]')).toBe('1');
    await shot(page, 'report-object-note-light');
  });

  it('undoes and redoes a note with the keyboard and the buttons', async () => {
    const card = page.locator('[data-testid="inspector"]');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+z');
    expect(await card.locator('[data-testid="note"]').count()).toBe(0);
    await page.keyboard.press('Control+Shift+Z');
    expect(await card.locator('[data-testid="note"]').count()).toBe(1);
    await page.click('[data-testid="notes-undo"]');
    expect(await card.locator('[data-testid="note"]').count()).toBe(0);
    await page.click('[data-testid="notes-redo"]');
    expect(await card.locator('[data-testid="note"]').textContent()).toContain(OBJECT_NOTE);
  });

  it('exports HTML with a live preview that holds both notes and the walk; copies Markdown', async () => {
    await page.keyboard.press('Control+e');
    await page.waitForSelector('[data-testid="export-dialog"]');
    await page.fill('[data-testid="report-title"]', 'DNS from pods times out on win-fl-l2b-01');
    await page.fill('[data-testid="report-summary"]', 'Pod → kube-dns walks end at a backend the node no longer has.');
    expect(await page.locator('[data-testid="export-walk"]').allTextContents()).toEqual([expect.stringContaining('10.244.32.3 → 10.96.0.10:53/UDP')]);
    const frame = page.frameLocator('[data-testid="export-frame"]');
    await page.waitForFunction(() => {
      const f = document.querySelector<HTMLIFrameElement>('[data-testid="export-frame"]');
      return !!f?.srcdoc.includes('DNS from pods times out') && !document.querySelector('[data-testid="export-preview"][aria-busy="true"]');
    }, undefined, { timeout: 30_000 });
    expect(await page.getAttribute('[data-testid="export-frame"]', 'sandbox')).toBe('');
    await frame.locator('body', { hasText: 'DNS from pods times out' }).waitFor();
    const body = await frame.locator('body').textContent();
    expect(body).toContain(HOP_NOTE);
    expect(body).toContain(OBJECT_NOTE);
    expect(body).toContain('10.96.0.10');
    expect(body).toContain('DNS from pods times out');
    await shot(page, 'export-html-light');

    await page.click('[data-testid="export-copy-md"]');
    await page.waitForSelector('.toast:has-text("copied as Markdown")');
    const md = await page.evaluate(() => navigator.clipboard.readText());
    expect(md).toContain('# DNS from pods times out');
    expect(md).toContain(HOP_NOTE);
    expect(md).toContain(OBJECT_NOTE);

    await page.click('[data-testid="format-md"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent?.includes('DNS from pods'), undefined, { timeout: 30_000 });
    await page.click('[data-testid="format-html"]');
    const download = page.waitForEvent('download');
    await page.click('[data-testid="export-save"]');
    const d = await download;
    expect(d.suggestedFilename()).toBe('hnsight-win-fl-l2b-01-report.html');
    await page.click('[data-testid="export-dialog"] button[aria-label="Close"]');
    await page.waitForSelector('[data-testid="export-dialog"]', { state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('shows the export preview in the dark theme', async () => {
    const { page: dark, errors: darkErrors } = await openApp(browser, server.url, { colorScheme: 'dark' });
    await graphReady(dark);
    await dark.click('[data-testid="export-open"]');
    await dark.waitForFunction(() => document.querySelector<HTMLIFrameElement>('[data-testid="export-frame"]')?.srcdoc.includes('DNS from pods'), undefined, { timeout: 30_000 });
    // The preview has drawn the report (its body, not only the srcdoc attribute, holds it).
    await dark.frameLocator('[data-testid="export-frame"]').locator('body', { hasText: 'DNS from pods' }).waitFor();
    await shot(dark, 'export-html-dark');
    await dark.click('[data-testid="format-json"]');
    await dark.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent?.includes('hnsight-report/1'), undefined, { timeout: 30_000 });
    await dark.close();
    expect(darkErrors).toEqual([]);
  });

  it('compares the demo with a copy whose route changed and shows exactly that change', async () => {
    const after = changedCopy();
    await page.click('[data-testid="compare-open"]');
    await page.waitForSelector('[data-testid="compare-dialog"]');
    expect(await page.inputValue('[data-testid="compare-a"]')).toMatch(/l2bridge-node$/);
    await page.fill('[data-testid="compare-b"]', after);
    await page.click('[data-testid="compare-run"]');
    await page.waitForSelector('[data-testid="diff-result"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="diff-totals"]')).toContain('~1 changed');
    const changed = page.locator('[data-testid="diff-changed"]');
    expect(await changed.count()).toBe(1);
    expect(await changed.textContent()).toContain('10.244.33.0/24');
    expect(await changed.locator('[data-testid="diff-field"]').allTextContents()).toEqual(['metric27199']);
    expect(await page.locator('[data-testid="diff-added"], [data-testid="diff-removed"]').count()).toBe(0);
    expect(await page.locator('[data-testid^="diff-section-"]').count()).toBe(1);
    await shot(page, 'compare-route-light');
    await page.fill('[data-testid="diff-search"]', 'no-such-thing');
    await page.waitForSelector('text=Nothing in the diff matches');
    await page.fill('[data-testid="diff-search"]', '');

    // The same bundle twice: identical.
    await page.fill('[data-testid="compare-b"]', await page.inputValue('[data-testid="compare-a"]'));
    await page.click('[data-testid="compare-run"]');
    await page.waitForSelector('[data-testid="diff-identical"]', { timeout: 60_000 });
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });
});
