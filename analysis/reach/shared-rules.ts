// The node as reach walks it: every VFP port's policy, with a rule printed byte for byte the same on
// several ports parsed once (issue #25 point 7). One source's classes reach every local pod (its IN
// layers, and its OUT layers for the reply), so a walk-per-class partition parses every port: on a
// 250-pod node with 2,000 Services that is a million rules (≈ 45 µs each), most of the time of the
// partition. HNS programs the same load-balancing and exception rules onto every pod port; their
// blocks are identical bytes (name, conditions, data, counters), so their parse is identical too. A
// port's layers and groups are still parsed from its own text, each rule is taken from the first
// port that printed exactly the same bytes (compared, not assumed from the name), and the last rule
// of a port, whose block runs into the port's other sections, is parsed in place. The walk is the
// same; only a shared rule's line is its first port's — reach shows outcomes, never these lines
// (a class's example opened in `trace` is walked on the node itself).
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { VfpPortPolicy, VfpRule } from '../../parsers/vfp/index.ts';
import type { VfpIndex } from '../../parsers/vfp/index-types.ts';
import { firstRules, readRuleAt, ruleEnd } from '../../parsers/vfp/rule-at.ts';
import { asByteSource, type ByteSource } from '../../parsers/vfp/byte-source.ts';
import { parseVfpRuleText } from '../../parsers/vfp/policy-text.ts';

const STUB = '__reach_shared_rule_';
const decoder = new TextDecoder('utf-8');

interface Known {
  /** A copy of the rule's bytes: comparisons never read the dump again (it may be on disk). */
  bytes: Uint8Array;
  rule: VfpRule;
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

/**
 * The two rule blocks say the same thing: the same bytes, line for line, except the values of the rule
 * counters (hits differ from port to port; the walk does not read them).
 */
function sameRule(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): boolean {
  if (ae - as === be - bs) {
    let i = 0;
    const n = ae - as;
    while (i < n && a[as + i] === b[bs + i]) i++;
    if (i === n) return true;
  }
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

class SharedRules {
  private readonly byName = new Map<number, Known[]>();
  private readonly policies = new Map<string, VfpPortPolicy | undefined>();
  private readonly refs = new Map<string, VfpPortRef>();
  /** Rules parsed, and rules taken from another port. */
  parsed = 0;
  shared = 0;

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

  private rule(index: VfpIndex, bytes: ByteSource, r: number): VfpRule | undefined {
    const start = index.ruleByte[r];
    const end = ruleEnd(index, r);
    const name = index.ruleName[r];
    if (start === undefined || name === undefined) return undefined;
    const list = name === -1 ? undefined : this.byName.get(name);
    const own = bytes.read(start, end - start);
    for (const k of list ?? []) {
      if (sameRule(k.bytes, 0, k.bytes.length, own, 0, own.length)) {
        this.shared++;
        return k.rule;
      }
    }
    // Copied before the next read: a source on disk may hand out views of a buffer it reuses.
    const keep = own.slice();
    const rule = readRuleAt(bytes, index, r);
    this.parsed++;
    if (rule && name !== -1) {
      const known = { bytes: keep, rule };
      if (list) list.push(known);
      else this.byName.set(name, [known]);
    }
    return rule;
  }

  private build(ref: VfpPortRef): VfpPortPolicy | undefined {
    const f = this.m.vfp?.files[ref.policy!.file];
    if (!f) return undefined;
    const { index } = f;
    const bytes = asByteSource(f.bytes);
    const ip = index.ports[ref.policy!.port];
    const first = firstRules(index);
    const r0 = first[ref.policy!.port];
    const r1 = first[ref.policy!.port + 1];
    if (!ip || r0 === undefined || r1 === undefined || r1 - r0 < 2) return undefined;
    // The port's text with every rule block but the last replaced by a one-line placeholder.
    const parts: string[] = [];
    const rules: VfpRule[] = [];
    let at = ip.byteStart;
    for (let r = r0; r < r1 - 1; r++) {
      const start = index.ruleByte[r];
      const end = ruleEnd(index, r);
      if (start === undefined || start < at || end > ip.byteEnd) return undefined;
      const rule = this.rule(index, bytes, r);
      if (!rule) return undefined;
      parts.push(decoder.decode(bytes.read(at, start - at)), `    RULE : ${STUB}${rules.length}\n`);
      rules.push(rule);
      at = end;
    }
    parts.push(decoder.decode(bytes.read(at, ip.byteEnd - at)));
    const parsed = parseVfpRuleText(parts.join(''), index.file, { lineOffset: ip.lineStart - 1, defaultPortName: ip.name });
    const policy = parsed.value.length === 1 ? parsed.value[0] : undefined;
    if (!policy) return undefined;
    // Each placeholder is replaced by its rule, in order; a port that parsed otherwise is read whole.
    let n = 0;
    for (const l of policy.layers)
      for (const g of l.groups)
        for (const [i, { id }] of g.rules.entries()) {
          if (!id.startsWith(STUB)) continue;
          const rule = rules[n];
          if (id !== `${STUB}${n}` || !rule) return undefined;
          g.rules[i] = rule;
          n++;
        }
    if (n !== rules.length) return undefined;
    if (ip.implicit) policy.implicit = true;
    return policy;
  }
}

const models = new WeakMap<NodeModel, NodeModel>();
const stores = new WeakMap<NodeModel, SharedRules>();

/** Rules reach parsed and rules it took from another port, so far, for a model (the bench prints them). */
export function sharedRulesStats(m: NodeModel): { parsed: number; shared: number } {
  const s = stores.get(m);
  return { parsed: s?.parsed ?? 0, shared: s?.shared ?? 0 };
}

/** The model reach walks: the same node, its VFP rules shared between ports where their bytes are equal. */
export function sharedRulesModel(m: NodeModel): NodeModel {
  if (!m.vfp) return m;
  let s = models.get(m);
  if (!s) {
    const shared = new SharedRules(m);
    stores.set(m, shared);
    s = { ...m, vfp: { ...m.vfp, getPolicy: (name: string) => shared.getPolicy(name) } };
    models.set(m, s);
  }
  return s;
}
