// The rules of a VFP port for the checks, without parsing every port in full. Checks compare a few facts
// of every pod port's rules, and on a 250-pod node with 2,000 services that is a million rules: parsing
// each port (≈ 45 µs a rule) took 46 s and, cached, 3.7 GB. HNS programs the same policy onto every pod
// port under the same rule names (LB_DSR_<hash>_<src>_<VIP>_<port>_<target>_<proto>,
// EXCEPTIONS_OUTBOUNDNAT_<hash>_<ranges>, REMOTESUBNETROUTE_…_<prefix>_…_<PA>; per-port rules carry the
// port's GUID), so a rule is known by its name (the scanner's VfpIndex.ruleName) and a name seen on several
// ports is parsed once, from the first port that has it. A name that appears twice on one port (a
// generic name such as `NAT_Allow`) or no name at all is never shared: each such rule is read itself.
// Identity rests on the name alone except for load-balancing rules, whose name does not carry their DIPs:
// a port's copy of one is shared only when it lists the same DIPs, byte for byte, as a copy already read
// (rule-content.ts: the bytes from the DIP lines to the counters, whose per-port values are not compared).
// A port HNS left with old DIPs (partial programming) thus gets a copy of its own, parsed from its own
// bytes, and ports printing that same copy share it.
// Per port rule only a 4-byte id is kept; per distinct rule, where it was first seen and which port last
// took it (a few numbers), and for a load-balancing rule its DIP bytes (≈ 150 bytes), so memory stays a
// few MB on a node of a million port rules.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { VfpRule } from '../../parsers/vfp/index.ts';
import { firstRules, readPortRules, readRuleAt, ruleEnd } from '../../parsers/vfp/rule-at.ts';
import { asByteSource } from '../../parsers/vfp/byte-source.ts';
import type { VfpIndex } from '../../parsers/vfp/index-types.ts';
import { RuleContents } from './rule-content.ts';
import { ruleAction } from '../walk/semantics.ts';
import { KeyTable } from './key-table.ts';
import { spend } from '../budget.ts';

/** What a shared id's identity rests on: not known yet (its rule not parsed), its name, or its content too. */
const UNKNOWN = 0;
const BY_NAME = 1;
const BY_CONTENT = 2;

/** Above this many rules to read on one port, the port is parsed whole (one pass) instead of rule by rule. */
const WHOLE_PORT_FROM = 64;

export class PortRuleReader {
  /** Shared and unshared rules, by id. */
  private readonly rules: (VfpRule | undefined)[] = [];
  /** Where each id was first seen: file index and rule index in that file's index. */
  private readonly at: { file: number; rule: number }[] = [];
  private readonly byName = new KeyTable();
  private readonly ids = new Map<string, Uint32Array>();
  /** Per id: the number of the last port that took it, and where on that port (to spot a name printed twice). */
  private readonly stamp: number[] = [];
  private readonly firstOn: number[] = [];
  private portCount = 0;
  /** Per id: UNKNOWN, BY_NAME or BY_CONTENT (a load-balancing rule: its block is kept in `content`). */
  private readonly identity: number[] = [];
  /** The blocks of the load-balancing rules, counters excluded, each with its id. */
  private readonly content = new RuleContents();
  /** Per id a name gives (byName), the ids of the other copies printed under that name. */
  private readonly copies = new Map<number, number[]>();
  /** A port's bytes, read again for the content of its load-balancing rules (reused from port to port). */
  private buf = new Uint8Array(0);
  /** Ports whose rules are all parsed: each of the checks that reads every pod port asks again. */
  private readonly parsed = new Set<string>();

  constructor(private readonly m: NodeModel) {}

  /** Every rule of the port in file order (shared objects: do not modify), [] when it has none. */
  of(port: VfpPortRef): VfpRule[] {
    const ids = this.idsFor(port);
    if (!ids.length) return [];
    const out = new Array<VfpRule>(ids.length);
    let n = 0;
    for (const id of ids) {
      const r = this.rules[id];
      if (r) out[n++] = r;
    }
    out.length = n;
    return out;
  }

  /**
   * The port's rules as ids in file order, every one parsed: `rule(id)` gives the rule, the same object
   * for every port that shares it. A check that works a fact out once per rule keeps it in an array by
   * id instead of building a list of a million rule objects and looking each up in a Map.
   */
  idsFor(port: VfpPortRef): Uint32Array {
    const ids = this.idsOf(port);
    // A check reading a port's rules counts them against its budget, as rulesOf does (shared or not).
    spend(ids.length);
    if (ids.length && !this.parsed.has(port.key)) {
      this.parse(port, ids);
      this.parsed.add(port.key);
    }
    return ids;
  }

