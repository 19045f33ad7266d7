// Running the `hnsight` command in tests: in this process through cli/main.ts (fast: no Node and tsx
// start-up per call), or as the real `bin/hnsight.mjs` child process where the process itself is
// what is tested (exit status, pipes).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.ts';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.join(repo, 'bin/hnsight.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/** main(argv) with stdout and stderr captured. Calls run one after another (they capture this process's output). */
export function runCli(...args: string[]): Promise<CliResult> {
  const next = queue.then(() => runOnce(args));
  queue = next.catch(() => undefined);
  return next;
}

async function runOnce(args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const write = (sink: string[]) => ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    cb?.();
    return true;
  }) as typeof process.stdout.write;
  const saved = { out: process.stdout.write, err: process.stderr.write, columns: process.env.COLUMNS };
  process.stdout.write = write(out);
  process.stderr.write = write(err);
  // Text is wrapped to the terminal (100 columns off one): tests of what it says read it unwrapped,
  // tests of its width set COLUMNS themselves (test/unit/cli/width.test.ts).
  if (saved.columns === undefined) process.env.COLUMNS = '100000';
  try {
    const code = await main(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    if (saved.columns === undefined) delete process.env.COLUMNS;
  }
}

/** The real command as a child process. */
export function spawnCli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 64 << 20, env: { COLUMNS: '100000', ...process.env } }, (e, stdout, stderr) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
