// The bytes one load may still read. Every read is charged before it starts (the file's size is
// known: from the disk, or from the zip header that yauzl holds the inflated stream to), so a file
// that would pass a budget is named and skipped instead of being read and thrown away. The same bytes
// are charged to the process's budget for everything open (memory-budget.ts).
import { DEFAULT_INFLATION, OverBudget, type BundleLimits } from './limits.ts';
import { processMemory, type MemoryBudget } from './memory-budget.ts';

export class ReadBudget {
  private used = 0;

  constructor(
    private readonly limits: BundleLimits,
    readonly memory: MemoryBudget = processMemory(),
  ) {}

  /**
   * Charges `bytes` more of `file` (of `fileSize` in all: its head may have been charged already; a zip
   * entry says how big it is compressed); OverBudget, and nothing charged, when the file would inflate
   * like a bomb or a budget — the file's, the bundle's, the process's — would pass.
   */
  charge(file: string, bytes: number, fileSize = bytes, compressedSize?: number): void {
    this.checkInflation(file, fileSize, compressedSize);
    if (fileSize > this.limits.maxEntryBytes) throw new OverBudget(file, fileSize, this.limits.maxEntryBytes, 'file');
    if (this.used + bytes > this.limits.maxTotalBytes) throw new OverBudget(file, bytes, this.limits.maxTotalBytes, 'bundle');
    if (!this.memory.take(bytes)) throw new OverBudget(file, bytes, this.memory.total, 'memory', this.memory.held);
    this.used += bytes;
  }

  /** OverBudget when a zip entry this big inflates more than text does (a decompression bomb). */
  checkInflation(file: string, fileSize: number, compressedSize: number | undefined): void {
    const inflation = this.limits.inflation ?? DEFAULT_INFLATION;
    if (compressedSize !== undefined && fileSize >= inflation.minBytes && fileSize > compressedSize * inflation.ratio) {
      throw new OverBudget(file, fileSize, inflation.ratio, 'inflation', compressedSize);
    }
  }

  get bytesUsed(): number {
    return this.used;
  }
}
