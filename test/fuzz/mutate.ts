// The fuzz harness's inputs: real bundles (the demo nodes, the hand-written foreign bundles and their
// faulted variants) mutated the ways issue 15 lists — byte flips, truncation, duplicated blocks,
// inflated counts of objects (a rule, a JSON object, a record repeated thousands of times), crafted
// IDs — deterministically from a seed, so a crasher can be rebuilt and saved from its seed alone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { repo, DEMO, PLANTED_IDS } from './hostile.ts';
import type { Files, ZipDamage } from './exercise.ts';
import { kindFromName, MODEL_KINDS } from '../../parsers/bundle/classify.ts';

/** Bundle folders the mutations start from (files at their top level only). */
export const BASES: string[] = [
  DEMO,
  path.join(repo, 'assets/demo/overlay-node'),
  ...['aks-win-zip-2025', 'ws2019-flannel-l2bridge-2020', 'ws2022-overlay-2024'].map((d) => path.join(repo, 'test/fixtures/foreign', d)),
  ...['l2bridge-vfp-drift-exception-and-lb-rule', 'overlay-stale-dip-endpoint-without-vnic'].map((d) => path.join(repo, 'test/fixtures/foreign-faults', d)),
];

const cache = new Map<string, Files>();

export function baseFiles(dir: string): Files {
  let f = cache.get(dir);
  if (!f) {
    f = readdirSync(dir)
      .filter((n) => !/^expected/.test(n) && statSync(path.join(dir, n)).isFile())
      .sort()
      .map((n): [string, Uint8Array] => [n, new Uint8Array(readFileSync(path.join(dir, n)))]);
    cache.set(dir, f);
  }
  return f;
}

/** mulberry32: small, fast, and the same sequence for a seed everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)];

/** The most a mutation lets one file grow to, so an iteration stays seconds long. */
const MAX_FILE = 12 * 1024 * 1024;

/** IDs a crafted bundle might carry: regular-expression traps, huge, empty, control characters, quotes. */
const CRAFTED_IDS = ['(a+)+$', '(.*a){25}', '.*.*.*.*.*.*.*.*=', '[', '\\', '"', '', 'a'.repeat(10_000), '\u001b]0;x\u0007', '%s%n', '../../etc/passwd', '00000000-0000-0000-0000-000000000000', '\u202e', 'constructor', '__proto__'];

/** Spellings of numbers that Number() reads as another number, or that are out of any range. */
const NUMERIC_TRICKS = ['1e309', '-0', '1e3', '1.5', '0x10', '+5', '99999999999999999999', '65536', '999', 'NaN', 'Infinity', '-1'];

