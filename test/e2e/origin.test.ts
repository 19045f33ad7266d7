// Browser mode against a page on another port of 127.0.0.1 (issues 15 and 28): that page is the same
// site for cookies, so a token kept in a cookie would reach it (and every other local web service).
// The token lives in the app tab's sessionStorage and travels only as a header, which another origin
// cannot make the browser send: its requests carry nothing, a cookie holding the token grants
// nothing, and even knowing the token it could not send it (the preflight is refused). Both pages
// run in one real Chromium profile; the app's own page uploads (the control).
// Also: `npm start`'s launch page hands the token to a real Chromium, which lands in the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiEvent } from '../../contract/index.ts';
import { launch, repo, serve, type Served } from './helpers.ts';

describe('a page on another 127.0.0.1 port', () => {
  let browser: Browser;
  let context: BrowserContext;
  let app: Served;
  let other: http.Server;
  let otherUrl: string;
  let token: string;
  const loads: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    app = await serve([]);
    token = new URL(app.url).searchParams.get('token')!;
    app.backend!.onEvent((e: ApiEvent) => {
      if (e.type === 'load' && !loads.includes(e.job.jobId)) loads.push(e.job.jobId);
    });
    other = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>another local site</title><p>hello</p>');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
    context = await browser.newContext();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await new Promise((r) => other?.close(r));
  });

  /**
   * The upload and the API calls a page can make: "simple" requests (no preflight, cookies included,
   * the answer opaque to the sender), and with `headerToken` the same calls carrying the token header
   * (a CORS request from another origin: preflighted).
   */
  async function attempts(page: Page, target: string, headerToken?: string) {
    return page.evaluate(
      async ([base, t]) => {
        const results: string[] = [];
        const body = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
        const extra: Record<string, string> = t ? { 'X-Hnsight-Token': t } : {};
        const mode: RequestMode = t ? 'cors' : 'no-cors';
        await fetch(`${base}/upload?name=evil.zip&size=${body.length}`, { method: 'POST', mode, credentials: 'include', headers: extra, body }).then(
          (r) => results.push(`upload ${r.type} ${r.status}`),
          (e) => results.push(`upload error ${String(e).slice(0, 20)}`),
        );
        await fetch(`${base}/api/openDemo`, { method: 'POST', mode, credentials: 'include', headers: { 'Content-Type': t ? 'application/json' : 'text/plain', ...extra }, body: '{"name":"l2bridge-node"}' }).then(
          (r) => results.push(`api ${r.type} ${r.status}`),
          (e) => results.push(`api error ${String(e).slice(0, 20)}`),
        );
        return results;
      },
      [target, headerToken] as const,
    );
  }

  it('the app page itself uploads and calls with its tab token (the control); its address bar shows no token', async () => {
    const page = await context.newPage();
    await page.goto(app.url);
    await page.waitForSelector('#root[data-app-state="ready"]', { timeout: 60_000 });
    expect(page.url()).toBe(`${new URL(app.url).origin}/`);
    const held = await page.evaluate(() => sessionStorage.getItem('hnsight.token'));
    expect(held).toBe(token);
    // No cookie anywhere in the profile, and none the page could read.
    expect(await context.cookies()).toEqual([]);
    const before = loads.length;
    const origin = new URL(app.url).origin;
    expect(await attempts(page, origin, held!)).toEqual(['upload basic 200', 'api basic 200']);
    // The upload and the demo both started a load.
    await expect.poll(() => loads.length).toBe(before + 2);
    await page.close();
  });

  it('the other page is refused: without the token, with a cookie holding it, and even knowing it', async () => {
    const own = await context.newPage();
    await own.goto(app.url);
    await own.waitForSelector('#root[data-app-state="ready"]', { timeout: 60_000 });
    // As a cookie-based build would have left it: the token in a cookie for 127.0.0.1, sent to every port.
    await context.addCookies([{ name: `hnsight_token_${app.port}`, value: token, url: new URL(app.url).origin }]);
    const page = await context.newPage();
    await page.goto(otherUrl);
    const before = loads.length;
    const uploadsBefore = readdirSync(os.tmpdir()).filter((n) => n.startsWith('hnsight-upload-')).length;
    // Whether it reached the server and what the server said is visible to the test, not to the page.
    const statuses: { url: string; method: string; status: number }[] = [];
    page.on('response', (r) => statuses.push({ url: r.url(), method: r.request().method(), status: r.status() }));
    expect(await attempts(page, new URL(app.url).origin)).toEqual(['upload opaque 0', 'api opaque 0']);
    expect(statuses.filter((s) => s.url.includes('/upload') || s.url.includes('/api/')).map((s) => s.status)).toEqual([401, 401]);
    // Knowing the token, the page still cannot send it: the header needs a preflight, which is refused.
    statuses.length = 0;
    const withHeader = await attempts(page, new URL(app.url).origin, token);
    expect(withHeader.every((r) => / error /.test(r)), withHeader.join()).toBe(true);
    expect(statuses.filter((s) => s.method === 'POST')).toEqual([]);
    expect(loads.length).toBe(before);
    expect(readdirSync(os.tmpdir()).filter((n) => n.startsWith('hnsight-upload-')).length).toBeLessThanOrEqual(uploadsBefore);
    await page.close();
    await own.close();
    await context.clearCookies();
  });

  it('a new tab opened without the printed URL says it needs that URL', async () => {
    const page = await context.newPage();
    await page.goto(`${new URL(app.url).origin}/`);
    const lost = page.locator('[data-testid="error-state"][data-kind="access"]');
    await lost.waitFor({ timeout: 60_000 });
    expect(await lost.textContent()).toMatch(/does not accept this tab.*opened without the token.*a new tab needs that URL again/s);
    await page.close();
  });
});

