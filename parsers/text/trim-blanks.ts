// Trailing blanks cut by a loop: /[ \t\r]+$/ is quadratic in a long run of blanks that does not end
// the line (each start position in the run scans to its end), and a hostile dump has such lines.

/** `s` without its trailing spaces, tabs and carriage returns. */
export function trimTrailingBlanks(s: string): string {
  let end = s.length;
  while (end > 0) {
    const c = s.charCodeAt(end - 1);
    if (c !== 32 && c !== 9 && c !== 13) break;
    end--;
  }
  return end === s.length ? s : s.slice(0, end);
}
