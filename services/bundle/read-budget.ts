// The bytes one load may still read. Every read is charged before it starts (the file's size is
// known: from the disk, or from the zip header that yauzl holds the inflated stream to), so a file
// that would pass the budget is named and skipped instead of being read and thrown away.
import { OverBudget, type BundleLimits } from './limits.ts';

export class ReadBudget {
  private used = 0;

  constructor(private readonly limits: BundleLimits) {}

  /**
   * Charges `bytes` more of `file` (of `fileSize` in all: its head may have been charged already);
   * OverBudget, and nothing charged, when the file or the bundle budget would pass.
   */
  charge(file: string, bytes: number, fileSize = bytes): void {
    if (fileSize > this.limits.maxEntryBytes) throw new OverBudget(file, fileSize, this.limits.maxEntryBytes, 'file');
    if (this.used + bytes > this.limits.maxTotalBytes) throw new OverBudget(file, bytes, this.limits.maxTotalBytes, 'bundle');
    this.used += bytes;
  }

  get bytesUsed(): number {
    return this.used;
  }
}
