// Generated bundle files parsed once per test worker, keyed by their name and their whole text.
//
// Why: the unit helpers that assemble generated nodes in memory (test/unit/platforms/helpers.ts
// buildPlatform, test/unit/walk/helpers.ts build) spend most of their time parsing (platforms.test.ts:
// 30 of its 37 CPU-s in buildPlatform, 26 of them in parseBundleFile), and a node with a fault differs
// from the healthy one in a few files only: of the 3192 files of every plugin node with each fault,
// 561 texts are distinct (14 of 34 MB). The suite runs with `isolate: false` (vitest.config.ts), so
// this module's map lasts across the files a worker runs.
//
// Why it is safe: parseBundleFile is pure (parsers/bundle/parse-file.ts: bytes in, value out), so the
// same name and text give an equal ParsedFile. What is shared is only that value, never a model:
// assembleModel builds a new NodeModel around it for every call, and the analysis's caches are keyed
// by the model or by objects made per model (the VFP policies materialised in assembleModel's getPolicy), so no
// test gets an earlier test's analysis or budget. The shared value is frozen (plain objects and arrays,
// all the way down): code that writes to it throws instead of leaking into the next test. Each caller
// gets a shallow copy with its own `issues` array, the one part assembleModel appends to
// (parsers/model/assemble.ts, a port dumped twice). test/unit/gen/parsed-files.test.ts compares a node
// built through this map with one parsed afresh. HNSIGHT_PARSE_MEMO=0 turns it off (to measure).
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';

const enc = new TextEncoder();
const shared = new Map<string, ParsedFile>();
/** Characters of the keys held; the least recently used entries are dropped past the limit. */
let held = 0;
const LIMIT = 32 << 20;
let hits = 0;

const on = () => process.env.HNSIGHT_PARSE_MEMO !== '0';

/** Freezes plain objects and arrays, recursively; class instances (the VFP index, byte sources) keep their lazy caches. */
export function deepFreeze<T>(v: T, seen = new Set<unknown>()): T {
  if (typeof v !== 'object' || v === null || seen.has(v)) return v;
  seen.add(v);
  const proto = Object.getPrototypeOf(v) as unknown;
  if (Array.isArray(v) || proto === Object.prototype || proto === null) {
    for (const k of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d && 'value' in d) deepFreeze(d.value, seen);
    }
    Object.freeze(v);
  } else if (v instanceof Map) for (const x of v.values()) deepFreeze(x, seen);
  else if (v instanceof Set) for (const x of v) deepFreeze(x, seen);
  return v;
}

/** `parseBundleFile(name, UTF-8 bytes of text)`, from the worker's map when that name and text were parsed before. */
export function parseText(name: string, text: string): ParsedFile {
  if (!on()) return parseBundleFile(name, enc.encode(text));
  const key = `${name}\0${text}`;
  let p = shared.get(key);
  if (p) {
    hits++;
    // Most recently used last.
    shared.delete(key);
  } else {
    p = deepFreeze(parseBundleFile(name, enc.encode(text)));
    held += key.length;
    for (const [k] of shared) {
      if (held <= LIMIT) break;
      shared.delete(k);
      held -= k.length;
    }
  }
  shared.set(key, p);
  return { ...p, issues: [...p.issues] };
}

/** How many parses the map answered (for its own test). */
export const parsedFilesHits = (): number => hits;