  /** The rule with this id (from idsFor), undefined when its text did not parse as a rule. */
  rule(id: number): VfpRule | undefined {
    return this.rules[id];
  }

  private idsOf(port: VfpPortRef): Uint32Array {
    let ids = this.ids.get(port.key);
    if (ids) return ids;
    const ref = port.policy;
    const f = ref && this.m.vfp?.files[ref.file];
    if (!ref || !f) {
      ids = new Uint32Array(0);
      this.ids.set(port.key, ids);
      return ids;
    }
    const first = firstRules(f.index);
    const r0 = first[ref.port] ?? 0;
    const r1 = first[ref.port + 1] ?? r0;
    // The scanner named every rule while it read the dump (VfpIndex.ruleName).
    const keys = f.index.ruleName.subarray(r0, r1);
    // One pass: a name is looked up once, and a name already taken on this port (its id stamped with
    // this port) is printed twice here, so it does not identify a rule: both places get ids of their own.
    const no = ++this.portCount;
    const bornFrom = this.at.length;
    ids = new Uint32Array(r1 - r0);
    let twice: Set<number> | undefined;
    for (let i = 0; i < keys.length; i++) {
      // -1: a rule without a name, never shared.
      const k = keys[i] ?? -1;
      if (k === -1 || twice?.has(k)) {
        ids[i] = this.fresh(ref.file, r0 + i, no, i);
        continue;
      }
      let id = this.byName.get(k);
      if (id !== -1 && this.stamp[id] === no) {
        (twice ??= new Set()).add(k);
        const i0 = this.firstOn[id] ?? 0;
        ids[i0] = this.fresh(ref.file, r0 + i0, no, i0);
        ids[i] = this.fresh(ref.file, r0 + i, no, i);
        // Registered by this port: no other port may take it as the name's rule (-1 reads as absent).
        if (id >= bornFrom) this.byName.set(k, -1);
        continue;
      }
      if (id === -1) {
        id = this.fresh(ref.file, r0 + i, no, i);
        this.byName.set(k, id);
      } else {
        this.stamp[id] = no;
        this.firstOn[id] = i;
      }
      ids[i] = id;
    }
    this.splitByContent(f.index, f.bytes, ref, r0, ids, bornFrom, no);
    this.ids.set(port.key, ids);
    return ids;
  }

