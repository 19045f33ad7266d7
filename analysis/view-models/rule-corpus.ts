// The text of a VFP dump's rules for Ctrl+K, built once per node: every distinct rule once, lower-cased,
// with where each occurs. Searching the dump's bytes took seconds per query on a 900 MB dump (a query
// that matches nothing reads all of it); pod ports carry the same rules under the same names, so the
// 993,370 rules of the 250-pod node are 12,559 distinct texts (≈ 11 MB), searched with one
// String.indexOf in milliseconds. A rule is known by its name (the scanner's VfpIndex.ruleName), as the
// checks know it (analysis/checks/README.md "How the checks read VFP rules"); a name a port prints twice
// and a rule without a name are each kept on their own. Built in steps (a generator), so the backend
// can answer between them.
import type { VfpIndex } from '../../parsers/vfp/index-types.ts';
import { asByteSource, type ByteSource } from '../../parsers/vfp/byte-source.ts';
import { ruleEnd } from '../../parsers/vfp/rule-at.ts';

export interface RuleCorpus {
  /** The dump (index into model.vfp.files). */
  file: number;
  /** Lower-cased texts of the distinct rules, each followed by a NUL (a query never spans two rules). */
  text: string;
  /** Start of distinct rule d's text; starts[d + 1] is past its NUL. */
  starts: Int32Array;
  /** The rules (indexes into the dump's index) that are distinct rule d: occ[occStart[d] .. occStart[d + 1]), in file order. */
  occStart: Int32Array;
  occ: Int32Array;
}

export interface CorpusProgress {
  done: number;
  total: number;
  what: string;
}

/** Past these, the dump's rules are too varied to copy: search falls back to reading the bytes. */
const MAX_DISTINCT = 400_000;
const MAX_CHARS = 256 * 1024 * 1024;
/** Rules handled between two yields. */
const SLICE = 200_000;

/** Builds the corpus of one dump, yielding progress between slices; undefined when it would be too big. */
export function* ruleCorpusSteps(src: Uint8Array | ByteSource, index: VfpIndex, file: number): Generator<CorpusProgress, RuleCorpus | undefined> {
  const bytes = asByteSource(src);
  const n = index.ruleByte.length;
  const names = index.ruleName;
  const ports = index.rulePort;
  const total = 2 * n;
  // Pass 1: one id per name; a name seen twice on one port (ports' rules are contiguous) is ambiguous.
  const byName = new Map<number, number>();
  const lastPort: number[] = [];
  const ambiguous: boolean[] = [];
  const nameId = new Int32Array(n);
  // Typed-array reads below stay inside their arrays (r < n, ids from these passes); `?? -1` keeps them total.
  for (let r = 0; r < n; r++) {
    const k = names[r] ?? -1;
    const port = ports[r] ?? -1;
    if (k === -1) nameId[r] = -1;
    else {
      let id = byName.get(k);
      if (id === undefined) {
        byName.set(k, (id = lastPort.length));
        lastPort.push(port);
        ambiguous.push(false);
      } else if (lastPort[id] === port) ambiguous[id] = true;
      else lastPort[id] = port;
      nameId[r] = id;
    }
    if (r % SLICE === SLICE - 1) yield { done: r, total, what: 'VFP rule names' };
  }
  // Pass 2: the distinct rules; each occurrence of an ambiguous or unnamed rule is its own.
  const distinctOf = new Int32Array(n);
  const firstOfName = new Int32Array(lastPort.length).fill(-1);
  const rep: number[] = [];
  for (let r = 0; r < n; r++) {
    const id = nameId[r] ?? -1;
    const first = firstOfName[id] ?? -1;
    let d: number;
    if (id === -1 || ambiguous[id]) d = rep.push(r) - 1;
    else if (first === -1) d = firstOfName[id] = rep.push(r) - 1;
    else d = first;
    distinctOf[r] = d;
    if (rep.length > MAX_DISTINCT) return undefined;
  }
  const count = rep.length;
  const occStart = new Int32Array(count + 1);
  for (const d of distinctOf) occStart[d + 1] = (occStart[d + 1] ?? 0) + 1;
  for (let d = 0; d < count; d++) occStart[d + 1] = (occStart[d + 1] ?? 0) + (occStart[d] ?? 0);
  const fill = occStart.slice(0, count);
  const occ = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const d = distinctOf[r] ?? 0;
    const at = fill[d] ?? 0;
    occ[at] = r;
    fill[d] = at + 1;
  }
  yield { done: n, total, what: 'VFP rule texts' };
  // The texts, one decode per distinct rule.
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  const starts = new Int32Array(count + 1);
  let chars = 0;
  for (const [d, r] of rep.entries()) {
    const from = index.ruleByte[r];
    if (from === undefined) return undefined;
    const t = decoder.decode(bytes.read(from, ruleEnd(index, r) - from)).toLowerCase() + '\0';
    starts[d] = chars;
    chars += t.length;
    if (chars > MAX_CHARS) return undefined;
    parts.push(t);
    if (d % 20_000 === 19_999) yield { done: n + Math.round((n * d) / count), total, what: 'VFP rule texts' };
  }
  starts[count] = chars;
  return { file, text: parts.join(''), starts, occStart, occ };
}

/** The rules (indexes into the dump's index) whose text holds `query` (any case), in file order per text, at most `limit`. */
export function searchRuleCorpus(c: RuleCorpus, query: string, limit: number): number[] {
  const q = query.trim().toLowerCase();
  if (q.length < 3 || q.length > 128 || /[^\x20-\x7e]/.test(q)) return [];
  const out: number[] = [];
  let pos = 0;
  while (out.length < limit) {
    const i = c.text.indexOf(q, pos);
    if (i < 0) break;
    const d = upperBound(c.starts, i) - 1;
    const to = c.occStart[d + 1] ?? 0;
    for (let j = c.occStart[d] ?? to; j < to && out.length < limit; j++) {
      const r = c.occ[j];
      if (r !== undefined) out.push(r);
    }
    const next = c.starts[d + 1];
    if (next === undefined) break;
    pos = next;
  }
  return out;
}

function upperBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] ?? Infinity) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
