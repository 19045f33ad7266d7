// Connect to node… in browser mode: Open ▾ → Connect to node…, WinRM to the in-repo test server with
// the password typed in the field, progress while the commands run, then the collected bundle's
// summary. Also a wrong password, and cancel. The password never shows up in the page afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import path from 'node:path';
import os from 'node:os';
import { promises as fs } from 'node:fs';
import { openNode, repo, shot } from './helpers.ts';
import { decodeFixture, startWinRmTestServer } from '../../tools/winrm-test-server.ts';
import { COLLECT_COMMANDS } from '../../services/live/collect-commands.ts';

const PASSWORD = 'E2e-Conn3ct!pw';
const DEMO = path.join(repo, 'assets/demo/l2bridge-node');

describe('Connect to node… (browser mode, WinRM test server)', () => {
  let page: Page;
  let errors: string[];
  let close: () => Promise<void>;
  let winrm: Awaited<ReturnType<typeof startWinRmTestServer>>;
  let slow: Awaited<ReturnType<typeof startWinRmTestServer>>;
  let gappy: Awaited<ReturnType<typeof startWinRmTestServer>>;
  let gappyDir: string;
  let slowDir: string;

  beforeAll(async () => {
    // Small chunks and a timeout fault per command: the collection takes long enough to watch.
    winrm = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures: DEMO, inject: { chunkSize: 24 * 1024, timeouts: 1 } });
    // A node whose vfpOutput (the 9th command) is huge, sent in small chunks: there is time to watch and cancel.
    slowDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-e2e-slow-'));
    for (const f of await fs.readdir(DEMO)) if (f !== 'adapters') await fs.copyFile(path.join(DEMO, f), path.join(slowDir, f));
    const vfp = decodeFixture(await fs.readFile(path.join(DEMO, 'vfpOutput.txt')));
    await fs.writeFile(path.join(slowDir, 'vfpOutput.txt'), vfp + '\r\n' + vfp.repeat(200));
    slow = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures: slowDir, inject: { chunkSize: 2048 } });
    // A node without hnsdiag (and no adapters folder): that command fails, the rest is collected.
    gappyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-e2e-gappy-'));
    for (const f of await fs.readdir(DEMO)) if (f !== 'hnsdiag.txt' && f !== 'adapters') await fs.copyFile(path.join(DEMO, f), path.join(gappyDir, f));
    gappy = await startWinRmTestServer({ port: 0, user: 'hnsight', password: PASSWORD, fixtures: gappyDir, inject: { chunkSize: 64 * 1024 } });
    ({ page, errors, close } = await openNode(undefined));
  });

  afterAll(async () => {
    await close?.();
    await winrm?.close();
    await slow?.close();
    await gappy?.close();
    if (gappyDir) await fs.rm(gappyDir, { recursive: true, force: true });
    if (slowDir) await fs.rm(slowDir, { recursive: true, force: true });
  });

  async function openDialog(p: Page) {
    await p.click('[data-testid="open-menu"]');
    await p.click('[data-testid="open-connect"]');
    await p.waitForSelector('[data-testid="connect-dialog"]');
  }

  async function fill(p: Page, url: string, password: string) {
    await p.click('[data-testid="connect-tab-winrm"]');
    await p.fill('[data-testid="connect-url"]', url);
    await p.fill('[data-testid="connect-user"]', 'WINNODE\\hnsight');
    await p.fill('[data-testid="connect-password"]', password);
  }

  it('a wrong password: the dialog says so, without the password, and goes back to the form', async () => {
    await openDialog(page);
    expect(await page.locator('[data-testid="connect-remember"]').count()).toBe(0); // browser mode: no secret store
    await fill(page, winrm.url, 'wrong-' + PASSWORD);
    await page.click('[data-testid="connect-submit"]');
    await page.waitForSelector('[data-testid="connect-job"][data-state="failed"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="connect-dialog"]')).toMatch(/refused the user name or password/);
    await shot(page, 'connect-wrong-password');
    expect(await page.content()).not.toContain('wrong-' + PASSWORD);
    await page.click('[data-testid="connect-again"]');
    expect(await page.inputValue('[data-testid="connect-password"]')).toBe('');
    expect(await page.inputValue('[data-testid="connect-url"]')).toBe(winrm.url);
  });

  it('cancel stops a running collection', async () => {
    await page.fill('[data-testid="connect-url"]', slow.url);
    await page.fill('[data-testid="connect-password"]', PASSWORD);
    await page.click('[data-testid="connect-submit"]');
    await page.waitForSelector('[data-testid="connect-job"][data-state="running"]', { timeout: 30_000 });
    // The slow command is vfpOutput.txt: wait until the collection is in it.
    const vfpAt = `Command ${COLLECT_COMMANDS.findIndex((c) => c.file === 'vfpOutput.txt') + 1} of ${COLLECT_COMMANDS.length} · `;
    await page.waitForFunction((head) => new RegExp(`${head}.*[KM]iB so far`).test(document.querySelector('[data-testid="connect-progress"]')?.textContent ?? ''), vfpAt, { timeout: 30_000 });
    await shot(page, 'connect-progress');
    await page.click('[data-testid="connect-cancel"]');
    await page.waitForSelector('[data-testid="connect-job"][data-state="cancelled"]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid="connect-result"]')).toContain('Cancelled');
    await shot(page, 'connect-cancelled');
    await page.click('[data-testid="connect-again"]');
  });

  it('a partial collection opens the bundle behind the dialog, which lists the command that failed', async () => {
    await page.fill('[data-testid="connect-url"]', gappy.url);
    await page.fill('[data-testid="connect-password"]', PASSWORD);
    await page.click('[data-testid="connect-submit"]');
    await page.waitForSelector('[data-testid="connect-job"][data-state="partial"]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="connect-show"]');
    const problems = await page.textContent('[data-testid="connect-problems"]');
    expect(problems).toContain('hnsdiag.txt');
    expect(problems).toContain('failed');
    await page.waitForSelector('[data-testid="summary"]', { timeout: 60_000 });
    await shot(page, 'connect-partial');
    await page.click('[data-testid="connect-show"]');
    await page.waitForSelector('[data-testid="connect-dialog"]', { state: 'detached' });
    expect(await page.textContent('[data-testid="summary-host"]')).toBe('win-fl-l2b-01');
    await page.click('[data-testid="summary-close"]');
    await openDialog(page);
  });

  it('collects over WinRM and lands on the summary of the collected bundle', async () => {
    await page.fill('[data-testid="connect-url"]', winrm.url);
    await page.fill('[data-testid="connect-password"]', PASSWORD);
    await shot(page, 'connect-form');
    await page.click('[data-testid="connect-submit"]');
    // This fixture node answers fast enough that the job view may close before it can be seen
    // (progress is watched on the slow node in the cancel test); the bundle then opens: the dialog closes and the summary of the collected node shows.
    await page.waitForSelector('[data-testid="summary"]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="connect-dialog"]', { state: 'detached' });
    expect(await page.textContent('[data-testid="summary-host"]')).toBe('win-fl-l2b-01');
    const summary = await page.textContent('[data-testid="summary"]');
    expect(summary).toContain('get-rule-counter');
    expect(await page.content()).toMatch(/collections[/\\]127\.0\.0\.1-\d{8}-\d{6}/);
    await shot(page, 'connect-summary');
    expect(await page.content()).not.toContain(PASSWORD);
    expect(errors).toEqual([]);
  });

  it('the node is offered again next time, without a password', async () => {
    await page.click('[data-testid="summary-close"]');
    await openDialog(page);
    const options = await page.locator('[data-testid="connect-saved"] option').allTextContents();
    expect(options.some((o) => o.includes('127.0.0.1'))).toBe(true);
    expect(options.join('\n')).not.toContain('password remembered');
    await shot(page, 'connect-saved');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="connect-dialog"]', { state: 'detached' });
  });
});
