#!/usr/bin/env node
// `npm start [-- bundle] [--browser] [--no-open]`: runs the desktop app (Electron) on a bundle, the
// bundled demo node by default. Where Electron's binary is not installed (offline installs download
// it separately; this machine never has it) it says so in one line and runs browser mode instead:
// `hnsight serve`, whose URL it opens in Chromium when one and a display exist — through a page in
// Chromium's private profile folder, so the token never appears on a command line (`ps` shows every
// process's arguments to every user of the machine).
//
// Electron's binary is looked for directly (node_modules/electron/path.txt → dist/…): requiring the
// `electron` package would try to download the binary first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_BUNDLE = path.join(repo, 'assets', 'demo', 'l2bridge-node');

export const NO_ELECTRON_NOTICE = "hnsight: Electron's binary is not installed (offline install); opening browser mode instead";
export const NO_DISPLAY_NOTICE = 'hnsight: no display (DISPLAY / WAYLAND_DISPLAY unset) for the Electron window; opening browser mode instead';

/** True when a GUI window can be shown (X11/Wayland on Linux and other Unixes; always on Windows and macOS). */
export function hasDisplay(env = process.env, platform = process.platform) {
  if (platform === 'win32' || platform === 'darwin') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * The Electron executable, or null with the reason, without loading the `electron` package.
 * @param {{ env?: NodeJS.ProcessEnv, electronDir?: string | null }} [opts] electronDir: node_modules/electron (null: not installed)
 */
export function findElectronBinary({ env = process.env, electronDir } = {}) {
  if (electronDir === undefined) {
    try {
      electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    } catch {
      electronDir = null;
    }
  }
  if (!electronDir) return { binary: null, reason: 'the electron package is not installed' };
  const pathFile = path.join(electronDir, 'path.txt');
  const exe = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, exe || (process.platform === 'win32' ? 'electron.exe' : 'electron'));
    return existsSync(p) ? { binary: p, reason: null } : { binary: null, reason: `ELECTRON_OVERRIDE_DIST_PATH has no ${p}` };
  }
  if (!exe) return { binary: null, reason: "Electron's binary was never downloaded (no path.txt)" };
  const p = path.join(electronDir, 'dist', exe);
  return existsSync(p) ? { binary: p, reason: null } : { binary: null, reason: `${p} is missing` };
}

/**
 * `.npmrc` runs no package's install script, Electron's own download among them: the first `npm start`
 * runs that one step itself when the package is there without its binary. Offline it fails at once
 * (one line says why) and browser mode follows.
 * @returns {string | null} why it could not, or null when it ran
 */
export function fetchElectronBinary(run = spawnSync) {
  let installer;
  try {
    installer = path.join(path.dirname(createRequire(import.meta.url).resolve('electron/package.json')), 'install.js');
  } catch {
    return 'the electron package is not installed';
  }
  if (!existsSync(installer)) return `${installer} is missing`;
  process.stderr.write("hnsight: downloading Electron's binary (once; npm's install scripts are off for this project)\n");
  const r = run(process.execPath, [installer], { encoding: 'utf8', timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status === 0) return null;
  const first = `${r.stderr ?? ''}`.split('\n').find((l) => /error/i.test(l)) ?? (r.error ? String(r.error.message) : `exit ${r.status}`);
  return `Electron's binary could not be downloaded (${first.trim().slice(0, 200)})`;
}

/** The first executable file among candidates and the PATH lookups of `names`. */
export function findChromium({ env = process.env, platform = process.platform } = {}) {
  if (env.HNSIGHT_BROWSER) return isExecutable(env.HNSIGHT_BROWSER) ? env.HNSIGHT_BROWSER : null;
  const fixed =
    platform === 'darwin'
      ? ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']
      : platform === 'win32'
        ? []
        : ['/usr/bin/chromium'];
  for (const c of fixed) if (isExecutable(c)) return c;
  if (platform === 'win32') return null;
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    for (const d of dirs) {
      const p = path.join(d, name);
      if (isExecutable(p)) return p;
    }
  }
  return null;
}

