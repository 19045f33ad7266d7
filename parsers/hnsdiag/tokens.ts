// Token classes for hnsdiag's columnar rows. Rows are anchored on the GUID column because names
// may contain spaces and pasted copies lose column alignment; GUIDs are matched loosely (a damaged
// copy drops or adds hex digits) and the damage is reported instead of dropping the row.

const STRICT_GUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;
const LOOSE_GUID = /^\{?[0-9a-f]{4,12}(?:-[0-9a-f]{2,12}){2,5}\}?$/i;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}$/i;

export function isStrictGuid(t: string): boolean {
  return STRICT_GUID.test(t);
}

export function isGuidLike(t: string): boolean {
  return LOOSE_GUID.test(t);
}

export function isIp(t: string): boolean {
  return IPV4.test(t) || (t.includes(':') && IPV6.test(t));
}

export function cleanGuid(t: string): string {
  return t.replace(/^\{|\}$/g, '').toLowerCase();
}

/** Splits a row into tokens on runs of whitespace and on `|` column separators. */
export function tokenize(line: string): string[] {
  return line.split(/[\s|]+/).filter((t) => t !== '');
}

/** Header labels: separated by ` | ` or by runs of two or more spaces. */
export function headerColumns(line: string): string[] {
  const parts = line.includes('|') ? line.split('|') : line.split(/\s{2,}|\t/);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}
