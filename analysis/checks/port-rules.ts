// The rules of a VFP port for the checks, without parsing every port in full. Checks compare a few facts
// of every pod port's rules, and on a 250-pod node with 2,000 services that is a million rules: parsing
// each port (≈ 45 µs a rule) took 46 s and, cached, 3.7 GB. HNS programs the same policy onto every pod
// port under the same rule names (LB_DSR_<hash>_<src>_<VIP>_<port>_<target>_<proto>,
// EXCEPTIONS_OUTBOUNDNAT_<hash>_<ranges>, REMOTESUBNETROUTE_…_<prefix>_…_<PA>; per-port rules carry the
// port's GUID), so a rule is known by its name (the scanner's VfpIndex.ruleName) and a name seen on several
// ports is parsed once, from the first port that has it. A name that appears twice on one port (a
// generic name such as `NAT_Allow`) or no name at all is never shared: each such rule is read itself.
// Per port rule only a 4-byte id is kept; per distinct rule, where it was first seen and which port last
// took it (a few numbers), so memory stays a few MB on a node of a million port rules.
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { VfpRule } from '../../parsers/vfp/index.ts';
import { firstRules, readPortRules, readRuleAt } from '../../parsers/vfp/rule-at.ts';
import { KeyTable } from './key-table.ts';
import { spend } from '../budget.ts';

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
    this.ids.set(port.key, ids);
    return ids;
  }

  /** A new id for rule `rule` of file `file`, taken by port number `no` at its rule `i`. */
  private fresh(file: number, rule: number, no: number, i: number): number {
    const id = this.at.length;
    this.at.push({ file, rule });
    this.rules.push(undefined);
    this.stamp.push(no);
    this.firstOn.push(i);
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

const readers = new WeakMap<NodeModel, PortRuleReader>();

/** The model's rule reader (one per model, so every check shares what was read). */
export function portRules(m: NodeModel): PortRuleReader {
  let r = readers.get(m);
  if (!r) readers.set(m, (r = new PortRuleReader(m)));
  return r;
}
