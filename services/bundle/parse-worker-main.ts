// Parses one big bundle file in a worker thread, so the VFP dump (hundreds of MB) is read and
// indexed on the second core while the main thread reads the rest of the bundle.
// A VFP dump's bytes come back in a SharedArrayBuffer: the model keeps them for its lazy parses, and
// the findings worker (services/backend/findings-runner.ts) reads the same memory instead of a copy.
import { parentPort } from 'node:worker_threads';
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import type { WorkerRequest, WorkerReply } from './parse-pool.ts';
import { readFilePrefix } from './disk-read.ts';

const sharedArray = (length: number) => new Uint8Array(new SharedArrayBuffer(length));

function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = sharedArray(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

async function answer(req: WorkerRequest): Promise<void> {
  try {
    // At most the size the file had when listed (its budget was charged for that much), into shared memory.
    const bytes = req.path ? await readFilePrefix(req.path, req.maxBytes ?? 0, sharedArray) : req.bytes!;
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
}

// Every failure is answered inside answer(): the handler only starts it.
parentPort!.on('message', (req: WorkerRequest) => void answer(req));