describe("npm start's launch page", () => {
  let browser: Browser;
  let start: ChildProcess | undefined;
  let work: string;

  beforeAll(async () => {
    browser = await launch();
    work = mkdtempSync(path.join(os.tmpdir(), 'hnsight-start-e2e-'));
  });

  afterAll(async () => {
    if (start && start.exitCode === null) {
      const s = start;
      await new Promise<void>((r) => {
        s.once('exit', () => r());
        s.kill('SIGTERM');
      });
    }
    await browser?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('puts no token on any command line, and a real Chromium opening the page lands in the app', async () => {
    // The "browser" npm start opens: records its arguments, then waits like a browser would.
    const fake = path.join(work, 'fake-chromium');
    const argsFile = path.join(work, 'args');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexec sleep 600\n`);
    chmodSync(fake, 0o755);
    start = spawn(process.execPath, [path.join(repo, 'tools/start.mjs'), '--browser', path.join(repo, 'assets/demo/l2bridge-node')], {
      cwd: repo,
      env: { ...process.env, NODE_ENV: 'production', HNSIGHT_BROWSER: fake, DISPLAY: process.env.DISPLAY || ':99', HNSIGHT_DATA_DIR: path.join(work, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    start.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const token = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`npm start printed no URL: ${out}`)), 120_000);
      const check = () => {
        const m = /serving on http:\/\/127\.0\.0\.1:\d+\/\?token=(\S+)/.exec(out);
        if (m) {
          clearTimeout(t);
          resolve(m[1]);
        } else setTimeout(check, 50);
      };
      check();
    });
    // The fake browser has started and written its arguments.
    await expect.poll(() => { try { return readFileSync(argsFile, 'utf8'); } catch { return ''; } }, { timeout: 30_000 }).toMatch(/--app=file:/);
    const args = readFileSync(argsFile, 'utf8');
    expect(args).not.toContain(token);
    // No process of this machine shows the token in its arguments (what `ps` would list).
    for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      expect(cmd, `process ${pid}`).not.toContain(token);
    }
    // A real Chromium given that page follows it into the app, with the token, and is let in.
    const launchUrl = /--app=(file:\S+)/.exec(args)![1];
    const page = await browser.newPage();
    await page.goto(launchUrl);
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\//, { timeout: 30_000 });
    await page.waitForSelector('#root[data-app-state="ready"]', { timeout: 60_000 });
    await page.close();
  });
});
