#!/usr/bin/env node
// Builds the renderer (Vite) into dist/renderer when its sources changed since the last build.
// `hnsight serve` and `npm start` call it, so no separate build step is needed after `npm install`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(repo, 'dist', 'renderer', 'index.html');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function rendererIsStale() {
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  // The renderer bundles its own sources and the pure layers and contract it imports.
  const sources = ['renderer', 'analysis', 'parsers', 'contract'].map((d) => path.join(repo, d)).filter(existsSync).map(newest);
  return Math.max(...sources, statSync(path.join(repo, 'vite.config.ts')).mtimeMs) > built;
}

export async function buildRenderer({ force = false, quiet = false } = {}) {
  if (!force && !rendererIsStale()) return false;
  const { build } = await import('vite');
  if (!quiet) process.stderr.write('hnsight: building the user interface (once)…\n');
  // Always a production build: under a test runner NODE_ENV is 'test', which would otherwise ship
  // React's development bundle and leave it in dist/ until a source changes.
  await build({ configFile: path.join(repo, 'vite.config.ts'), mode: 'production', logLevel: quiet ? 'error' : 'warn', define: { 'process.env.NODE_ENV': '"production"' } });
  return true;
}

/**
 * The same build in a child process: for a server that goes on running (`hnsight serve`, `npm start`).
 * Vite and Rolldown, once loaded, kept ~650 MB in the server's process for as long as it served (806 MB
 * RSS on the 0.6 MiB demo against 126 MB with the build done); in a child their memory goes with it.
 */
export async function buildRendererInChild({ force = false } = {}) {
  if (!force && !rendererIsStale()) return false;
  const script = fileURLToPath(import.meta.url);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...(force ? ['--force'] : [])], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (e) => {
      process.stderr.write(`hnsight: could not build the user interface: ${e.message}\n`);
      resolve(1);
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) throw new Error(`building the user interface failed (exit ${code}); run npm run build:renderer to see why`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildRenderer({ force: process.argv.includes('--force') });
}
