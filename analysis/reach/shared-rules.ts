// The node as reach walks it: every VFP port's policy, with a rule printed the same on several ports
// parsed once, and a group whose every rule and every field is another port's taken whole (issue #25
// point 7). One source's classes reach every local pod (its IN layers, and its OUT layers for the
// reply), so a walk-per-class partition reads every port: on a 250-pod node with 2,000 Services that
// is a million rules (≈ 45 µs each to parse), most of the time of the partition. HNS programs the
// same load-balancing and exception rules onto every pod port; their blocks are identical text (name,
// conditions, data; the hit counters aside), so their parse is identical too. A port's layers and
// groups are still parsed from its own text, each rule is taken from the first port that printed the
// same text (compared, not assumed from the name), and the last rule of a port, whose block runs into
// the port's other sections, is parsed in place. A group whose parsed fields and rules are those of a
// group of another port is that group (so the walk's rule index, match.ts compiledGroup, is built once
// for the 250 copies of a 4,000-rule load-balancing group). The walk is the same; only a shared rule's
// or group's line is its first port's — reach shows outcomes, never these lines (a class's example
// opened in `trace` is walked on the node itself).
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { WalkHop, WalkResult } from '../walk/types.ts';
import type { VfpGroup, VfpPortPolicy, VfpRule } from '../../parsers/vfp/index.ts';
import type { VfpIndex } from '../../parsers/vfp/index-types.ts';
import { firstRules, ruleEnd } from '../../parsers/vfp/rule-at.ts';
import { asByteSource } from '../../parsers/vfp/byte-source.ts';
import { parseVfpRuleText } from '../../parsers/vfp/policy-text.ts';

const STUB = '__reach_shared_run_';
const decoder = new TextDecoder('utf-8');

interface Known {
  /** A copy of the rule's bytes (comparisons never read the dump again; it keeps no port's bytes alive). */
  bytes: Uint8Array;
  /** The bytes as 32-bit words, placed at each of the 4 offsets a port's copy of the rule can start at. */
  words: (Int32Array | undefined)[];
  rule: VfpRule;
  /** A number per distinct rule, for the groups' signatures. */
  id: number;
}

const COUNTERS = new Set(['matchedpackets', 'droppedpackets', 'pendingpackets', 'droppedunifiedflows', 'droppedflows']);

const NL = 10;
const COLON = 58;

/** End of the line starting at i (the newline's index, or `end`). */
function lineEnd(b: Uint8Array, i: number, end: number): number {
  while (i < end && b[i] !== NL) i++;
  return i;
}

/** Index of the colon of a rule counter line (`Matched packets : 12`), or -1 for any other line. */
function counterColon(b: Uint8Array, i: number, end: number): number {
  let key = '';
  for (; i < end; i++) {
    const c = b[i];
    if (c === undefined) return -1;
    if (c === COLON) break;
    if (c === 32 || c === 9 || c === 13) continue;
    if (key.length > 20) return -1;
    key += String.fromCharCode(c | 32);
  }
  return i < end && COUNTERS.has(key) ? i : -1;
}

/** Line by line from a line start of both blocks: the same bytes, or both a counter line of the same key. */
function sameLines(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): boolean {
  let i = as;
  let j = bs;
  while (i < ae && j < be) {
    const ie = lineEnd(a, i, ae);
    const je = lineEnd(b, j, be);
    let same = ie - i === je - j;
    for (let k = 0; same && k < ie - i; k++) same = a[i + k] === b[j + k];
    if (!same) {
      const ci = counterColon(a, i, ie);
      if (ci < 0 || ci - i !== counterColon(b, j, je) - j) return false;
      for (let k = 0; k < ci - i; k++) if (a[i + k] !== b[j + k]) return false;
    }
    i = ie + 1;
    j = je + 1;
  }
  return i >= ae && j >= be;
}

/** Bytes in a buffer whose 32-bit words can be read (`at` bytes in: the rule's offset modulo 4). */
function wordsAt(bytes: Uint8Array, at: number): Int32Array {
  const buf = new ArrayBuffer((at + bytes.length + 3) & ~3);
  new Uint8Array(buf).set(bytes, at);
  return new Int32Array(buf);
}

/** A port's bytes, copied once where their 32-bit words can be read. */
interface PortBytes {
  u8: Uint8Array;
  i32: Int32Array;
}

function portBytes(raw: Uint8Array): PortBytes {
  const i32 = wordsAt(raw, 0);
  return { u8: new Uint8Array(i32.buffer, 0, raw.length), i32 };
}

/**
 * Rule block `b` [bs, be) says the same thing as the known block `k`: the same bytes, line for line,
 * except the values of the rule counters (hits differ from port to port; the walk does not read them).
 * The common start is compared a 32-bit word at a time (the known block's copy placed at the same offset
 * modulo 4); from the line where the blocks first differ (the counters, near a block's end), line by line.
 */
