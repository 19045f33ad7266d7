// How much hnsight reads from one bundle: budgets counted in the bytes actually read (inflated, for a
// zip), not trusted from what an archive's headers claim. Beside them, a big zip entry that inflates
// far more than text does is not read at all (a decompression bomb: zeros reach deflate's ceiling,
// about 1030×, while the text of real bundles inflates 9–35×). A file over a budget is named with the
// reason and the rest of the bundle loads.
import { constants } from 'node:buffer';
import { formatBytes } from '../../parsers/text/quantities.ts';

export { formatBytes };

export interface BundleLimits {
  /** Most bytes read from one file (a zip entry inflated): a bigger file is listed, not read. */
  maxEntryBytes: number;
  /** Most bytes read from one bundle, all files together: files past it are listed, not read. */
  maxTotalBytes: number;
  /** Most files listed; a longer listing is not a CollectLogs bundle and is refused whole. */
  maxEntries: number;
  /**
   * Most bytes of a file read as text (all but the VFP dump, kept as bytes): past what one JavaScript
   * string holds it cannot be decoded at all. Default MAX_TEXT_BYTES.
   */
  maxTextBytes?: number;
  /**
   * A zip entry of at least `minBytes` inflated that inflates more than `ratio` times its compressed
   * size is not read. Default DEFAULT_INFLATION.
   */
  inflation?: { ratio: number; minBytes: number };
  /**
   * Most bytes inflated from one zip, all its entries together (in memory or to temporary files): a
   * decompression bomb spread over many entries, each under the ratio guard, stops here. Default
   * DEFAULT_ZIP_BYTES.
   */
  maxZipBytes?: number;
}

/** Four times the bundle budget: room for a 4 GiB VFP dump inflated to disk beside the rest. */
export const DEFAULT_ZIP_BYTES = 8 * 1024 ** 3;



const GiB = 1024 ** 3;

/**
 * Measured on the demo and the hand-written foreign bundles: their text inflates 9–35× (the VFP dumps
 * most, 18–34×; PowerShell's UTF-16 JSON 15–27×); deflate's ceiling, reached by zeros, is about 1030×.
 * 200× leaves a real dump of repetitive rules room; below 64 MiB an entry cannot hurt, whatever it holds.
 */
export const DEFAULT_INFLATION = { ratio: 200, minBytes: 64 * 1024 ** 2 };

/**
 * Sized from the largest node hnsight is measured on (`npm run bench`: 250 pods, 2,000 services, a
 * 860 MiB vfpOutput.txt in an 880 MiB bundle) with room to spare; real CollectLogs dumps reach
 * hundreds of MB. Everything read may stay in memory (the VFP dump is kept as bytes), so the bundle
 * budget is also what a load may hold.
 */
export const DEFAULT_LIMITS: BundleLimits = {
  maxEntryBytes: 1 * GiB,
  maxTotalBytes: 2 * GiB,
  maxEntries: 50_000,
  inflation: DEFAULT_INFLATION,
  maxZipBytes: DEFAULT_ZIP_BYTES,
};

/**
 * The largest text file read (0x1fffffe8 bytes, just under 512 MiB): the longest string V8 makes. A text
 * file is decoded into one string, so a bigger one could not be read whatever the budgets.
 */
export const MAX_TEXT_BYTES = 0x1fffffe8;

/** The largest file a process can hold as one byte array. */
export const MAX_FILE_BYTES = constants.MAX_LENGTH;

export const ENV_MAX_FILE = 'HNSIGHT_MAX_FILE_BYTES';
export const ENV_MAX_BUNDLE = 'HNSIGHT_MAX_BUNDLE_BYTES';
export const ENV_MAX_INFLATION = 'HNSIGHT_MAX_INFLATE_RATIO';
export const ENV_MAX_ZIP = 'HNSIGHT_MAX_ZIP_BYTES';

