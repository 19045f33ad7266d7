// `hnsight serve` ends on Ctrl+C (SIGINT) after a comparison's reachability was asked for: the
// comparison keeps a worker for its walks, and a worker alive holds the process open. A user saw the
// server stop listening and the process stay for minutes, until a second Ctrl+C.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from './helpers.ts';

const DEMO = path.join(repo, 'assets/demo/l2bridge-node');

describe('hnsight serve', () => {
  it('exits on SIGINT after a comparison of reachability', async () => {
    const child = spawn(process.execPath, [path.join(repo, 'bin/hnsight.mjs'), 'serve', DEMO, '--port', '0'], {
      cwd: repo,
      env: { ...process.env, NODE_ENV: 'production', HNSIGHT_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hnsight-serve-exit-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      let out = '';
      const url = await new Promise<URL>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /serving on (\S+)/.exec(out);
          if (m) resolve(new URL(m[1]));
        });
        void exited.then((code) => reject(new Error(`hnsight serve exited with ${code} before serving`)));
      });
      const token = url.searchParams.get('token')!;
      const call = async (method: string, body: unknown) => {
        const r = await fetch(new URL(`/api/${method}`, url), { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hnsight-Token': token }, body: JSON.stringify(body) });
        const env = (await r.json()) as { ok: boolean; value?: unknown; error?: string };
        if (!env.ok) throw new Error(`${method}: ${env.error}`);
        return env.value as Record<string, unknown> | null;
      };
      const { jobId } = (await call('openDiff', { pathA: DEMO, pathB: DEMO })) as { jobId: string };
      for (let i = 0; i < 1200 && (await call('getDiff', { jobId }))!.state === 'loading'; i++) await new Promise((r) => setTimeout(r, 100));
      let d = await call('reachDiff', { jobId });
      for (let i = 0; i < 30 && !d; i++) d = await call('reachDiff', { jobId });
      expect(d).not.toBeNull();
      child.kill('SIGINT');
      // Before the fix the process was still alive minutes later; 60 s is far beyond a clean stop.
      const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 60_000))]);
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 240_000);
});
