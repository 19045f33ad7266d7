// The node as reach walks it: every VFP port's policy, with a rule printed the same on several ports
// parsed once, and a group whose every rule and every field is another port's taken whole (issue #25
// point 7). One source's classes reach every local pod (its IN layers, and its OUT layers for the
// reply), so a walk-per-class partition reads every port: on a 250-pod node with 2,000 Services that
// is a million rules (≈ 45 µs each to parse), most of the time of the partition. HNS programs the
// same load-balancing and exception rules onto every pod port; their blocks are identical text (name,
// conditions, data; the hit counters aside), so their parse is identical too. A port's layers and
// groups are still parsed from its own text, each rule is taken from the first port that printed the
// same text (known by its content, read in one pass over the port's bytes, never assumed from the name:
// shared-key.ts says what equality rests on), and the last rule of a port, whose block runs into the
// port's other sections, is parsed in place. The port's bytes are read into one buffer reused for
// every port, so reading the ports keeps none of them. A run of rules printed the same on several
// ports is one array, and a group whose parsed fields and runs are those of a group of another port
// is that group (so the walk's rule index, match.ts compiledGroup, is built once for the 250 copies of
// a 4,000-rule load-balancing group). The walk is the same; only a shared rule's
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
import { RuleStore } from './shared-key.ts';

const STUB = '__reach_shared_run_';
/** The reused read buffer's largest size (a pod port of the big generated node is ≈ 3.6 MB). */
const KEEP_BYTES = 16 << 20;
const decoder = new TextDecoder('utf-8');

interface Known {
  rule: VfpRule;
  /** A number per distinct rule, for the runs' and groups' signatures. */
  id: number;
}

/** Rules printed one after another (one group, nothing between them), shared whole between ports. */
interface Run {
  ids: Int32Array;
  rules: VfpRule[];
  /** A number per distinct run, for the groups' signatures. */
  id: number;
  next?: Run;
}

/** A signature of a run's rule ids (two lanes, as shared-key.ts; the ids are then compared). */
function runKey(ids: Int32Array, from: number, to: number): number {
  let a = 0x2545f491;
  let b = to - from;
  for (let i = from; i < to; i++) {
    const x = ids[i]!;
    a = (Math.imul(a, 0x9e3779b1) + x) | 0;
    b = Math.imul(b ^ x, 0x85ebca6b);
    b = (b << 13) | (b >>> 19);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) >>> 11);
}

