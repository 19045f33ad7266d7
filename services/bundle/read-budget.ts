// The bytes one load may still read. Every read is charged before it starts (the file's size is
// known: from the disk, or from the zip header that yauzl holds the inflated stream to), so a file
// that would pass a budget is named and skipped instead of being read and thrown away. The same bytes
// are charged to the process's budget for everything open (memory-budget.ts).
import { DEFAULT_INFLATION, DEFAULT_ZIP_BYTES, OverBudget, type BundleLimits } from './limits.ts';
import { processMemory } from './memory-budget.ts';
import type { Budget } from './budget.ts';

export class ReadBudget {
  private used = 0;
  private held = 0;
  private inflated = 0;

  constructor(
    private readonly limits: BundleLimits,
    readonly memory: Budget = processMemory(),
    /** The zip the bundle is, named when its entries together inflate past maxZipBytes. */
    readonly zipName = '',
  ) {}

  /**
   * Charges a VFP dump read on demand (its bytes stay on disk: a folder's file, or a zip entry inflated
   * to a temporary file): the per-file and bundle budgets, which bound what a load holds, do not apply;
   * the process's budget is charged for what the node holds of it (its index, the ports parsed), about
   * a sixteenth of its size. A zip entry still meets the ratio guard and the zip's total.
   */
  chargeIndexed(file: string, fileSize: number, compressedSize?: number): void {
    this.checkInflation(file, fileSize, compressedSize);
    if (compressedSize !== undefined) this.checkZipTotal(file, fileSize);
    const hold = Math.ceil(fileSize / 16);
    if (!this.memory.take(hold)) throw new OverBudget(file, hold, this.memory.total, 'memory', this.memory.held);
    if (compressedSize !== undefined) this.inflated += fileSize;
    this.held += hold;
  }

  /** OverBudget when a zip entry of `fileSize` inflated would take the zip's entries past maxZipBytes. */
  checkZipTotal(file: string, fileSize: number): void {
    const max = this.limits.maxZipBytes ?? DEFAULT_ZIP_BYTES;
    if (this.inflated + fileSize > max) throw new OverBudget(file, fileSize, max, 'zip', this.inflated, this.zipName);
  }

  /**
   * Charges `bytes` more of `file` (of `fileSize` in all: its head may have been charged already; a zip
   * entry says how big it is compressed); OverBudget, and nothing charged, when the file would inflate
   * like a bomb or a budget — the file's, the bundle's, the process's — would pass.
   */
  charge(file: string, bytes: number, fileSize = bytes, compressedSize?: number): void {
    this.checkInflation(file, fileSize, compressedSize);
    if (fileSize > this.limits.maxEntryBytes) throw new OverBudget(file, fileSize, this.limits.maxEntryBytes, 'file');
    if (this.used + bytes > this.limits.maxTotalBytes) throw new OverBudget(file, bytes, this.limits.maxTotalBytes, 'bundle');
    if (compressedSize !== undefined) this.checkZipTotal(file, bytes);
    if (!this.memory.take(bytes)) throw new OverBudget(file, bytes, this.memory.total, 'memory', this.memory.held);
    if (compressedSize !== undefined) this.inflated += bytes;
    this.used += bytes;
    this.held += bytes;
  }

  /** OverBudget when a zip entry this big inflates more than text does (a decompression bomb). */
  checkInflation(file: string, fileSize: number, compressedSize: number | undefined): void {
    const inflation = this.limits.inflation ?? DEFAULT_INFLATION;
    if (compressedSize !== undefined && fileSize >= inflation.minBytes && fileSize > compressedSize * inflation.ratio) {
      throw new OverBudget(file, fileSize, inflation.ratio, 'inflation', compressedSize);
    }
  }

  /** Bytes read and held in memory (the per-bundle budget's count). */
  get bytesUsed(): number {
    return this.used;
  }

  /** What this load charged to the process's memory budget (given back when its node is closed). */
  get bytesHeld(): number {
    return this.held;
  }
}
