// How hnsight writes an amount in every layer (CLI, report, app, messages): one spelling, so the same
// count or size never reads two ways on two screens. Pure; no imports.

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `1 rule`, `2 rules`, `1,234 rules`; `many` for irregular plurals (`2 classes`, `3 policies`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${Number.isInteger(n) ? COUNT.format(n) : String(n)} ${n === 1 ? one : many}`;
}

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A size in IEC binary units, the units hnsight's budgets are set in (`1 GiB` per file): `512 bytes`,
 * `12.1 KiB`, `837 MiB` (three figures at most; a whole number prints without `.0`). A size that is
 * not one (negative, not finite) prints as `–`.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–';
  if (n < 1024) return plural(n, 'byte');
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? Math.round(v) : Number(v.toFixed(1))} ${UNITS[u]}`;
}