/** "1500000000", "900M", "1.5GiB", "2G" → bytes (binary multiples); undefined when unreadable. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return undefined;
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  const n = Math.floor(Number(m[1]) * mult);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The default budgets, with HNSIGHT_MAX_FILE_BYTES / HNSIGHT_MAX_BUNDLE_BYTES applied when set. */
export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): BundleLimits {
  const read = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = parseByteSize(raw);
    if (n === undefined) throw new Error(`${name} must be a size in bytes (e.g. 1500000000, 900M or 2GiB), not "${raw.slice(0, 40)}"`);
    return n;
  };
  const maxEntryBytes = Math.min(read(ENV_MAX_FILE, DEFAULT_LIMITS.maxEntryBytes), MAX_FILE_BYTES);
  const maxTotalBytes = Math.max(read(ENV_MAX_BUNDLE, Math.max(DEFAULT_LIMITS.maxTotalBytes, maxEntryBytes)), 1);
  const rawRatio = env[ENV_MAX_INFLATION];
  let inflation = DEFAULT_INFLATION;
  if (rawRatio !== undefined && rawRatio !== '') {
    const ratio = /^\s*\d+(\.\d+)?\s*$/.test(rawRatio) ? Number(rawRatio) : NaN;
    if (!(ratio >= 1)) throw new Error(`${ENV_MAX_INFLATION} must be a number of times, at least 1 (e.g. 500), not "${rawRatio.slice(0, 40)}"`);
    inflation = { ...DEFAULT_INFLATION, ratio };
  }
  const maxZipBytes = read(ENV_MAX_ZIP, DEFAULT_ZIP_BYTES);
  return { ...DEFAULT_LIMITS, maxEntryBytes, maxTotalBytes, inflation, maxZipBytes };
}

/** A file was not read (or was stopped while reading) because it is over a budget. */
export class OverBudget extends Error {
  override name = 'OverBudget';
  constructor(
    readonly file: string,
    /** The file's size. */
    readonly bytes: number,
    readonly limit: number,
    readonly which: OverBudgetKind,
    /** 'inflation': the entry's compressed size; 'memory': what the open nodes hold already. */
    readonly detail = 0,
    /** 'zip': the zip the entry is in. */
    readonly where = '',
  ) {
    super(overBudgetMessage(bytes, limit, which, detail, where));
  }
}

export type OverBudgetKind = 'file' | 'bundle' | 'text' | 'inflation' | 'memory' | 'disk' | 'zip';

/** Why a file was not read, in the words the file list shows. */
export function overBudgetMessage(bytes: number, limit: number, which: OverBudgetKind, detail = 0, where = ''): string {
  if (which === 'zip') {
    return `not read: the entries of ${where || 'this zip'} read before it inflate to ${formatBytes(detail)}, and its ${formatBytes(bytes)} more would pass the ${formatBytes(limit)} hnsight inflates from one zip: most likely a decompression bomb spread over many entries (${ENV_MAX_ZIP} raises the limit)`;
  }
  if (which === 'disk') {
    return `not read: it inflates to ${formatBytes(bytes)}, which hnsight writes to a temporary file to read it, and the temporary files open now hold ${formatBytes(detail)} of the ${formatBytes(limit)} it may write (close a node, or raise HNSIGHT_MAX_DISK_BYTES)`;
  }
  if (which === 'inflation') {
    const times = Math.round(bytes / Math.max(detail, 1));
    return `not read: it inflates ${times} times (${formatBytes(detail)} in the zip, ${formatBytes(bytes)} inflated), far more than text does (real bundles inflate 9–35 times; hnsight reads up to ${limit} times): most likely a decompression bomb (${ENV_MAX_INFLATION} raises the limit)`;
  }
  if (which === 'memory') {
    return `not read: the nodes open in hnsight hold ${formatBytes(detail)} already, and ${formatBytes(bytes)} more would pass the ${formatBytes(limit)} it holds in all (close a node, or raise HNSIGHT_MAX_MEMORY_BYTES)`;
  }
  if (which === 'text') return `not read: it is ${formatBytes(bytes)} of text, more than the ${formatBytes(limit)} hnsight can read as text from one file (only the VFP dump is read past it)`;
  if (which === 'file') {
    return `not read: it is ${formatBytes(bytes)}, more than the ${formatBytes(limit)} hnsight reads from one file (${ENV_MAX_FILE} raises it)`;
  }
  return `not read: the other files of the bundle used its budget (${formatBytes(bytes)} more would pass the ${formatBytes(limit)} hnsight reads from one bundle; ${ENV_MAX_BUNDLE} raises it)`;
}
