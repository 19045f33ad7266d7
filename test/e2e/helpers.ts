// Shared e2e plumbing. The app is served in this test process (the same Backend and server that
// `hnsight serve` starts: no Node start-up per file); `serveProcess` runs the real command where the
// command itself is under test. Chromium is Debian's (/usr/bin/chromium or HNSIGHT_CHROMIUM), launched
// once per run by test/global-setup.ts; each file connects to it. No browser download ever: CI installs
// /usr/bin/chromium, and without it the suite fails loudly rather than skipping.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Backend } from '../../services/backend/backend.ts';
import { startServer } from '../../services/server/server.ts';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM = process.env.HNSIGHT_CHROMIUM || '/usr/bin/chromium';
export const RESULTS = path.join(repo, 'test-results');

export interface Served {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** The backend behind an in-process server (not for serveProcess). */
  backend?: Backend;
}

/**
 * Browser mode served from this process, like `hnsight serve [bundle] [--allow DIR]... [--port N]`
 * (args: at most a bundle path; `allow`: folders whose bundles the page may open by path; `port` to
 * start again where a stopped server was); with `cluster`, like `hnsight serve DIR` for a folder of
 * bundles.
 */
export async function serve(args: string[], opts: { allow?: string[]; port?: number; cluster?: string } = {}): Promise<Served> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-e2e-data-'));
  const bundle = args[0] ? path.resolve(repo, args[0]) : undefined;
  // A request that fails unexpectedly (a 500 in the page's console) is printed with its stack here.
  const backend = new Backend({ mode: 'browser', dataDir, initialBundle: bundle, initialCluster: opts.cluster, allowedRoots: opts.allow, log: (m) => process.stderr.write(`${m}\n`) });
  const server = await startServer({ backend, staticDir: path.join(repo, 'dist/renderer'), port: opts.port });
  return { url: server.url, port: server.port, stop: server.close, backend };
}

/**
 * Bundles served once in this test worker (vitest runs the files with isolate: false, so a worker's
 * module cache, and this map, lasts across the files it runs): files that only read a node open their
 * page on the server that already has it loaded, and pay neither the load nor the findings, Services
 * and reachability workers again. Each file still opens its own page (its own browser context: fresh
 * storage, the load summary shown again), so no test sees another's dialogs or selection. The servers
 * end with the worker.
 */
const servedOnce = new Map<string, Promise<Served>>();

/** The one in-process server of `bundle` in this worker (`serve([bundle])`, no other option). */
export function serveShared(bundle: string): Promise<Served> {
  const key = path.resolve(repo, bundle);
  let s = servedOnce.get(key);
  if (!s) {
    s = serve([key]);
    // A start that failed is not kept: the next file tries again and says why.
    s.catch(() => servedOnce.delete(key));
    servedOnce.set(key, s);
  }
  return s;
}

/** The real `hnsight serve` as a child process, its URL read from what it prints. */
export function serveProcess(args: string[]): Promise<Served> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-e2e-data-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(repo, 'bin/hnsight.mjs'), 'serve', ...args, '--port', '0'], {
    cwd: repo,
    // Vitest runs with NODE_ENV=test; the renderer build must be the production one users get.
    env: { ...process.env, NODE_ENV: 'production', HNSIGHT_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hnsight serve did not print its URL within 120 s\nstdout: ${out}\nstderr: ${err}`)), 120_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving on (http:\/\/127\.0\.0\.1:(\d+)\/\?token=\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        port: Number(m[2]),
        stop: () =>
          new Promise<void>((r) => {
            if (child.exitCode !== null) return r();
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hnsight serve exited with ${code}\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** The run's shared Chromium (test/global-setup.ts), or one of this file's own when run without it. */
export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The end-to-end tests need Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set HNSIGHT_CHROMIUM). It is not installed, so the UI was not tested.`);
  }
  mkdirSync(RESULTS, { recursive: true });
  const ws = inject('chromiumWsEndpoint');
  if (ws) return chromium.connect(ws);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Opens the app and waits until it says it is ready; collects page errors for the test to assert. */
export async function openApp(browser: Browser, url: string, opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 }, colorScheme: opts.colorScheme ?? 'light' });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // Every console error counts (the meta CSP no longer carries frame-ancestors, which Chromium
    // reported on every load). A failed request's message does not name it; its URL is the message's location.
    if (m.type() === 'error') errors.push(m.text().startsWith('Failed to load resource') ? `${m.text()}: ${m.location().url}` : m.text());
  });
  await page.goto(url);
  await page.waitForSelector('#root[data-app-state="ready"]', { timeout: 60_000 });
  // The page moved the token to its tab's storage: the address bar and history no longer show it.
  expect(page.url()).not.toMatch(/[?&]token=/);
  return { page, errors };
}

/**
 * A call of the API from inside the page, as the app makes it: the tab's token (sessionStorage, see
 * renderer/src/api/tab-token.ts) in the X-Hnsight-Token header. Rejects with the envelope's error.
 */