function sameBytes(k: Known, b: PortBytes, bs: number, be: number): boolean {
  const a = k.bytes;
  const n = Math.min(a.length, be - bs);
  const bu = b.u8;
  let i = 0;
  // Up to the port's next word boundary byte by byte, then word by word.
  const head = Math.min(n, (4 - (bs & 3)) & 3);
  while (i < head && a[i] === bu[bs + i]) i++;
  if (i === head) {
    const off = bs & 3;
    const aw = (k.words[off] ??= wordsAt(a, off));
    let wa = (off + i) >> 2;
    let wb = (bs + i) >> 2;
    const bw = b.i32;
    while (i + 4 <= n && aw[wa] === bw[wb]) {
      i += 4;
      wa++;
      wb++;
    }
    while (i < n && a[i] === bu[bs + i]) i++;
  }
  if (i === a.length && i === be - bs) return true;
  while (i > 0 && a[i - 1] !== NL) i--;
  return sameLines(a, i, a.length, bu, bs + i, be);
}

const known = (bytes: Uint8Array): Known => ({ bytes, words: [], rule: undefined as never, id: -1 });

/** Whether two rule blocks are the same rule (tests), `b` starting at byte `at` of its port (0–3). */
export function sameRuleBytes(a: Uint8Array, b: Uint8Array, at = 0): boolean {
  const port = new Uint8Array(at + b.length);
  port.set(b, at);
  return sameBytes(known(a), portBytes(port), at, at + b.length);
}

/** A group's fields as the walk reads them, without its rules and source line. */
const groupFields = (g: VfpGroup) => JSON.stringify({ ...g, rules: undefined, src: undefined });

/** Which distinct rule each rule block of a port is (-1: parsed in place), to find a rule's own line. */
interface PortRules {
  index: VfpIndex;
  r0: number;
  ids: Int32Array;
  /** Distinct rule → its first block on this port, built when first asked. */
  first?: Map<number, number>;
}

class SharedRules {
  private readonly byName = new Map<number, Known[]>();
  private readonly idOfSrc = new Map<SourceRef, number>();
  private readonly portRules = new Map<string, PortRules>();
  private readonly groups = new Map<string, VfpGroup>();
  private readonly policies = new Map<string, VfpPortPolicy | undefined>();
  private readonly refs = new Map<string, VfpPortRef>();
  private ids = 0;
  /** Rules parsed, rules taken from another port, and groups taken whole from another port. */
  parsed = 0;
  shared = 0;
  sharedGroups = 0;

  constructor(private readonly m: NodeModel) {
    for (const p of m.ports ?? []) this.refs.set(p.key, p);
  }

  getPolicy(portName: string): VfpPortPolicy | undefined {
    const key = portName.trim().toLowerCase();
    if (this.policies.has(key)) return this.policies.get(key);
    const ref = this.refs.get(key);
    let policy = ref?.policy ? this.build(ref) : undefined;
    // Anything unexpected: the port parsed whole, as the walk would.
    policy ??= this.m.vfp?.getPolicy(portName);
    this.policies.set(key, policy);
    return policy;
  }

  /** Rule r, whose block is `raw` [start, end) (`base` is raw's first byte in the file). */
  private rule(index: VfpIndex, r: number, raw: PortBytes, start: number, end: number, base: number, portName: string): Known | undefined {
    const name = index.ruleName[r];
    if (name === undefined) return undefined;
    const list = name === -1 ? undefined : this.byName.get(name);
    for (const k of list ?? []) {
      if (sameBytes(k, raw, start, end)) {
        this.shared++;
        return k;
      }
    }
    // Copied: the port's bytes are a view a source on disk may reuse for its next read.
    const bytes = raw.u8.slice(start, end);
    const rule = parseVfpRuleText(decoder.decode(bytes), index.file, { defaultPortName: portName }).value[0]?.layers[0]?.groups[0]?.rules[0];
    if (!rule) return undefined;
    const at = base + start;
    let line: number | undefined;
    rule.src = {
      file: index.file,
      get line() {
        return (line ??= index.lineAt(at));
      },
    };
    this.parsed++;
    const known: Known = { bytes, words: [], rule, id: this.ids++ };
    this.idOfSrc.set(rule.src, known.id);
    if (name !== -1) {
      if (list) list.push(known);
      else this.byName.set(name, [known]);
    }
    return known;
  }