function isExecutable(p) {
  try {
    const s = statSync(p);
    return s.isFile() && (process.platform === 'win32' || (s.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * What `npm start` does, from what exists.
 * @param {{ electronBinary: string | null, chromium: string | null, display: boolean, forceBrowser?: boolean, noOpen?: boolean }} s
 * @returns {{ mode: 'electron', binary: string } | { mode: 'browser', notice: string | null, openWith: string | null }}
 */
export function decideLaunch({ electronBinary, chromium, display, forceBrowser = false, noOpen = false }) {
  const openWith = !noOpen && chromium && display ? chromium : null;
  if (forceBrowser) return { mode: 'browser', notice: null, openWith };
  if (!electronBinary) return { mode: 'browser', notice: NO_ELECTRON_NOTICE, openWith };
  if (!display) return { mode: 'browser', notice: NO_DISPLAY_NOTICE, openWith: null };
  return { mode: 'electron', binary: electronBinary };
}

/** The URL in `hnsight serve`'s output line, or null. */
export function serveUrlFromLine(line) {
  const m = /\bhttps?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/\S*/.exec(line);
  return m ? m[0].replace(/[).,;]+$/, '') : null;
}

/**
 * Writes the page that sends Chromium on to `url` (which carries the token) into `profileDir` — a
 * folder of mkdtemp's, only this user's — readable by this user alone, and returns its file: URL,
 * the only address Chromium's command line then carries.
 * @param {string} profileDir
 * @param {string} url
 */
export function writeLaunchPage(profileDir, url) {
  const file = path.join(profileDir, 'open-hnsight.html');
  const attr = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writeFileSync(file, `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${attr}"><title>hnsight</title>\n`, { mode: 0o600, flag: 'wx' });
  return pathToFileURL(file).href;
}

/** Chromium's arguments for an app window on `url` with a throw-away profile. */
export function chromiumArgs(url, profileDir, { root = typeof process.getuid === 'function' && process.getuid() === 0 } = {}) {
  return [
    `--app=${url}`,
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    // Chromium refuses to run as root with its sandbox (containers, CI machines).
    ...(root ? ['--no-sandbox'] : []),
  ];
}

/** The command line: [bundle] plus --browser / --no-open. */
export function parseStartArgs(argv) {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const unknown = [...flags].filter((f) => f !== '--browser' && f !== '--no-open');
  const positional = argv.filter((a) => !a.startsWith('--'));
  return {
    bundle: positional[0] ? path.resolve(positional[0]) : DEFAULT_BUNDLE,
    extra: positional.slice(1),
    unknown,
    forceBrowser: flags.has('--browser'),
    noOpen: flags.has('--no-open'),
  };
}

// ---------------------------------------------------------------------------------------------

function childEnv() {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  return env;
}

/**
 * Resolves with the child's exit code. A Ctrl+C reaches the child through the terminal (same process
 * group); a SIGTERM is passed on. A child that does not stop is terminated, then killed.
 */
function waitForChild(child, { graceMs = 3000, killMs = 5000 } = {}) {
  return new Promise((resolve) => {
    let stopping = false;
    const escalate = (firstSignal) => {
      if (stopping) {
        child.kill('SIGKILL');
        return;
      }
      stopping = true;
      const kill = () => setTimeout(() => child.kill('SIGKILL'), killMs).unref();
      if (firstSignal) {
        child.kill(firstSignal);
        kill();
      } else {
        setTimeout(() => {
          child.kill('SIGTERM');
          kill();
        }, graceMs).unref();
      }
    };
    const onSigint = () => escalate(null);
    const onSigterm = () => escalate('SIGTERM');
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    child.on('error', (e) => {
      process.stderr.write(`hnsight: could not run ${child.spawnfile}: ${e.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
    });
  });
}

async function buildRendererIfNeeded() {
  const script = path.join(repo, 'tools', 'build-renderer.mjs');
  if (!existsSync(script)) return;
  const mod = await import(pathToFileURL(script).href);
  // In a child process: this one waits for the app as long as it runs, and would keep the bundler's memory.
  if (typeof mod.buildRendererInChild === 'function') await mod.buildRendererInChild();
}

async function runElectron(binary, bundle) {
  await buildRendererIfNeeded();
  const { buildElectron } = await import(pathToFileURL(path.join(repo, 'tools', 'build-electron.mjs')).href);
  await buildElectron();
  const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  // `electron .` when package.json names the built main (app name and userData come from it).
  const app = pkg.main === 'dist/electron/main.cjs' ? repo : path.join(repo, 'dist', 'electron', 'main.cjs');
  const child = spawn(binary, [app, bundle], { stdio: 'inherit', env: childEnv() });
  return waitForChild(child);
}

/**
 * Browser mode's server (`hnsight serve`, bin/hnsight.mjs) and its worker threads start from bundles of
 * their TypeScript (services/worker-entry/): built here, before the server starts, when a source
 * changed since the last build — so the server itself does not run through tsx for its whole life
 * (≈ 60 MiB more), and the first bundle it opens is not checked by workers compiling through tsx while
 * the same bundles build beside them. The server is not started yet, so this build delays no answer;
 * one child builds them all (esbuild ≈ 1–3 s after an edit). A failure leaves that code on tsx and
 * says so. The desktop app needs none: its main and workers are dist/electron/ (tools/build-electron.mjs).
 */
export async function buildWorkerBundlesIfNeeded({ write = (/** @type {string} */ line) => process.stderr.write(line) } = {}) {
  if (process.env.HNSIGHT_WORKER_BUNDLES === '0') return;
  const { PRODUCT_BUNDLE_ENTRIES, CLI_ENTRY, freshBundle } = await import(pathToFileURL(path.join(repo, 'services', 'worker-entry', 'fresh-bundle.mjs')).href);
  const wanted = PRODUCT_BUNDLE_ENTRIES.filter((/** @type {string} */ e) => e !== CLI_ENTRY || process.env.HNSIGHT_CLI_BUNDLE !== '0');
  const stale = wanted.filter((/** @type {string} */ e) => !freshBundle(e));
  if (!stale.length) return;
  write('hnsight: preparing the server and its worker threads (once after a change)…\n');
  const { buildInChild } = await import(pathToFileURL(path.join(repo, 'services', 'worker-entry', 'build-in-child.mjs')).href);
  for (const r of await buildInChild(stale).done) {
    if (r.result === 'failed') write(`hnsight: ${path.basename(r.entry)} runs through tsx (its bundle could not be built: ${r.message})\n`);
  }
}

async function runBrowser(bundle, openWith) {
  await buildWorkerBundlesIfNeeded();
  const server = spawn(process.execPath, [path.join(repo, 'bin', 'hnsight.mjs'), 'serve', bundle], { stdio: ['ignore', 'pipe', 'inherit'], env: childEnv() });
  let browser = null;
  let profile = null;
  let buffered = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (browser || !openWith) return;
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const url = serveUrlFromLine(line);
      if (!url) continue;
      profile = mkdtempSync(path.join(os.tmpdir(), 'hnsight-chromium-'));
      browser = spawn(openWith, chromiumArgs(writeLaunchPage(profile, url), profile), { stdio: 'ignore' });
      browser.on('error', (e) => process.stderr.write(`hnsight: could not open ${openWith} (${e.message}); use the URL above\n`));
      break;
    }
  });
  const code = await waitForChild(server);
  if (browser && browser.exitCode === null && browser.signalCode === null) {
    const b = browser;
    await new Promise((resolve) => {
      const t = setTimeout(resolve, 2000);
      b.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      b.kill('SIGTERM');
    });
  }
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  return code;
}

export async function main(argv = process.argv.slice(2)) {
  const args = parseStartArgs(argv);
  if (args.unknown.length || args.extra.length) {
    process.stderr.write(`hnsight: usage: npm start [-- <bundle>] [--browser] [--no-open]\n`);
    return 2;
  }
  let electron = findElectronBinary();
  if (!electron.binary && !args.forceBrowser && /never downloaded/.test(electron.reason ?? '')) {
    const why = fetchElectronBinary();
    if (why) process.stderr.write(`hnsight: ${why}\n`);
    else electron = findElectronBinary();
  }
  const decision = decideLaunch({
    electronBinary: electron.binary,
    chromium: findChromium(),
    display: hasDisplay(),
    forceBrowser: args.forceBrowser,
    noOpen: args.noOpen,
  });
  if (decision.mode === 'electron') return runElectron(decision.binary, args.bundle);
  if (decision.notice) process.stderr.write(decision.notice + '\n');
  return runBrowser(args.bundle, decision.openWith);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`hnsight: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