/** Line start offsets of `b` (bytes; UTF-16 files are mutated as bytes too, which is the point). */
function lineStarts(b: Uint8Array): number[] {
  const out = [0];
  for (let i = b.indexOf(10); i >= 0 && out.length < 2_000_000; i = b.indexOf(10, i + 1)) out.push(i + 1);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Repeats b[from, to) `times` times in place, within MAX_FILE. */
function repeat(b: Uint8Array, from: number, to: number, times: number): Uint8Array {
  const block = b.subarray(from, to);
  const k = Math.max(1, Math.min(times, Math.floor((MAX_FILE - b.length) / Math.max(1, block.length))));
  return concat([b.subarray(0, to), ...Array.from({ length: k }, () => block), b.subarray(to)]);
}

const enc = new TextEncoder();
const isUtf16 = (b: Uint8Array) => b.length >= 2 && b[0] === 0xff && b[1] === 0xfe;
const toText = (b: Uint8Array) => (isUtf16(b) ? Buffer.from(b.subarray(2)).toString('utf16le') : Buffer.from(b).toString('latin1'));
const fromText = (like: Uint8Array, s: string) => (isUtf16(like) ? concat([like.subarray(0, 2), new Uint8Array(Buffer.from(s, 'utf16le'))]) : new Uint8Array(Buffer.from(s, 'latin1')));

/** Object blocks worth repeating: VFP blocks, JSON objects, PowerShell list records, hnsdiag entries. */
const BLOCK_START = /^\s*(RULE|GROUP|LAYER|Policy for port|Port name)\s*:|^\s*\{\s*$|^IPAddress\s+:|^\S.* adapter .*:\s*$|^\s*"ID"\s*:/;

type Mutation = (r: Rand, b: Uint8Array) => [Uint8Array, string];

const MUTATIONS: Record<string, Mutation> = {
  flip(r, b) {
    const out = b.slice();
    const n = 1 + int(r, 32);
    for (let i = 0; i < n && out.length; i++) out[int(r, out.length)] ^= 1 << int(r, 8);
    return [out, `flip ${n} bits`];
  },
  junk(r, b) {
    const at = int(r, b.length + 1);
    const j = new Uint8Array(1 + int(r, 4096));
    for (let i = 0; i < j.length; i++) j[i] = int(r, 256);
    return [concat([b.subarray(0, at), j, b.subarray(at)]), `${j.length} junk bytes at ${at}`];
  },
  truncate(r, b) {
    const at = int(r, b.length + 1);
    return [b.subarray(0, at), `cut at ${at}`];
  },
  duplicateLines(r, b) {
    const ls = lineStarts(b);
    const i = int(r, ls.length);
    const j = Math.min(ls.length - 1, i + 1 + int(r, 200));
    const times = 1 + int(r, 400);
    return [repeat(b, ls[i], ls[j] ?? b.length, times), `lines ${i + 1}-${j} repeated ${times}×`];
  },
  inflateObjects(r, b) {
    // An object block (from one start line to the next) repeated thousands of times: a node with
    // absurd counts of one kind of object.
    const text = toText(b);
    const lines = text.split('\n');
    const starts = lines.map((l, i) => (BLOCK_START.test(l) ? i : -1)).filter((i) => i >= 0);
    if (!starts.length) return [b, 'no object block'];
    const k = int(r, starts.length);
    const from = starts[k];
    const to = starts[k + 1] ?? Math.min(lines.length, from + 40);
    const block = lines.slice(from, to).join('\n') + '\n';
    const times = Math.max(0, Math.min(1000 + int(r, 20_000), Math.floor((MAX_FILE - b.length) / Math.max(1, block.length * (isUtf16(b) ? 2 : 1)))));
    const out = [...lines.slice(0, to).join('\n'), '\n', block.repeat(times), lines.slice(to).join('\n')].join('');
    return [fromText(b, out), `block at line ${from + 1} (${to - from} lines) repeated ${times}×`];
  },
  craftIds(r, b) {
    const text = toText(b);
    const guid = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
    const ids = [...new Set(text.match(guid) ?? [])];
    if (!ids.length) return [b, 'no IDs'];
    const victim = pick(r, ids);
    const crafted = pick(r, CRAFTED_IDS);
    return [fromText(b, text.split(victim).join(crafted)), `ID ${victim} → ${JSON.stringify(crafted.slice(0, 40))}`];
  },
  numbers(r, b) {
    // Numbers Number() misreads, and addresses and prefixes out of range, in place of real ones
    // (issue #28, point 8): each must be refused with an issue, never crash or be read as another.
    const text = toText(b);
    const spots = [...text.slice(0, 2_000_000).matchAll(/(?<![\w.])\d{1,5}(?![\w.])|\/\d{1,3}\b|\b\d{1,3}(?=\.\d{1,3}\.\d{1,3}\.\d{1,3}\b)/g)].slice(0, 20_000);
    if (!spots.length) return [b, 'no numbers'];
    let out = text;
    const done: string[] = [];
    // From the end, so the offsets of the earlier spots stay right.
    const chosen = Array.from({ length: 1 + int(r, 8) }, () => pick(r, spots)).sort((x, y) => y.index! - x.index!);
    let last = Infinity;
    for (const m of chosen) {
      if (m.index! >= last) continue;
      last = m.index!;
      const trick = m[0].startsWith('/') ? pick(r, ['/33', '/129', '/-0', '/1e1', '/999']) : pick(r, NUMERIC_TRICKS);
      out = out.slice(0, m.index) + trick + out.slice(m.index! + m[0].length);
      done.push(`${m[0]}→${trick}`);
    }
    return [fromText(b, out), `numbers ${done.join(', ')}`];
  },
  plantIds(r, b) {
    // Identifiers of every kind redaction must hide, set apart by blanks at a line's end (hostile.ts).
    const text = toText(b);
    const ls = text.split('\n');
    const k = int(r, ls.length);
    const id = pick(r, PLANTED_IDS);
    ls[k] = `${ls[k].replace(/\r$/, '')} ${id} ${ls[k].endsWith('\r') ? '\r' : ''}`;
    return [fromText(b, ls.join('\n')), `${id} planted at line ${k + 1}`];
  },
  longLine(r, b) {
    const at = int(r, b.length + 1);
    const n = 100_000 + int(r, 4_000_000);
    return [concat([b.subarray(0, at), enc.encode(pick(r, ['a', ' ', '{', '[', '0', ':']).repeat(Math.max(0, Math.min(n, MAX_FILE - b.length)))), b.subarray(at)]), `a line of ${n} characters at ${at}`];
  },
};

export interface Case {
  seed: number;
  base: string;
  files: Files;
  /** What was done, for the crasher's record. */
  steps: string[];
  /** Some cases go through the real loader as a zip, damaged this way (exercise.ts). */
  zip?: ZipDamage;
}

/** The names of the mutations (what a case's steps say it did to a file: "<file>: <name>: …"). */
export const MUTATION_NAMES: readonly string[] = Object.keys(MUTATIONS);

/** The mutated bundle of `seed`: a base, then 1–3 mutations of 1–3 of its files (or a file dropped or doubled). */
export function makeCase(seed: number): Case {
  const r = prng(seed);
  const base = pick(r, BASES);
  const files: Files = baseFiles(base).map(([n, b]) => [n, b]);
  const steps: string[] = [];
  const n = 1 + int(r, 3);
  // Mostly the files the model is built from: that is where the parsers and the analysis are.
  const core = files.map(([name], i) => (kindFromName(name) && MODEL_KINDS.has(kindFromName(name)!) ? i : -1)).filter((i) => i >= 0);
  // Dropped files leave at the end, so the indexes picked meanwhile stay valid.
  const dropped = new Set<number>();
  for (let i = 0; i < n; i++) {
    const which = core.length && r() < 0.8 ? pick(r, core) : int(r, files.length);
    const roll = r();
    if (dropped.has(which)) continue;
    if (roll < 0.05 && files.length - dropped.size > 1) {
      steps.push(`drop ${files[which][0]}`);
      dropped.add(which);
      continue;
    }
    if (roll < 0.1) {
      steps.push(`copy ${files[which][0]} as vfpOutput_2.txt`);
      files.push(['vfpOutput_2.txt', files[which][1]]);
      continue;
    }
    const name = pick(r, Object.keys(MUTATIONS));
    const [next, what] = MUTATIONS[name](r, files[which][1]);
    files[which] = [files[which][0], next];
    steps.push(`${files[which][0]}: ${name}: ${what}`);
  }
  for (const k of [...dropped].sort((a, b) => b - a)) files.splice(k, 1);
  // Drawn last, so the file mutations of a seed do not depend on it.
  let zip: ZipDamage | undefined;
  if (r() < 0.25) {
    zip = { flips: Array.from({ length: int(r, 6) }, () => r()) };
    if (r() < 0.3) zip.cut = r();
    steps.push(`as a zip, ${zip.flips.length} byte(s) inverted${zip.cut !== undefined ? `, cut at ${Math.round(zip.cut * 100)}%` : ''}`);
  }
  return { seed, base: path.relative(repo, base), files, steps, ...(zip ? { zip } : {}) };
}
