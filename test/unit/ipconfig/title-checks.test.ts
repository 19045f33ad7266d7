// A compartment title's two patterns are tried only on lines that can match them
// (parsers/ipconfig/layout.ts: endsInNumberOrMarker, mayHoldLocalTitle): each check must never be
// false where its pattern matches, or a title would be missed. Checked on every line of every
// ipconfig sample, on lines built from the characters titles are made of, and on random text; and
// the samples read as before through the whole reader.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endsInNumberOrMarker, mayHoldLocalTitle } from '../../../parsers/ipconfig/layout.ts';
import { parseIpTxt } from '../../../parsers/ipconfig/index.ts';
import { sampleTexts } from '../../helpers/sample-texts.ts';

// The patterns as compartmentTitle applies them (kept here verbatim: the checks are about them).
const ENGLISH_TITLE = /^\s*(.*?\D)?(\d{1,9})\s*(?:\(([^)]*)\))?\s*$/;
const LOCAL_TITLE = /^\s*(\D{1,80}?)\s*(\d{1,9})\s*\D{1,80}?\s*(?:[(（]([^)）]{0,40})[)）])?\s*$/;

const samples = sampleTexts(['ipconfig'], ['ipconfig'], 'ip.txt');
const sampleLines = samples.flatMap((t) => t.split(/\r?\n/)).filter((l) => l.length <= 256 && !l.includes(':'));

function holds(line: string): void {
  if (ENGLISH_TITLE.test(line)) expect(endsInNumberOrMarker(line), JSON.stringify(line)).toBe(true);
  if (LOCAL_TITLE.test(line)) expect(mayHoldLocalTitle(line), JSON.stringify(line)).toBe(true);
}

describe('the checks before the compartment title patterns', () => {
  it('are never false where the patterns match: every line of every sample', () => {
    expect(sampleLines.length).toBeGreaterThan(100);
    for (const l of sampleLines) holds(l);
    // and they do decide: a Get-NetIPInterface row is turned away before the pattern
    expect(mayHoldLocalTitle('   12 vEthernet (abc1234...  IPv4   1500   25 Disabled Connected ActiveStore')).toBe(false);
    expect(mayHoldLocalTitle('隔离舱 2 的网络信息')).toBe(true);
  });

  it('are never false where the patterns match: lines of title characters', () => {
    const ch = fc.constantFrom(' ', '\t', '\u3000', '\u00a0', '1', '2', '0', '9', '(', ')', '（', '）', 'a', 'C', '隔', '的', '.', '-', '%', '[', 'ACTIVE');
    fc.assert(fc.property(fc.array(ch, { maxLength: 40 }), (cs) => holds(cs.join(''))), { numRuns: 20000 });
  });

  it('are never false where the patterns match: random text and long digit runs', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (s) => holds(s)), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('1', ' ', 'x', '(', ')'), maxLength: 30 }), (s) => holds(s)), { numRuns: 5000 });
  });

  it('still find the titles: English with its marker, and a localised one beside its banner', () => {
    const en = parseIpTxt('Network Information for Compartment 3 (ACTIVE)\n==========\n\nWindows IP Configuration\n', 'ip.txt').value;
    expect(en.compartments.map((c) => [c.id, c.active])).toEqual([[3, true]]);
    const zh = parseIpTxt('==============================================================================\n隔离舱 2 的网络信息\n==============================================================================\n', 'ip.txt').value;
    expect(zh.compartments.map((c) => c.id)).toEqual([2]);
  });
});
