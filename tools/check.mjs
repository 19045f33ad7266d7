#!/usr/bin/env node
// `npm test`: the typecheck and lint beside the test suite, not before it. The suite spends much of
// its run waiting on Chromium, child processes and sockets, so on a two-core machine the compiler and
// the linter fit mostly in its idle time; at a lower priority they give way to it when both want a core.
// The suite's output streams as it runs; the other two speak at the end (everything they printed when
// they fail), and the exit status is non-zero when any of the three fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (rel) => path.join(repo, 'node_modules', rel);

/**
 * The side steps: each a name and the commands (node's arguments) it runs one after the other. One
 * step, one process: tools/typecheck-lint.mjs builds tsconfig.check.json (parsers/ and analysis/
 * checked once under their strict tsconfig, the rest against their declarations; `npm run typecheck`
 * checks them twice, same verdict), then lints with ESLint on that same program, so the type-aware
 * rules do not build a second one (`npm run lint` does; same rules, same files).
 */
const SIDE = [['typecheck and lint', [[path.join(repo, 'tools/typecheck-lint.mjs')]]]];

/** Runs argv with node; resolves to its exit code (a spawn failure counts as 1, its message kept). */
function run(argv, { quiet, nice, sink, env = {} }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: repo, env: { ...process.env, ...env }, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (nice) {
      try {
        os.setPriority(child.pid, 10);
      } catch {
        // Not allowed here: it runs at the same priority, which is only slower.
      }
    }
    if (quiet) {
      child.stdout.on('data', (d) => sink.push(d));
      child.stderr.on('data', (d) => sink.push(d));
    }
    child.once('error', (e) => {
      sink.push(Buffer.from(`${e.message}\n`));
      resolve(1);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function side([name, commands]) {
  const started = Date.now();
  const out = [];
  for (const argv of commands) {
    const code = await run(argv, { quiet: true, nice: true, sink: out });
    if (code !== 0) return { name, code, out, seconds: (Date.now() - started) / 1000 };
  }
  return { name, code: 0, out, seconds: (Date.now() - started) / 1000 };
}

// The suite's reporter (test/summary-reporter.ts) leaves its counts here, so the one plain summary line
// comes last and counts a failed typecheck or lint as a failure too.
const dir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-check-'));
const summaryFile = path.join(dir, 'summary.json');
const sides = SIDE.map(side);
const suite = await run([bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], { quiet: false, nice: false, sink: [], env: { HNSIGHT_SUMMARY_FILE: summaryFile } });
let counts = { passed: 0, failed: suite === 0 ? 0 : 1, skipped: 0 };
try {
  counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
  // A suite that failed without a failed test (it could not start, a file did not load) still fails.
  if (suite !== 0 && counts.failed === 0) counts.failed = 1;
} catch {
  // No counts: the suite did not reach its end; the exit status says it failed.
}
rmSync(dir, { recursive: true, force: true });
for (const r of await Promise.all(sides)) {
  if (r.code === 0) {
    process.stdout.write(`${r.name}: passed (${r.seconds.toFixed(0)} s)\n`);
  } else {
    counts.failed++;
    process.stdout.write(`\n${r.name}: FAILED (exit ${r.code})\n${Buffer.concat(r.out).toString('utf8')}\n`);
  }
}
process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}\n`);
process.exitCode = counts.failed > 0 ? 1 : 0;
