// One rule of an indexed VFP dump read on its own, and a port's rules read in one pass with lines
// counted only when asked: the checks compare a few facts of every pod port's rules (which VIP:port
// each load-balances, which ranges it exempts from SNAT), and on a 250-pod node that is a million
// rules. Parsing each port in full costs ≈ 45 µs a rule; the rules that share a name across ports
// (rule-name.ts) are read once (analysis/checks/port-rules.ts). Block boundaries come from the
// scanner's index, so this module never re-scans a port.
import type { VfpIndex } from './index-types.ts';
import type { VfpRule } from './types.ts';
import { parseVfpRuleText } from './policy-text.ts';
import { asByteSource, type ByteSource } from './byte-source.ts';

const firsts = new WeakMap<VfpIndex, Uint32Array>();

/**
 * Index (into `index.ruleByte`) of each port's first rule: port p's rules are `[first[p], first[p + 1])`.
 * The scanner appends rules in file order and ports open in file order, so each port's rules are one run.
 */
export function firstRules(index: VfpIndex): Uint32Array {
  let f = firsts.get(index);
  if (f) return f;
  f = new Uint32Array(index.ports.length + 1);
  const rp = index.rulePort;
  let r = 0;
  for (let p = 0; p < index.ports.length; p++) {
    f[p] = r;
    while (r < rp.length && rp[r] === p) r++;
  }
  f[index.ports.length] = r;
  firsts.set(index, f);
  return f;
}

/** First position in a sorted list whose value is greater than x. */
function upperBound(n: number, at: (i: number) => number | undefined, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = at(mid); // mid < n: always a value
    if (v !== undefined && v <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Exclusive end byte of rule r's block: the next RULE, GROUP or LAYER line of its port, or the port's end. */
export function ruleEnd(index: VfpIndex, r: number): number {
  const start = index.ruleByte[r];
  // No such rule: the file's end (every caller has checked that rule r exists).
  if (start === undefined) return index.bytes;
  const portOf = index.rulePort[r];
  const port = portOf === undefined ? undefined : index.ports[portOf];
  let end = port ? port.byteEnd : index.bytes;
  const next = index.ruleByte[r + 1];
  if (next !== undefined && index.rulePort[r + 1] === portOf) end = Math.min(end, next);
  const group = index.groupByte[upperBound(index.groupByte.length, (i) => index.groupByte[i], start)];
  if (group !== undefined) end = Math.min(end, group);
  const layer = index.layers[upperBound(index.layers.length, (i) => index.layers[i]?.byte, start)];
  if (layer) end = Math.min(end, layer.byte);
  return end;
}

const decoder = new TextDecoder('utf-8');

/**
 * Parses rule r alone with the detailed parser (the same result as the rule inside its port's full
 * parse; tests check this on every fixture). Its `src.line` is the file's line, counted when read.
 */
export function readRuleAt(bytes: Uint8Array | ByteSource, index: VfpIndex, r: number): VfpRule | undefined {
  const start = index.ruleByte[r]; // undefined for r out of range, or not a whole number
  if (start === undefined) return undefined;
  const text = decoder.decode(asByteSource(bytes).read(start, ruleEnd(index, r) - start));
  const portOf = index.rulePort[r];
  const port = portOf === undefined ? undefined : index.ports[portOf];
  const parsed = parseVfpRuleText(text, index.file, { defaultPortName: port?.name ?? '' });
  const rule = parsed.value[0]?.layers[0]?.groups[0]?.rules[0];
  if (!rule) return undefined;
  let line: number | undefined;
  rule.src = {
    file: index.file,
    get line() {
      return (line ??= index.lineAt(start));
    },
  };
  return rule;
}

/**
 * Every rule of port p, parsed in one pass over its range (the same rules as materializeVfpPort gives,
 * in file order), with lines counted only when read: numbering a 900 MB dump's lines costs a pass over
 * it that a check finding nothing should not pay.
 */
export function readPortRules(bytes: Uint8Array | ByteSource, index: VfpIndex, p: number): VfpRule[] {
  const port = index.ports[p];
  if (!port) return [];
  const text = decoder.decode(asByteSource(bytes).read(port.byteStart, port.byteEnd - port.byteStart));
  const parsed = parseVfpRuleText(text, index.file, { defaultPortName: port.name });
  const rules = parsed.value.flatMap((x) => x.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)));
  let first: number | undefined;
  for (const rule of rules) {
    const rel = rule.src.line;
    let line: number | undefined;
    rule.src = {
      file: index.file,
      get line() {
        return (line ??= (first ??= index.lineAt(port.byteStart)) + rel - 1);
      },
    };
  }
  return rules;
}