export async function pageApi<T>(page: Page, method: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([m, b]) => {
      const token = sessionStorage.getItem('hnsight.token') ?? '';
      const r = await fetch(`./api/${m}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hnsight-Token': token }, body: JSON.stringify(b) });
      const e = await r.json();
      if (!e.ok) throw new Error(e.error);
      return e.value;
    },
    [method, body] as const,
  ) as Promise<T>;
}

/**
 * The setup most files share: the run's Chromium, `bundle` served (none: the empty state), the app open.
 * `shared`: on this worker's one server of `bundle` (serveShared), for files whose tests only read the
 * node on the server (no notes, no folders allowed, no environment of their own); close() leaves it running.
 */
export async function openNode(
  bundle: string | undefined,
  opts: { allow?: string[]; cluster?: string; process?: boolean; shared?: boolean; width?: number; height?: number; clipboard?: boolean } = {},
): Promise<{ browser: Browser; server: Served; page: Page; errors: string[]; close(): Promise<void> }> {
  if (opts.shared && (!bundle || opts.allow || opts.cluster || opts.process)) throw new Error('openNode: a shared server serves one bundle and nothing else');
  const browser = await launch();
  let server: Served | undefined;
  const close = async () => {
    await browser.close();
    if (!opts.shared) await server?.stop();
  };
  try {
    const args = bundle ? [bundle] : [];
    // `process`: the real `hnsight serve` as a child process, where the command itself is under test.
    server = opts.shared ? await serveShared(bundle!) : opts.process ? await serveProcess(args) : await serve(args, { allow: opts.allow, cluster: opts.cluster });
    const { page, errors } = await openApp(browser, server.url, { width: opts.width, height: opts.height });
    if (opts.clipboard) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    return { browser, server, page, errors, close };
  } catch (e) {
    // A setup that fails half-way leaves nothing running (afterAll gets no close() to call).
    await close();
    throw e;
  }
}

/** Saves what the page shows as test-results/<name>.png, in the runs that keep screenshots (test/global-setup.ts). */
export async function shot(page: Page, name: string): Promise<void> {
  if (inject('screenshots') === false) return;
  await page.screenshot({ path: path.join(RESULTS, `${name}.png`) });
}

/** Closes the load summary and waits until the graph is laid out (the instant layout replaced by elkjs). */
export async function graphReady(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="summary"]');
  await page.click('[data-testid="summary-close"]');
  await page.waitForSelector('.react-flow__node', { timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('.graph-status'), undefined, { timeout: 30_000 });
}

/**
 * Opens the Reachability view of a loaded page and waits until its whole matrix is worked out (the
 * grid fills progressively; the small nodes the tests open fit the first pass).
 */
export async function reachViewReady(page: Page): Promise<void> {
  await graphReady(page);
  await page.click('[data-testid="view-reach"]');
  await page.waitForSelector('[data-testid="reach-grid"]', { timeout: 90_000 });
  await page.waitForSelector('[data-testid="reach-run"][data-running="false"]', { timeout: 90_000 });
}

const GRAPH = '[data-testid="graph"]';

/**
 * The node ids the graph's container lists (data-lit-ids: every node the walk lights; current-ids:
 * the current hop's; finding-ids: the open finding's objects). The app's own account of what is lit,
 * whatever React Flow happens to draw (it draws only what is on screen).
 */
export async function graphIds(page: Page, list: 'lit-ids' | 'current-ids' | 'finding-ids'): Promise<string[]> {
  const v = await page.getAttribute(GRAPH, `data-${list}`);
  return v ? v.split(' ') : [];
}

/**
 * Waits until the camera's last move was for `reason` (walk, hop:<n>, finding:<key>, focus:<node id>,
 * place, fit) and has ended, and returns the node ids that move brought into view. No sleeping: the
 * graph's container says when the camera is still.
 */
export async function cameraSettled(page: Page, reason: string): Promise<string[]> {
  const graph = page.locator(`${GRAPH}[data-camera="still"][data-camera-reason="${reason}"]`);
  await graph.waitFor({ timeout: 15_000 });
  const shows = await graph.getAttribute('data-camera-shows');
  return shows ? shows.split(' ') : [];
}

export const nodeSelector = (id: string) => `.react-flow__node[data-id="${id}"]`;

/** Each node is drawn and lies wholly on the canvas (checked once the camera is still). */
export async function expectOnCanvas(page: Page, ids: readonly string[]): Promise<void> {
  const canvas = (await page.locator(GRAPH).boundingBox())!;
  for (const id of ids) {
    const node = page.locator(nodeSelector(id));
    await node.waitFor({ state: 'attached' });
    const b = await node.boundingBox();
    expect(b, id).not.toBeNull();
    const box = b!;
    expect(box.x, id).toBeGreaterThanOrEqual(canvas.x);
    expect(box.y, id).toBeGreaterThanOrEqual(canvas.y);
    expect(box.x + box.width, id).toBeLessThanOrEqual(canvas.x + canvas.width);
    expect(box.y + box.height, id).toBeLessThanOrEqual(canvas.y + canvas.height);
  }
}
