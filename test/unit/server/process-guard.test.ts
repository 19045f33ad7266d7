// An unhandled rejection reports and keeps the process serving (services/process-guard.ts): a real
// child process with the guard, like `hnsight serve`, keeps answering after one; without the guard
// Node ends it (the control, so the test can tell).
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = path.resolve(__dirname, '../../..');

function run(guard: boolean): Promise<{ code: number | null; out: string; err: string }> {
  const guardUrl = pathToFileURL(path.join(repo, 'services/process-guard.ts')).href;
  const script = `
    const { guardProcess } = await import(${JSON.stringify(guardUrl)});
    if (${guard}) guardProcess((m) => process.stderr.write(m + '\\n'));
    Promise.reject(new Error('EACCES: permission denied, open known_hosts'));
    setTimeout(() => { process.stdout.write('still serving\\n'); process.exit(0); }, 300);
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('guardProcess', () => {
  it('reports an unhandled rejection and keeps the process running', async () => {
    const guarded = await run(true);
    expect(guarded.out).toBe('still serving\n');
    expect(guarded.code).toBe(0);
    expect(guarded.err).toMatch(/hnsight keeps running.*EACCES: permission denied, open known_hosts/s);
  }, 30_000);

  it('without it, Node ends the process (the control)', async () => {
    const bare = await run(false);
    expect(bare.out).toBe('');
    expect(bare.code).not.toBe(0);
  }, 30_000);
});
