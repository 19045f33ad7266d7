// The small files' parsed records, handed to the workers instead of parsed again in each (issue #27
// point 2). A worker used to read and parse every file but the VFP dumps again: on the 250-pod node
// that was ≈ 19 MB of text, most of the findings worker's start and a transient heap of decoded
// strings beside the node it built. Now the load serializes each small file's record once, as it is
// parsed (before the node is assembled from it, so what a worker gets is what the loader made, not
// what assembling changed), compresses it and keeps it in shared memory; every worker deserializes its
// own copy of the objects from the same bytes. The main thread is not blocked again per worker (a
// postMessage of the objects would serialize them on the event loop for every worker started), and
// the bytes are held once, compressed: measured on the 250-pod node (2-core machine, load ≈ 24), the
// 23 small files' records are 25.6 MiB serialized, 2.4 MiB with Brotli at quality 1 (188 ms to
// compress them all, 211 ms to decompress; Deflate at level 1: 3.0 MiB, 506 ms / 316 ms). A worker
// rebuilt its node in 0.8–2.8 s instead of 6.3–10.3 s.
//
// Only plain data crosses (objects, arrays, strings, numbers): a class loses its prototype and a
// function does not cross at all. PACKED_CONTENT lists the parsed contents that are plain data
// (test/unit/services/packed-files.test.ts walks every one on the demo, the foreign fixtures, the
// corpus and a generated node of each platform). Everything else is parsed again in the worker — the
// fallback: a VFP dump (its byte source is a class, its index has methods: handed over as it is by
// revive-node.ts reuseForWorkers when its bytes are shared, parsed again otherwise), a content type
// not on the list, and a record that cannot be serialized.
import { deserialize, serialize } from 'node:v8';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { ParsedContent, ParsedFile } from '../../parsers/bundle/parsed-file.ts';

/** A small file's parsed record as the workers get it: serialized once, in shared memory. */
export interface PackedFile {
  name: string;
  size: number;
  /** v8.serialize of the ParsedFile, Brotli-compressed, in a SharedArrayBuffer (posted to a worker as a reference, never copied). */
  packed: Uint8Array;
}

/** The parsed contents that are plain data through and through, so a worker can take them as they are. */
export const PACKED_CONTENT: ReadonlySet<ParsedContent['type']> = new Set<ParsedContent['type']>(['hns', 'hnsdiag', 'ip', 'routes', 'ports', 'k8s', 'cni-config', 'cni-bin', 'log', 'text', 'none']);

/** Whether a handed-over file is a packed record (the other kind is a ParsedFile taken as it is). */
export function isPacked(f: object): f is PackedFile {
  return (f as Partial<PackedFile>).packed instanceof Uint8Array && !('content' in f);
}

/**
 * The record serialized into shared memory, or undefined when a worker must parse the file again (its
 * content is not on PACKED_CONTENT, or something in it cannot be serialized).
 */
export function packParsedFile(p: ParsedFile): PackedFile | undefined {
  if (!PACKED_CONTENT.has(p.content.type)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = serialize(p);
  } catch {
    // A function, or an object V8 cannot clone: the worker parses the file again.
    return undefined;
  }
  // Quality 1: the load pays for it on the event loop; higher qualities cost far more for little less.
  const small = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const packed = new Uint8Array(new SharedArrayBuffer(small.length));
  packed.set(small);
  return { name: p.name, size: p.size, packed };
}

/** The record again, as the loader made it: this thread's own objects. */
export function unpackParsedFile(f: PackedFile): ParsedFile {
  const p = deserialize(brotliDecompressSync(f.packed)) as ParsedFile;
  restorePrototypeless(p);
  return p;
}

/**
 * Objects a parser makes without a prototype, so that a field a file names `__proto__` or `constructor`
 * is data like any other (parsers/ipconfig/net-ip.ts): V8's serializer keeps their own fields but gives
 * them Object's prototype, so they are made prototype-less again. The only ones in a parsed record today
 * (packed-files.test.ts compares every record with its unpacked copy, prototypes included).
 */
function restorePrototypeless(p: ParsedFile): void {
  if (p.content.type !== 'ip') return;
  for (const a of p.content.value.netIpAddresses) Object.setPrototypeOf(a.extra, null);
}
