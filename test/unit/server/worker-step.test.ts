// The life of a one-answer worker (services/backend/worker-step.ts), shared by the checks' and the
// Services table's runners: progress until the answer, one settlement whatever comes after, the
// worker ended once settled, and each failure said in the runner's words.
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { workerStep } from '../../../services/backend/worker-step.ts';

type Msg = { type: 'progress'; done: number; total: number; what?: string } | { type: 'done'; n: number } | { type: 'error'; message: string };

class FakeWorker extends EventEmitter {
  posted: unknown[] = [];
  terminated = 0;
  postMessage(m: unknown): void {
    this.posted.push(m);
  }
  terminate(): Promise<number> {
    this.terminated++;
    return Promise.resolve(0);
  }
}

function start() {
  const w = new FakeWorker();
  const progress: string[] = [];
  const run = workerStep<Msg, number>(w as unknown as Worker, { ask: 1 }, (p) => progress.push(`${p.done}/${p.total} ${p.what ?? ''}`), {
    answer: (m) => (m.type === 'done' ? { value: m.n } : { error: new Error(m.message) }),
    stopped: () => new Error('stopped here'),
    what: 'the sums',
  });
  return { w, run, progress };
}

describe('workerStep', () => {
  it('posts the request, reports progress, resolves with the answer and ends the worker once', async () => {
    const { w, run, progress } = start();
    expect(w.posted).toEqual([{ ask: 1 }]);
    w.emit('message', { type: 'progress', done: 1, total: 2, what: 'adding' });
    w.emit('message', { type: 'done', n: 42 });
    // After the answer nothing changes it: a late error, progress or exit.
    w.emit('message', { type: 'progress', done: 2, total: 2 });
    w.emit('error', new Error('late'));
    w.emit('exit', 1);
    await expect(run.done).resolves.toBe(42);
    expect(progress).toEqual(['1/2 adding']);
    expect(w.terminated).toBe(1);
  });

  it("rejects with the worker's error message, the runner's stop, or its words for memory and exits", async () => {
    const a = start();
    a.w.emit('message', { type: 'error', message: 'bad input' });
    await expect(a.run.done).rejects.toThrow('bad input');

    const b = start();
    b.run.cancel();
    await expect(b.run.done).rejects.toThrow('stopped here');
    expect(b.w.terminated).toBe(1);

    const c = start();
    c.w.emit('error', Object.assign(new Error('heap'), { code: 'ERR_WORKER_OUT_OF_MEMORY' }));
    await expect(c.run.done).rejects.toThrow(/^the sums ran out of memory \(more than \d+ MB\)$/);

    const d = start();
    d.w.emit('exit', 3);
    await expect(d.run.done).rejects.toThrow('the sums stopped unexpectedly (exit code 3)');
  });
});
