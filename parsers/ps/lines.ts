// Line splitting shared by the text parsers here: bundles mix CRLF, LF and stray CR, and a file
// re-saved by an editor may still carry a BOM or trailing NULs from a truncated UTF-16 copy.

export function splitLines(text: string): string[] {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return t.split(/\r\n|\n|\r/).map((l) => (l.includes('\0') ? l.split('\0').join('') : l));
}

export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}

/** `-----  ---- -` : the separator under a Format-Table header. Past the last line (undefined) there is none. */
export function isDashRule(line: string | undefined): boolean {
  if (line === undefined) return false;
  return /^\s*-+(\s+-+)*\s*$/.test(line);
}

/** A banner made of one repeated `=` or `-` (ipconfig, route print). Past the last line (undefined) there is none. */
export function isBannerLine(line: string | undefined): boolean {
  if (line === undefined) return false;
  return /^\s*(=+|-+)\s*$/.test(line) && line.trim().length >= 3;
}
