// Parses one big bundle file in a worker thread, so the VFP dump (hundreds of MB) is read and
// indexed on the second core while the main thread reads the rest of the bundle.
import { parentPort } from 'node:worker_threads';
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import type { WorkerRequest, WorkerReply } from './parse-pool.ts';
import { readFilePrefix } from './disk-read.ts';

parentPort!.on('message', async (req: WorkerRequest) => {
  try {
    let bytes: Uint8Array;
    if (req.path) bytes = await readFilePrefix(req.path, req.maxBytes ?? 0);
    else bytes = req.bytes!;
    const parsed = parseBundleFile(req.name, bytes);
    const transfer: ArrayBuffer[] = [];
    if (parsed.content.type === 'vfp') {
      const buf = parsed.content.bytes.buffer;
      // Only a buffer the file owns alone can be handed over without a copy.
      if (buf instanceof ArrayBuffer && parsed.content.bytes.byteLength === buf.byteLength) transfer.push(buf);
    }
    const reply: WorkerReply = { id: req.id, parsed };
    parentPort!.postMessage(reply, transfer);
  } catch (e) {
    const reply: WorkerReply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
    parentPort!.postMessage(reply);
  }
});