function sameIds(x: Int32Array, y: Int32Array, from: number, to: number): boolean {
  if (x.length !== to - from) return false;
  for (let i = from; i < to; i++) if (x[i - from] !== y[i]) return false;
  return true;
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
  readonly known = new RuleStore<Known>();
  private readonly runs = new Map<number, Run>();
  private readonly idOfSrc = new Map<SourceRef, number>();
  private readonly portRules = new Map<string, PortRules>();
  private readonly groups = new Map<string, VfpGroup>();
  private readonly policies = new Map<string, VfpPortPolicy | undefined>();
  private readonly refs = new Map<string, VfpPortRef>();
  /**
   * The one buffer every port's bytes are read into (grown to the largest port read): reading the
   * ports allocates nothing per port, and nothing of a port's bytes is kept after its build.
   */
  private buf = new Uint8Array(0);
  private ids = 0;
  /** Each distinct rule by its number. */
  private readonly byId: VfpRule[] = [];
  private runIds = 0;
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

  /**
   * The port's bytes [base, base + len), read into the reused buffer; a port larger than KEEP_BYTES is
   * read into a buffer of its own, dropped after its build (the store lives as long as the node).
   */
  private read(f: { bytes: Parameters<typeof asByteSource>[0] }, base: number, len: number): Uint8Array {
    if (len > KEEP_BYTES) return asByteSource(f.bytes).read(base, len);
    if (this.buf.length < len) this.buf = new Uint8Array(Math.min(KEEP_BYTES, Math.max(len, 2 * this.buf.length)));
    return asByteSource(f.bytes).read(base, len, this.buf);
  }

  /** Rule r, whose block is `u8` [start, end) (`base` is u8's first byte in the file). */
  private rule(index: VfpIndex, r: number, u8: Uint8Array, dv: DataView, start: number, end: number, base: number, portName: string): Known | undefined {
    // A block printing no name is never shared (as the checks, which key shared rules by name).
    const name = index.ruleName[r];
    const named = name !== undefined && name !== -1;
    if (named) {
      const k = this.known.find(u8, dv, start, end, name);
      if (k) {
        this.shared++;
        return k;
      }
    }
    const rule = parseVfpRuleText(decoder.decode(u8.subarray(start, end)), index.file, { defaultPortName: portName }).value[0]?.layers[0]?.groups[0]?.rules[0];
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
    const known: Known = { rule, id: this.ids++ };
    this.byId.push(rule);
    this.idOfSrc.set(rule.src, known.id);
    if (named) this.known.add(known);
    return known;
  }

  /** The rules of a run (ids [from, to) of the port): the same array for every port printing that run. */
  private run(ids: Int32Array, from: number, to: number): Run {
    const k = runKey(ids, from, to);
    for (let x = this.runs.get(k); x; x = x.next) if (sameIds(x.ids, ids, from, to)) return x;
    const list: VfpRule[] = [];
    for (let i = from; i < to; i++) list.push(this.byId[ids[i]!]!);
    const run: Run = { ids: ids.slice(from, to), rules: list, id: this.runIds++, next: this.runs.get(k) };
    this.runs.set(k, run);
    return run;
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
    // The port's bytes, read once into the reused buffer; each rule block is keyed in one pass over its
    // bytes, only the distinct ones and the text between runs are decoded.
    const u8 = this.read(f, base, ip.byteEnd - base);
    const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
    const text = (a: number, b: number) => decoder.decode(u8.subarray(a, b));
    // The port's text with every run of consecutive rules but the last rule replaced by a one-line
    // placeholder (runs: rules of one group, nothing printed between them).
    const parts: string[] = [];
    const runs: [number, number][] = [];
    let at = 0;
    const ids = new Int32Array(r1 - r0).fill(-1);
    for (let r = r0; r < r1 - 1; r++) {
      const s = index.ruleByte[r];
      if (s === undefined) return undefined;
      const start = s - base;
      const end = ruleEnd(index, r) - base;
      if (start < at || end > u8.length) return undefined;
      const k = this.rule(index, r, u8, dv, start, end, base, ip.name);
      if (!k) return undefined;
      ids[r - r0] = k.id;
      if (!runs.length || start > at) {
        if (start > at) parts.push(text(at, start));
        parts.push(`    RULE : ${STUB}${runs.length}\n`);
        runs.push([r - r0, r - r0]);
      }
      runs[runs.length - 1]![1]++;
      at = end;
    }
    parts.push(text(at, u8.length));
    const parsed = parseVfpRuleText(parts.join(''), index.file, { lineOffset: ip.lineStart - 1, defaultPortName: ip.name });
    const policy = parsed.value.length === 1 ? parsed.value[0] : undefined;
    if (!policy) return undefined;
    // Each placeholder is replaced by its run's rules, in order; a port that parsed otherwise is read whole.
    let n = 0;
    for (const l of policy.layers)
      for (const [gi, g] of l.groups.entries()) {
        if (!g.rules.some((x) => x.id.startsWith(STUB))) continue;
        const parts: VfpRule[][] = [];
        // The group's signature: its runs, or undefined when a rule of it is parsed in place.
        let sig: string[] | undefined = [];
        for (const x of g.rules) {
          if (!x.id.startsWith(STUB)) {
            parts.push([x]);
            sig = undefined;
            continue;
          }
          const got = runs[n];
          if (x.id !== `${STUB}${n}` || !got) return undefined;
          const run = this.run(ids, got[0], got[1]);
          parts.push(run.rules);
          sig?.push(String(run.id));
          n++;
        }
        // One run (the usual group): its array itself, shared by every port printing it.
        g.rules = parts.length === 1 ? parts[0]! : parts.flat();
        // A group every rule of which is shared (none parsed in place) is shared whole when its fields match.
        if (sig) {
          const key = `${groupFields(g)}\u0000${sig.join(',')}`;
          const known = this.groups.get(key);
          if (known) {
            l.groups[gi] = known;
            this.sharedGroups++;
          } else this.groups.set(key, g);
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
export function sharedRulesStats(m: NodeModel): { parsed: number; shared: number; sharedGroups: number; tailsRead: number } {
  const s = stores.get(m);
  // tailsRead: blocks whose counters were found by reading their end (the others were found at the
  // place a known rule of the same name had them).
  return { parsed: s?.parsed ?? 0, shared: s?.shared ?? 0, sharedGroups: s?.sharedGroups ?? 0, tailsRead: s?.known.read ?? 0 };
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
