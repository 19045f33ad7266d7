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
  for (let r = 0; r < n; r++) {
    const k = names[r];
    if (k === -1) nameId[r] = -1;
    else {
      let id = byName.get(k);
      if (id === undefined) {
        byName.set(k, (id = lastPort.length));
        lastPort.push(ports[r]);
        ambiguous.push(false);
      } else if (lastPort[id] === ports[r]) ambiguous[id] = true;
      else lastPort[id] = ports[r];
      nameId[r] = id;
    }
    if (r % SLICE === SLICE - 1) yield { done: r, total, what: 'VFP rule names' };
  }
  // Pass 2: the distinct rules; each occurrence of an ambiguous or unnamed rule is its own.
  const distinctOf = new Int32Array(n);
  const firstOfName = new Int32Array(lastPort.length).fill(-1);
  const rep: number[] = [];
  for (let r = 0; r < n; r++) {
    const id = nameId[r];
    let d: number;
    if (id === -1 || ambiguous[id]) d = rep.push(r) - 1;
    else if (firstOfName[id] === -1) d = firstOfName[id] = rep.push(r) - 1;
    else d = firstOfName[id];
    distinctOf[r] = d;
    if (rep.length > MAX_DISTINCT) return undefined;
  }
  const count = rep.length;
  const occStart = new Int32Array(count + 1);
  for (let r = 0; r < n; r++) occStart[distinctOf[r] + 1]++;
  for (let d = 0; d < count; d++) occStart[d + 1] += occStart[d];
  const fill = occStart.slice(0, count);
  const occ = new Int32Array(n);
  for (let r = 0; r < n; r++) occ[fill[distinctOf[r]]++] = r;
  yield { done: n, total, what: 'VFP rule texts' };
  // The texts, one decode per distinct rule.
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  const starts = new Int32Array(count + 1);
  let chars = 0;
  for (let d = 0; d < count; d++) {
    const r = rep[d];
    const t = decoder.decode(bytes.read(index.ruleByte[r], ruleEnd(index, r) - index.ruleByte[r])).toLowerCase() + '\0';
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
    for (let j = c.occStart[d]; j < c.occStart[d + 1] && out.length < limit; j++) out.push(c.occ[j]);
    pos = c.starts[d + 1];
  }
  return out;
}

function upperBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
