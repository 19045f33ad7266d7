// ssh2 is loaded when a collection over SSH starts, not by every server that never collects (its heap
// stayed in every `hnsight serve`). Checked in a fresh process: the test thread's modules are shared.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

describe('ssh2', () => {
  it('is not loaded by the backend until an SSH collection starts', () => {
    const backend = path.resolve('services/backend/backend.ts');
    const code = `await import(${JSON.stringify(backend)}); const { createRequire } = await import('node:module'); const r = createRequire(import.meta.url); console.log(Object.keys(r.cache).some((k) => k.includes('/node_modules/ssh2/')) ? 'loaded' : 'not loaded');`;
    const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 120_000 });
    expect(out.stderr).toBe('');
    expect(out.stdout.trim()).toBe('not loaded');
  }, 150_000);
});
