// Parses one big bundle file in a worker thread, so the VFP dump (hundreds of MB) is indexed on the
// second core while the main thread reads the rest of the bundle. A dump on disk (a folder's file, or
// the temporary file a zip entry was inflated to) is scanned in windows and never held: what comes back
// is its index and the file to read its bytes from again (file-bytes.ts). Bytes sent from memory come
// back in a SharedArrayBuffer, so the findings worker reads the same memory instead of a copy.
import { parentPort } from 'node:worker_threads';
import { parseVfpSource } from '../../parsers/bundle/parse-source.ts';
import { MemoryBytes } from '../../parsers/vfp/byte-source.ts';
import { FileBytes } from './file-bytes.ts';
import type { WorkerRequest, WorkerReply } from './parse-pool.ts';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';

function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  copy.set(bytes);
  return copy;
}

/** The index's arrays are handed over, not copied: the worker is done with them (≈ 20 bytes a rule). */
function transferable(parsed: ParsedFile): ArrayBuffer[] {
  if (parsed.content.type !== 'vfp') return [];
  const ix = parsed.content.index;
  const out = new Set<ArrayBuffer>();
  for (const a of [ix.groupByte, ix.groupPort, ix.ruleByte, ix.rulePort, ix.ruleName, ix.lineTable]) if (a && a.buffer instanceof ArrayBuffer && a.buffer.byteLength > 0) out.add(a.buffer);
  return [...out];
}

async function answer(req: WorkerRequest): Promise<void> {
  try {
    // At most the size the file had when listed (its budget was charged for that much).
    // A file on disk is read through a FileBytes: a VFP dump stays on disk, other files are read whole.
    const src = req.path ? new FileBytes(req.path, req.maxBytes ?? 0, req.name) : undefined;
    // A big VFP dump on disk needs only the scanner; every other parser is loaded when a file needs it
    // (the worker's start-up is on the critical path of a load).
    let parsed = src && parseVfpSource(req.name, src, { countLines: req.countLines });
    if (!parsed) {
      const { parseBundleFile, parseBundleSource } = await import('../../parsers/bundle/parse-file.ts');
      parsed = src ? parseBundleSource(req.name, src) : parseBundleFile(req.name, req.bytes!);
    }
    if (parsed.content.type === 'vfp') {
      // A UTF-16 dump was re-encoded, and bytes sent from memory arrive unshared: kept bytes are shared.
      const whole = parsed.content.bytes.whole;
      if (whole) parsed.content.bytes = new MemoryBytes(shared(whole));
      // Line numbers of a big dump cost one pass over it: counted during the scan, beside the main
      // thread's reading, unless the main thread counts them (a dump on disk, countLines false).
      if (whole || req.countLines !== false) parsed.content.index.prepareLines();
    }
    // The main thread opens the file again when it reads from it.
    src?.close();
    const reply: WorkerReply = { id: req.id, parsed };
    parentPort!.postMessage(reply, transferable(parsed));
  } catch (e) {
    const reply: WorkerReply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
    parentPort!.postMessage(reply);
  }
}

// Every failure is answered inside answer(): the handler only starts it.
parentPort!.on('message', (req: WorkerRequest) => void answer(req));
