// The number the scanner records per rule for its name (VfpIndex.ruleName, rule-name.ts): the checks
// and reach tell shared rules apart by it alone (analysis/checks/port-rules.ts, analysis/reach/
// shared-rules.ts), so two rules must get the same number exactly when the parser gives them the same
// name. The scanner hashes the name from the RULE line it already delimited (nameKeyOfLines); the
// reader used elsewhere (ruleNameKey) walks the line itself: both must give the same number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';
import { readRuleAt } from '../../../parsers/vfp/rule-at.ts';
import { nameKeyAt, nameKeyOfLines, ruleNameKey } from '../../../parsers/vfp/rule-name.ts';

const enc = new TextEncoder();

// Names with the characters real rule names hold (GUIDs, underscores, dots, dashes), of every length
// around the hash's four-byte step, so a byte left out of the key at any position would show.
const nameChar = fc.constantFrom(...'abcdefABCDEF0123456789_-.:/ ');
const name = fc.array(nameChar, { minLength: 1, maxLength: 23 }).map((cs) => cs.join('').trim()).filter((s) => s.length > 0 && !s.includes(':'));
const blanks = fc.constantFrom('', ' ', '  ', '\t', ' \t ');

/** One rule block: an id, maybe a Friendly name line, and a body line. */
const rule = fc.record({ id: fc.option(name, { nil: undefined }), friendly: fc.option(name, { nil: undefined }), pad: blanks, eol: fc.constantFrom('\n', '\r\n') });

function dump(rules: { id?: string; friendly?: string; pad: string; eol: string }[]): string {
  const out = ['Policy for port : P1', 'LAYER : L', '  GROUP : G'];
  for (const r of rules) {
    out.push(`${r.pad}RULE :${r.pad}${r.id ?? ''}${r.pad}`);
    if (r.friendly !== undefined) out.push(`${r.pad}  Friendly name : ${r.friendly}`);
    out.push('        Priority : 1');
  }
  return out.map((l, i) => l + (rules[i]?.eol ?? '\n')).join('');
}

describe('rule name keys', () => {
  it('two rules get the same key exactly when the parser gives them the same name; -1 when none', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 12 }), (rules) => {
        const bytes = enc.encode(dump(rules));
        const ix = scanVfpOutput(bytes, 'v').value;
        expect(ix.ruleName.length).toBe(rules.length);
        const names = rules.map((_, r) => readRuleAt(bytes, ix, r)?.name ?? '');
        for (let r = 0; r < rules.length; r++) {
          expect(ix.ruleName[r] === -1).toBe(names[r] === '');
          expect(ruleNameKey(bytes, ix, r)).toBe(ix.ruleName[r]);
          for (let q = 0; q < r; q++) if (names[q] !== '' && names[r] !== '') expect(ix.ruleName[q] === ix.ruleName[r]).toBe(names[q] === names[r]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a name changed in one byte, at any position, changes the key', () => {
    fc.assert(
      fc.property(name, fc.nat(), nameChar, (n, at, c) => {
        const k = at % n.length;
        const m = n.slice(0, k) + c + n.slice(k + 1);
        fc.pre(m.trim() === m && m !== n);
        const key = (s: string) => {
          const b = enc.encode(`RULE : ${s}\n`);
          return nameKeyAt(b, 0, b.length);
        };
        expect(key(m)).not.toBe(key(n));
      }),
      { numRuns: 2000 },
    );
  });

  it('the line end the scanner knows gives the key the reader finds by walking the line', () => {
    const bytesOf = fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.tuple(blanks, fc.string({ maxLength: 20 }), fc.string({ maxLength: 30 })).map(([p, a, b]) => enc.encode(`${p}RULE ${p}:${a}\n${p}Friendly name${p}:${b}\r\n`)));
    fc.assert(
      fc.property(bytesOf, fc.nat(), (b, cut) => {
        const end = b.length === 0 ? 0 : cut % (b.length + 1);
        let i = 0;
        while (i < end && (b[i] === 32 || b[i] === 9)) i++;
        // nameKeyAt's caller has verified RULE at i: only such inputs are asked.
        fc.pre(i + 4 <= end && b[i] === 82 && b[i + 1] === 85 && b[i + 2] === 76 && b[i + 3] === 69);
        let le = 0;
        while (le < end && b[le] !== 10) le++;
        expect(nameKeyOfLines(b, 0, le, end)).toBe(nameKeyAt(b, 0, end));
      }),
      { numRuns: 2000 },
    );
  });
});
