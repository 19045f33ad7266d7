// A one-worker pool for the few big files of a bundle. One worker because the machines this runs on
// may have two cores and the main thread keeps parsing the small files meanwhile.
import { Worker } from 'node:worker_threads';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import { reviveVfpContent } from './file-bytes.ts';
import { workerEntry } from '../worker-entry/ensure-bundle.ts';

export interface WorkerRequest {
  id: number;
  name: string;
  /** Read from disk in the worker (folder bundles): its first maxBytes (its size when listed), or… */
  path?: string;
  maxBytes?: number;
  /** …bytes already inflated from a zip, transferred. */
  bytes?: Uint8Array;
  /** false: a VFP dump on disk comes back without its line table (the main thread counts it meanwhile). */
  countLines?: boolean;
}

export interface WorkerReply {
  id: number;
  parsed?: ParsedFile;
  error?: string;
}

export class ParsePool {
  private worker: Worker | undefined;
  private next = 1;
  private pending = new Map<number, { resolve: (p: ParsedFile) => void; reject: (e: Error) => void }>();

  private ensure(): Worker {
    if (this.worker) return this.worker;
    // A small young generation: the scan makes one short-lived 64 KiB string per chunk, and a large
    // nursery only lets them pile up in memory between collections.
    const w = new Worker(workerEntry(new URL('./parse-worker.mjs', import.meta.url)), { resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    w.on('message', (r: WorkerReply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.parsed) {
        const c = r.parsed.content;
        if (c.type === 'vfp') reviveVfpContent(c);
        p.resolve(r.parsed);
      }
      else p.reject(new Error(r.error ?? 'worker failed'));
    });
    w.on('error', (e) => this.failAll(e));
    w.on('exit', (code) => {
      if (this.pending.size) this.failAll(new Error(`parser worker exited with code ${code}`));
      this.worker = undefined;
    });
    this.worker = w;
    return w;
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  parse(name: string, source: { path: string; maxBytes: number; countLines?: boolean } | { bytes: Uint8Array }): Promise<ParsedFile> {
    const w = this.ensure();
    const id = this.next++;
    const req: WorkerRequest = { id, name, ...source };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const transfer = 'bytes' in source && source.bytes.byteLength === source.bytes.buffer.byteLength && source.bytes.buffer instanceof ArrayBuffer ? [source.bytes.buffer] : [];
      w.postMessage(req, transfer);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
