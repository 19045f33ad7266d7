// A worker that walks for minutes (the reachability worker) collects its garbage before it piles up.
// V8 grows a thread's heap lazily: measured on the 250-pod node (test/bench/server-memory.ts
// --threads), the reachability worker's heap reached 207–344 MiB during its first pass while what it
// held after a collection was ≈ 176 MiB, and that garbage is the server's resident set at its peak
// (issue #27 point 2). Between slices of walks, when the heap has grown by more than `headroom` since
// the last collection, this thread runs a full collection: it costs the worker's time (a fraction of
// a slice), never the server's event loop, and changes nothing any walk answers.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Heap growth over the last collection's size that triggers the next one. */
export const HEAP_HEADROOM_BYTES = 48 * 2 ** 20;

/**
 * A full collection of this thread's heap. Node has no API for it: `--expose-gc` set at run time
 * applies to contexts made after it, and a new context's `gc` collects the heap of the thread that
 * made it. Undefined when that fails (the collector is then left to V8).
 */
function fullCollection(): (() => void) | undefined {
  try {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) return exposed;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One full collection of this thread's heap now; its time in ms, or undefined when it cannot be run.
 * The server's thread runs one before it starts the reachability worker (reach-session.ts): what the
 * walks, the inspector and exports left behind is freed before the heaviest worker adds its heap.
 */
export function collectNow(): number | undefined {
  const gc = fullCollection();
  if (!gc) return undefined;
  const t0 = performance.now();
  gc();
  return performance.now() - t0;
}

export interface HeapTrim {
  /** Collects when the heap grew past the headroom; true when it did. */
  maybe(): boolean;
  /** Collections run, and their time (ms). */
  readonly runs: number;
  readonly ms: number;
}

export function heapTrim(headroom = HEAP_HEADROOM_BYTES, used = () => getHeapStatistics().used_heap_size): HeapTrim {
  const gc = fullCollection();
  let base = used();
  let runs = 0;
  let ms = 0;
  return {
    maybe() {
      if (!gc || used() - base <= headroom) return false;
      const t0 = performance.now();
      gc();
      ms += performance.now() - t0;
      runs++;
      base = used();
      return true;
    },
    get runs() {
      return runs;
    },
    get ms() {
      return ms;
    },
  };
}
