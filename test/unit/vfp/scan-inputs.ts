// What the two scanner-agreement tests share (scan-oracle.test.ts: the scanner against the
// line-by-line oracle; scan-windowed.test.ts: a scan read in windows against a scan of the whole
// bytes): the index summary they compare, and the generators of line soups and junk-byte inputs.
// Each test keeps its own line vocabulary (the windowed one adds what only a window edge can break).
import fc from 'fast-check';
import type { VfpIndex } from '../../../parsers/vfp/index-types.ts';
import type { OracleIndex } from './line-scan-oracle.ts';

const enc = new TextEncoder();

/** Everything two indexes must agree on; `ruleName` only where both sides have it (not the oracle). */
export function indexSummary(idx: VfpIndex | OracleIndex, opts: { ruleNames?: boolean } = {}) {
  return {
    lines: idx.lines,
    totals: idx.totals,
    generation: idx.generation,
    ports: idx.ports.map((p) => [p.name, p.line, p.lineStart, p.byteStart, p.byteEnd, p.layers, p.groups, p.rules, p.blocked, p.implicit, p.firstLayer]),
    layers: idx.layers.map((l) => [l.port, l.name, l.priority, l.line, l.byte]),
    ruleByte: [...idx.ruleByte],
    ruleLine: [...idx.ruleLine],
    rulePort: [...idx.rulePort],
    ...(opts.ruleNames ? { ruleName: [...(idx as VfpIndex).ruleName] } : {}),
    groupByte: [...idx.groupByte],
    groupLine: [...idx.groupLine],
    groupPort: [...idx.groupPort],
    portTable: idx.portTable,
  };
}

/** Lines of `words`, random strings and random bytes, joined with LF or CRLF, with or without a BOM, then `tails`. */
export function lineSoup(words: string[], tails: string[] = ['']): fc.Arbitrary<string> {
  const line = fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 20 }));
  return fc
    .tuple(fc.array(line, { maxLength: 60 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.constantFrom(...tails))
    .map(([ls, eol, bom, tail]) => (bom ? '\uFEFF' : '') + ls.join(eol) + tail);
}

/** Keyword lines and random byte runs (non-ASCII among them), concatenated. */
export function junkBytes(keywords: string[]): fc.Arbitrary<Uint8Array> {
  return fc.array(fc.oneof(fc.constantFrom(...keywords).map((s) => enc.encode(s)), fc.uint8Array({ maxLength: 12 })), { maxLength: 40 }).map((parts) => {
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      bytes.set(p, o);
      o += p.length;
    }
    return bytes;
  });
}