  private build(ref: VfpPortRef): VfpPortPolicy | undefined {
    const f = this.m.vfp?.files[ref.policy!.file];
    if (!f) return undefined;
    const { index } = f;
    const ip = index.ports[ref.policy!.port];
    const first = firstRules(index);
    const r0 = first[ref.policy!.port];
    const r1 = first[ref.policy!.port + 1];
    if (!ip || r0 === undefined || r1 === undefined || r1 - r0 < 2) return undefined;
    const base = ip.byteStart;
    // The port's bytes, read once; its rules are compared as bytes, only the text between runs is decoded.
    const raw = portBytes(asByteSource(f.bytes).read(base, ip.byteEnd - base));
    const text = (a: number, b: number) => decoder.decode(raw.u8.subarray(a, b));
    // The port's text with every run of consecutive rules but the last rule replaced by a one-line
    // placeholder (runs: rules of one group, nothing printed between them).
    const parts: string[] = [];
    const runs: Known[][] = [];
    let at = 0;
    let run: Known[] | undefined;
    const ids = new Int32Array(r1 - r0).fill(-1);
    for (let r = r0; r < r1 - 1; r++) {
      const s = index.ruleByte[r];
      if (s === undefined) return undefined;
      const start = s - base;
      const end = ruleEnd(index, r) - base;
      if (start < at || end > raw.u8.length) return undefined;
      const k = this.rule(index, r, raw, start, end, base, ip.name);
      if (!k) return undefined;
      ids[r - r0] = k.id;
      if (!run || start > at) {
        if (start > at) parts.push(text(at, start));
        parts.push(`    RULE : ${STUB}${runs.length}\n`);
        run = [];
        runs.push(run);
      }
      run.push(k);
      at = end;
    }
    parts.push(text(at, raw.u8.length));
    const parsed = parseVfpRuleText(parts.join(''), index.file, { lineOffset: ip.lineStart - 1, defaultPortName: ip.name });
    const policy = parsed.value.length === 1 ? parsed.value[0] : undefined;
    if (!policy) return undefined;
    // Each placeholder is replaced by its run's rules, in order; a port that parsed otherwise is read whole.
    let n = 0;
    for (const l of policy.layers)
      for (const [gi, g] of l.groups.entries()) {
        if (!g.rules.some((x) => x.id.startsWith(STUB))) continue;
        const rules: VfpRule[] = [];
        const ids: (number | VfpRule)[] = [];
        for (const x of g.rules) {
          if (!x.id.startsWith(STUB)) {
            rules.push(x);
            ids.push(x);
            continue;
          }
          const got = runs[n];
          if (x.id !== `${STUB}${n}` || !got) return undefined;
          for (const k of got) {
            rules.push(k.rule);
            ids.push(k.id);
          }
          n++;
        }
        g.rules = rules;
        // A group every rule of which is shared (none parsed in place) is shared whole when its fields match.
        if (ids.every((x) => typeof x === 'number')) {
          const sig = `${groupFields(g)}\u0000${ids.join(',')}`;
          const known = this.groups.get(sig);
          if (known) {
            l.groups[gi] = known;
            this.sharedGroups++;
          } else this.groups.set(sig, g);
        }
      }
    if (n !== runs.length) return undefined;
    if (ip.implicit) policy.implicit = true;
    this.portRules.set(policy.portName.trim().toLowerCase(), { index, r0, ids });
    return policy;
  }

  /**
   * The line a rule a walk met has on the port the walk met it on: a shared rule's `src` is its first
   * port's. Undefined when the rule is the port's own (parsed in place, or the port read whole).
   */
  ownLine(portName: string, src: SourceRef): number | undefined {
    const id = this.idOfSrc.get(src);
    const p = id === undefined ? undefined : this.portRules.get(portName.trim().toLowerCase());
    if (id === undefined || !p) return undefined;
    if (!p.first) {
      const first = new Map<number, number>();
      p.ids.forEach((x, i) => {
        if (x >= 0 && !first.has(x)) first.set(x, p.r0 + i);
      });
      p.first = first;
    }
    const r = p.first.get(id);
    const byte = r === undefined ? undefined : p.index.ruleByte[r];
    return byte === undefined ? undefined : p.index.lineAt(byte);
  }
}

const models = new WeakMap<NodeModel, NodeModel>();
const stores = new WeakMap<NodeModel, SharedRules>();
/** The store behind each model sharedRulesModel gave. */
const sharedStores = new WeakMap<NodeModel, SharedRules>();

/** Rules reach parsed, rules it took from another port, and groups taken whole, so far, for a model (the bench prints them). */
export function sharedRulesStats(m: NodeModel): { parsed: number; shared: number; sharedGroups: number } {
  const s = stores.get(m);
  return { parsed: s?.parsed ?? 0, shared: s?.shared ?? 0, sharedGroups: s?.sharedGroups ?? 0 };
}

/**
 * A walk on the model reach walks, with every rule's evidence at its line on the port the walk met it
 * on (the findings on a path join on those lines), its reply too. A walk on any other model is returned
 * as it is.
 */
export function withOwnLines(sm: NodeModel, w: WalkResult): WalkResult {
  const store = sharedStores.get(sm);
  if (!store) return w;
  const hop = (h: WalkHop): WalkHop => {
    if (!h.port || !h.evidence) return h;
    const line = store.ownLine(h.port, h.evidence);
    return line === undefined || line === h.evidence.line ? h : { ...h, evidence: { file: h.evidence.file, line } };
  };
  return { ...w, hops: w.hops.map(hop), ...(w.reply ? { reply: withOwnLines(sm, w.reply) } : {}) };
}

/** The model reach walks: the same node, its VFP rules shared between ports where their text is equal. */
export function sharedRulesModel(m: NodeModel): NodeModel {
  if (!m.vfp) return m;
  let s = models.get(m);
  if (!s) {
    const shared = new SharedRules(m);
    stores.set(m, shared);
    s = { ...m, vfp: { ...m.vfp, getPolicy: (name: string) => shared.getPolicy(name) } };
    models.set(m, s);
    sharedStores.set(s, shared);
  }
  return s;
}
