// `hnsight serve` as a process, driven over its HTTP API as the page drives it (POST /api/<method>
// with the token header, the job events from GET /events): what test/bench/server-memory.ts --serve
// measures — the server's whole process as `npm start` runs it (from its bundle when current, tsx
// otherwise), not the bench's own process with tsx loaded in it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiEvent } from '../../contract/index.ts';

export interface ServeClient {
  pid: number;
  invoke<T = unknown>(method: string, args: unknown): Promise<T>;
  onEvent(listener: (e: ApiEvent) => void): void;
  close(): Promise<void>;
}

/** Starts `node <tree>/bin/hnsight.mjs serve <bundle>` and connects to its events. */
export async function startServe(tree: string, bundle: string, env: NodeJS.ProcessEnv = {}): Promise<ServeClient> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-mem-serve-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(tree, 'bin/hnsight.mjs'), 'serve', bundle, '--port', '0'], {
    cwd: tree,
    env: { ...process.env, NODE_ENV: 'production', HNSIGHT_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  // A bench that ends early (process.exit) does not leave its server behind.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(new URL(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`hnsight serve exited with ${code}`)));
  });
  const token = url.searchParams.get('token') ?? '';
  const base = `${url.protocol}//${url.host}`;
  const headers = { 'X-Hnsight-Token': token, 'Content-Type': 'application/json' };
  const listeners: ((e: ApiEvent) => void)[] = [];
  const stop = new AbortController();
  const events = await fetch(`${base}/events`, { headers, signal: stop.signal });
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of events.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        for (let at = buf.indexOf('\n\n'); at >= 0; at = buf.indexOf('\n\n')) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (!data) continue;
          const e = JSON.parse(data) as ApiEvent;
          for (const l of listeners) l(e);
        }
      }
    } catch {
      // Closed.
    }
  })();
  return {
    pid: child.pid!,
    async invoke<T>(method: string, args: unknown): Promise<T> {
      const r = await fetch(`${base}/api/${method}`, { method: 'POST', headers, body: JSON.stringify(args) });
      const e = (await r.json()) as { ok: boolean; value?: T; error?: string };
      if (!e.ok) throw new Error(`${method}: ${e.error}`);
      return e.value as T;
    },
    onEvent: (l) => void listeners.push(l),
    async close() {
      stop.abort();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
