// Parses one big bundle file in a worker thread, so the VFP dump (hundreds of MB) is read and
// indexed on the second core while the main thread reads the rest of the bundle.
// A VFP dump's bytes come back in a SharedArrayBuffer: the model keeps them for its lazy parses, and
// the findings worker (services/backend/findings-runner.ts) reads the same memory instead of a copy.
import { parentPort } from 'node:worker_threads';
import { open } from 'node:fs/promises';
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import type { WorkerRequest, WorkerReply } from './parse-pool.ts';

/** Reads into shared memory in steps of at most 1 GiB (one read call takes less than 2 GiB). */
async function readShared(path: string): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const view = new Uint8Array(new SharedArrayBuffer(size));
    let off = 0;
    while (off < size) {
      const { bytesRead } = await fh.read(view, off, Math.min(size - off, 1 << 30), off);
      if (!bytesRead) break;
      off += bytesRead;
    }
    // A file that shrank while being read is read as far as it went.
    return off === size ? view : view.slice(0, off);
  } finally {
    await fh.close();
  }
}

function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  copy.set(bytes);
  return copy;
}

parentPort!.on('message', async (req: WorkerRequest) => {
  try {
    const bytes = req.path ? await readShared(req.path) : req.bytes!;
    const parsed = parseBundleFile(req.name, bytes);
    // A UTF-16 dump was re-encoded, and bytes sent from memory arrive unshared: the kept bytes are shared.
    if (parsed.content.type === 'vfp') {
      parsed.content.bytes = shared(parsed.content.bytes);
      // Line numbers of a big dump cost one pass over it: done here, beside the main thread's reading.
      parsed.content.index.prepareLines();
    }
    const reply: WorkerReply = { id: req.id, parsed };
    parentPort!.postMessage(reply);
  } catch (e) {
    const reply: WorkerReply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
    parentPort!.postMessage(reply);
  }
});