  /**
   * A load-balancing rule's name does not carry its DIPs: a port whose copy differs from the one known
   * under that name (HNS reprogrammed the other ports, this one kept old DIPs) gets an id of its own,
   * and ports printing that same copy share it. Only rules parsed already (ids from earlier ports)
   * whose rule load-balances are compared: what the checks read from other rules is in their names.
   */
  private splitByContent(index: VfpIndex, bytes: Parameters<typeof asByteSource>[0], ref: { file: number; port: number }, r0: number, ids: Uint32Array, bornFrom: number, no: number): void {
    let view: { u8: Uint8Array; dv: DataView; base: number } | undefined;
    let ends: Float64Array | undefined;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id >= bornFrom || this.identity[id] !== BY_CONTENT) continue;
      view ??= this.portBytes(index, bytes, ref.port);
      ends ??= blockEnds(index, ref.port, r0, r0 + ids.length);
      const r = r0 + i;
      const start = (index.ruleByte[r] ?? 0) - view.base;
      const end = (ends[i] ?? 0) - view.base;
      if (this.content.same(id, view.u8, view.dv, start, end)) continue;
      const others = this.copies.get(id);
      const other = others?.find((x) => this.content.same(x, view!.u8, view!.dv, start, end));
      if (other !== undefined) {
        ids[i] = other;
        continue;
      }
      const own = this.fresh(ref.file, r, no, i);
      this.identity[own] = BY_CONTENT;
      this.content.add(own, view.u8, start, end);
      if (others) others.push(own);
      else this.copies.set(id, [own]);
      ids[i] = own;
    }
  }

  /** The bytes of port p, with the file offset of their first byte. */
  private portBytes(index: VfpIndex, bytes: Parameters<typeof asByteSource>[0], p: number): { u8: Uint8Array; dv: DataView; base: number } {
    const src = asByteSource(bytes);
    const port = index.ports[p];
    let u8: Uint8Array;
    let base = 0;
    if (src.whole) u8 = src.whole;
    else {
      base = port?.byteStart ?? 0;
      const len = (port?.byteEnd ?? base) - base;
      if (this.buf.length < len) this.buf = new Uint8Array(len);
      u8 = src.read(base, len, this.buf);
    }
    return { u8, dv: new DataView(u8.buffer, u8.byteOffset, u8.byteLength), base };
  }

  /** A new id for rule `rule` of file `file`, taken by port number `no` at its rule `i`. */
  private fresh(file: number, rule: number, no: number, i: number): number {
    const id = this.at.length;
    this.at.push({ file, rule });
    this.rules.push(undefined);
    this.stamp.push(no);
    this.firstOn.push(i);
    this.identity.push(UNKNOWN);
    return id;
  }

  /** Parses the rules of this port no other port has given yet. */
  private parse(port: VfpPortRef, ids: Uint32Array): void {
    const todo: number[] = [];
    for (const id of ids) if (!this.rules[id]) todo.push(id);
    if (!todo.length) return;
    const ref = port.policy;
    const f = ref && this.m.vfp?.files[ref.file];
    // idsOf gave ids only to a port whose policy and file are there.
    if (!ref || !f) return;
    this.parseRules(ref, f, ids, todo);
    this.classify(ref, f, ids);
  }

  /**
   * Decides, for the rules of this port first seen here under a name other ports may print, what their
   * identity rests on: a load-balancing rule's content is registered, so a later port's copy is compared.
   */
  private classify(ref: { file: number; port: number }, f: { bytes: Parameters<typeof asByteSource>[0]; index: VfpIndex }, ids: Uint32Array): void {
    const r0 = firstRules(f.index)[ref.port] ?? 0;
    let view: { u8: Uint8Array; dv: DataView; base: number } | undefined;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (this.identity[id] !== UNKNOWN) continue;
      const rule = this.rules[id];
      const k = f.index.ruleName[r0 + i] ?? -1;
      // Unparsed, or never shared (no name, or a name this port prints twice): nothing to compare.
      if (!rule || k === -1 || this.byName.get(k) !== id || ruleAction(rule) !== 'lb') {
        this.identity[id] = BY_NAME;
        continue;
      }
      view ??= this.portBytes(f.index, f.bytes, ref.port);
      const r = r0 + i;
      const start = (f.index.ruleByte[r] ?? 0) - view.base;
      this.content.add(id, view.u8, start, ruleEnd(f.index, r) - view.base);
      this.identity[id] = BY_CONTENT;
    }
  }

  private parseRules(ref: { file: number; port: number }, f: { bytes: Parameters<typeof asByteSource>[0]; index: VfpIndex }, ids: Uint32Array, todo: number[]): void {
    if (todo.length >= WHOLE_PORT_FROM) {
      const whole = readPortRules(f.bytes, f.index, ref.port);
      // The scanner and the parser agree on counts (tested); if a damaged port ever disagreed, read rule by rule.
      if (whole.length === ids.length) {
        for (const [i, id] of ids.entries()) this.rules[id] ??= whole[i];
        return;
      }
    }
    for (const id of todo) {
      if (this.rules[id]) continue;
      const at = this.at[id];
      const file = at && this.m.vfp?.files[at.file];
      if (!at || !file) continue;
      this.rules[id] = readRuleAt(file.bytes, file.index, at.rule);
    }
  }
}

/**
 * The exclusive end byte of each rule block r0…r1 - 1 of port p, as rule-at.ts ruleEnd gives it (the
 * next RULE, GROUP or LAYER line, or the port's end), in one pass: ruleEnd's two searches per rule
 * cost more than the comparison it serves.
 */
function blockEnds(index: VfpIndex, p: number, r0: number, r1: number): Float64Array {
  const out = new Float64Array(r1 - r0);
  const portEnd = index.ports[p]?.byteEnd ?? index.bytes;
  const first = index.ruleByte[r0] ?? 0;
  const groups = index.groupByte;
  let g = 0;
  let lo = 0;
  let hi = groups.length;
  // The first group line after the first rule.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((groups[mid] ?? Infinity) <= first) lo = mid + 1;
    else hi = mid;
  }
  g = lo;
  const layers = index.layers;
  let l = 0;
  lo = 0;
  hi = layers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((layers[mid]?.byte ?? Infinity) <= first) lo = mid + 1;
    else hi = mid;
  }
  l = lo;
  for (let r = r0; r < r1; r++) {
    const start = index.ruleByte[r] ?? 0;
    while (g < groups.length && (groups[g] ?? Infinity) <= start) g++;
    while (l < layers.length && (layers[l]?.byte ?? Infinity) <= start) l++;
    let end = portEnd;
    if (r + 1 < r1) end = Math.min(end, index.ruleByte[r + 1] ?? end);
    if (g < groups.length) end = Math.min(end, groups[g] ?? end);
    if (l < layers.length) end = Math.min(end, layers[l]?.byte ?? end);
    out[r - r0] = end;
  }
  return out;
}

const readers = new WeakMap<NodeModel, PortRuleReader>();

/** The model's rule reader (one per model, so every check shares what was read). */
export function portRules(m: NodeModel): PortRuleReader {
  let r = readers.get(m);
  if (!r) readers.set(m, (r = new PortRuleReader(m)));
  return r;
}
