// Pasting in the browser (issue #14): three outputs a customer pasted into a ticket — two pods'
// endpoints, then each pod's vfpctrl port dump, the last one quoted — are pasted one by one (from the
// empty state's button, with Ctrl+Shift+V from the clipboard, and as a text dropped on the window).
// Each is previewed as what it is read as before it is added; they join into one node, the summary
// lists them as files with their kind and says once what is missing; and a walk between the two
// pods crosses every rule and is lit on the graph (unknown in the end: no ipconfig was pasted). The inputs are the ones test/unit/recognise/merge.test.ts
// checks below the UI (test/helpers/demo-pastes.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cameraSettled, expectOnCanvas, graphIds, nodeSelector, openNode, shot } from './helpers.ts';
import { demoPastes, type DemoPastes } from '../helpers/demo-pastes.ts';

const PREVIEW = '[data-testid="paste-preview"]';
const TEXT = '[data-testid="paste-text"]';

describe('pasted outputs join into one node in the app', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let demo: DemoPastes;

  beforeAll(async () => {
    demo = await demoPastes();
    ({ page, errors, close } = await openNode(undefined, { width: 1280, height: 800, clipboard: true }));
  });

  afterAll(() => close?.());

  /** The files the summary lists as read, as [name, kind]. */
  const summaryFiles = async () =>
    page.locator('[data-testid="summary-file"]').evaluateAll((els) => els.map((e) => [e.querySelector('.summary-read-name')!.textContent, e.getAttribute('data-kind')]));

  const closeSummary = async () => {
    await page.click('[data-testid="summary-close"]');
    await page.waitForSelector('[data-testid="summary"]', { state: 'detached' });
  };

  it('previews the first paste from the empty state and opens it as a new node', async () => {
    await page.click('[data-testid="empty-paste"]');
    await page.waitForSelector('[data-testid="paste-dialog"]');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('paste-text');
    expect(await page.getAttribute(PREVIEW, 'data-state')).toBe('empty');
    await page.fill(TEXT, demo.pastes[0].text);
    await page.waitForSelector(`${PREVIEW}[data-state="ready"]`);
    expect(await page.getAttribute(PREVIEW, 'data-kind')).toBe('endpoint');
    expect(await page.textContent('[data-testid="paste-kind"]')).toBe('HNS endpoints');
    expect(await page.textContent('[data-testid="paste-yields"]')).toBe('endpoints 2');
    expect(await page.textContent('[data-testid="paste-format"]')).toMatch(/ConvertTo-Json.* · \d+% sure$/);
    // No node is open yet: the only way is a new one.
    expect(await page.locator('[data-testid="paste-add"]').count()).toBe(0);
    await page.click('[data-testid="paste-new"]');
    await page.waitForSelector('[data-testid="summary"]');
    expect(await summaryFiles()).toEqual([['paste 1.txt', 'endpoint']]);
    expect(await page.textContent('[data-testid="summary-read"]')).toContain('HNS endpoints');
    expect(await page.textContent('[data-testid="summary-missing"]')).toContain('VFP rules');
    await closeSummary();
  });

  it('Ctrl+Shift+V opens Paste output… with the clipboard, previews the port dump, and adds it to the node', async () => {
    await page.evaluate((t) => navigator.clipboard.writeText(t), demo.pastes[1].text);
    await page.keyboard.press('Control+Shift+V');
    await page.waitForSelector('[data-testid="paste-dialog"]');
    await page.waitForFunction((t) => (document.querySelector('[data-testid="paste-text"]') as HTMLTextAreaElement | null)?.value === t, demo.pastes[1].text);
    await page.waitForSelector(`${PREVIEW}[data-state="ready"]`);
    expect(await page.getAttribute(PREVIEW, 'data-kind')).toBe('vfp');
    expect(await page.textContent('[data-testid="paste-kind"]')).toBe('VFP rules');
    expect(await page.locator('[data-testid="paste-yields"] .badge').allTextContents()).toEqual([expect.stringMatching(/^VFP ports 1$/), expect.stringMatching(/^layers \d+$/), expect.stringMatching(/^groups \d+$/), expect.stringMatching(/^rules \d+$/)]);
    await shot(page, 'paste-dialog-preview');
    // Ctrl+Enter is the primary action: with a node open, "Add to this node".
    await page.focus(TEXT);
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="paste-dialog"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="summary"]');
    expect(await summaryFiles()).toEqual([['paste 1.txt', 'endpoint'], ['paste 2.txt', 'vfp']]);
    await closeSummary();
  });

  it('a text dropped on the window opens the dialog with it; added, the three pastes are one node', async () => {
    // The node was just read again with the second paste: its graph mounts anew (later under load).
    await page.waitForSelector('[data-testid="graph"]');
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', t);
      const target = document.querySelector('[data-testid="graph"]')!;
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, demo.pastes[2].text);
    await page.waitForSelector('[data-testid="paste-dialog"]');
    await page.waitForSelector('[data-testid="drop-overlay"]', { state: 'detached' });
    expect(await page.inputValue(TEXT)).toBe(demo.pastes[2].text);
    await page.waitForSelector(`${PREVIEW}[data-state="ready"]`);
    expect(await page.getAttribute(PREVIEW, 'data-kind')).toBe('vfp');
    // The `> ` quote marks of the ticket are taken off, and said.
    expect(await page.textContent('[data-testid="paste-issues"]')).toMatch(/quote marks removed/);
    await page.click('[data-testid="paste-add"]');
    await page.waitForSelector('[data-testid="summary"]');
    expect(await summaryFiles()).toEqual([['paste 1.txt', 'endpoint'], ['paste 2.txt', 'vfp'], ['paste 3.txt', 'vfp']]);
    const summary = (await page.textContent('[data-testid="summary"]'))!;
    expect(summary).toContain('Every endpoint, port, adapter and load balancer joined up.');
    // What the pastes lack is said once, with what it prevents; what they hold is not in that list.
    expect(await page.locator('[data-testid="summary-missing"]').count()).toBe(1);
    await shot(page, 'paste-summary');
    expect(await page.locator('[data-testid="summary-missing"] li strong').allTextContents()).toEqual(['HNS networks', 'HNS load balancers', 'the IP configuration of the compartments', "the node's routing table"]);
    expect(await page.textContent('[data-testid="summary-missing"]')).toContain('packet walks that leave the node');
    await closeSummary();
    await page.waitForSelector('.react-flow__node');
    await page.waitForFunction(() => !document.querySelector('.graph-status'));
  });

  it('walks between the two pasted pods: every rule crossed, both lit on the graph, each hop citing its paste; unknown without ipconfig', async () => {
    const a = `endpoint:${demo.a.id}`;
    const b = `endpoint:${demo.b.id}`;
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type(`${demo.a.ip} -> ${demo.b.ip}:80/tcp`);
    await page.waitForSelector('[data-testid="walk-hit"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="verdict"]');
    // The pastes hold no ipconfig: whether pod b's vNIC receives the packet cannot be told.
    expect(await page.textContent('[data-testid="verdict"]')).toMatch(/Unknown/i);
    expect(await graphIds(page, 'lit-ids')).toEqual(expect.arrayContaining([a, b]));
    const shows = await cameraSettled(page, 'walk');
    await expectOnCanvas(page, shows);
    expect(shows).toEqual(expect.arrayContaining([a, b]));
    for (const id of [a, b]) expect(await page.getAttribute(nodeSelector(id), 'class')).toContain('walk-lit');
    await shot(page, 'paste-joined-walk');
    // The first hop is the source pod, from the endpoint paste; its port's rules come from the
    // second paste, the destination port's from the third.
    expect(await page.textContent('[data-testid="hop-list"]')).toMatch(/evidence paste 1\.txt:\d+/);
    const ruleFiles: string[] = [];
    for (let hop = 2; hop <= 7; hop++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((n) => document.querySelector('[data-testid="hop-pos"]')?.textContent === String(n), hop);
      const link = page.locator('[data-testid="matched-rule"] .src-link');
      if (await link.count()) ruleFiles.push((await link.textContent())!.replace(/:\d+$/, ''));
    }
    expect([...new Set(ruleFiles)]).toEqual(['paste 2.txt', 'paste 3.txt']);
  });

  it('Ctrl+V outside a text field opens Paste output… with the text; Esc closes it and the node stays as it was', async () => {
    const routes = ['IPv4 Route Table', '===========================================================================', 'Active Routes:',
      'Network Destination        Netmask          Gateway       Interface  Metric', '          0.0.0.0          0.0.0.0      10.240.0.1     10.240.0.35     10', ''].join('\n');
    await page.evaluate((t) => navigator.clipboard.writeText(t), routes);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+V');
    await page.waitForSelector('[data-testid="paste-dialog"]');
    expect(await page.inputValue(TEXT)).toBe(routes);
    await page.waitForSelector(`${PREVIEW}[data-state="ready"]`);
    expect(await page.textContent('[data-testid="paste-kind"]')).toBe('routing table');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="paste-dialog"]', { state: 'detached' });
    expect(await page.locator('[data-testid="summary"]').count()).toBe(0);
    expect(await page.textContent('.topbar')).toContain('3 pasted texts');
    expect(errors).toEqual([]);
  });
});
