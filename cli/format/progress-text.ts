// The one-line progress of a load on standard error (a terminal only): redrawn in place with a
// carriage return, so it must fit on one line, and its count must never pass the total.
import type { LoadProgress } from '../../services/bundle/load.ts';

/**
 * `reading 3/26 ip.txt`. The loader reports a file's start (with `filesDone` before it) and its end
 * (with `filesDone` counting it, the name still set): the number shown is the file being read,
 * at most the total, never `10/9` after the last one finished.
 */
export function progressText(p: Pick<LoadProgress, 'filesDone' | 'filesTotal'>, file: string, columns: number): string {
  const n = Math.min(p.filesDone + 1, p.filesTotal);
  const line = `reading ${n}/${p.filesTotal} ${file}`;
  const chars = [...line];
  // Wider than the terminal, the carriage return would redraw only the last line of it.
  return chars.length < columns ? line : `${chars.slice(0, Math.max(1, columns - 2)).join('')}…`;
}
