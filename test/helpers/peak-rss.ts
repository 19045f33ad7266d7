// This process's peak resident memory since it started running its own program. `getrusage`'s
// maxRSS is the wrong figure for a child: Linux keeps the high-water mark across exec, so a child
// forked from a 500 MB test runner reports 500 MB before it did anything (the kernel folds the forked
// copy's hiwater into the signal's maxrss at exec). /proc/self/status VmHWM belongs to the new address
// space only; elsewhere maxRSS is all there is.
import { readFileSync } from 'node:fs';

export function peakRssBytes(): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}
