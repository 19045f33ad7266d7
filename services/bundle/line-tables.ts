// The line table of a VFP dump on disk, counted on the main thread while the parse worker scans the
// same file (issue 27: the two cores share the work). The table is one newline count per 64 KiB block
// (parsers/vfp/line-locator.ts); counting it is about a fifth of the scan, and the main thread is done
// with the bundle's other files well before the worker is done with a big dump.
import { FileBytes } from './file-bytes.ts';
import { LineLocator } from '../../parsers/vfp/line-locator.ts';
import { OffsetBytes, type ByteSource } from '../../parsers/vfp/byte-source.ts';
import type { VfpIndex } from '../../parsers/vfp/index-types.ts';

export interface LineJob {
  /** The file the worker scans (a bundle's file, or the temporary file a zip entry was inflated to). */
  path: string;
  size: number;
  name: string;
  /** Where the scanned bytes start: 3 past a UTF-8 BOM, as parseBundleSource reads the file. */
  offset?: number;
  table?: Float64Array;
}

/** Counts the job's table now (once); a file that cannot be read leaves it to the index (prepareLines). */
export function countLines(job: LineJob): void {
  if (job.table || job.offset !== undefined) return;
  const file = new FileBytes(job.path, job.size, job.name);
  try {
    const head = file.read(0, 3);
    job.offset = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    job.table = new LineLocator(job.offset ? new OffsetBytes(file, job.offset) : file).table;
  } catch {
    job.offset = -1;
  } finally {
    file.close();
  }
}

/**
 * Gives the index the job's table when it was counted over exactly the bytes the index reads (the same
 * file from the same offset); otherwise the index counts its own (one pass over the bytes).
 */
export function attachLines(index: VfpIndex, bytes: ByteSource, job: LineJob | undefined): void {
  if (index.lineTable) return;
  const file = bytes instanceof OffsetBytes ? bytes.src : bytes;
  const offset = bytes instanceof OffsetBytes ? bytes.offset : 0;
  const same = job?.table && file instanceof FileBytes && file.path === job.path && file.size === job.size && offset === job.offset;
  if (!(same && index.adoptLines(job.table!))) index.prepareLines();
}
