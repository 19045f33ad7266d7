// Numbers in vfpctrl text read strictly (issue #28, point 8): `Priority : 1e309` was read as 1 (it
// reorders the rules), port and protocol `1e309`/`-0` tokens vanished or became 0, `/33` and `999.x`
// were dropped — all silently. Now each is refused with a warning at its line, and the rest is read.
import { describe, expect, it } from 'vitest';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import { fixture } from './fixture.ts';

const TWO = fixture('vfpOutput-two-ports.txt');

/** The fixture with line `n` (1-based) replaced. */
function withLine(n: number, text: string): string {
  const lines = TWO.split('\n');
  lines[n - 1] = lines[n - 1].replace(/:.*$/, `: ${text}`);
  return lines.join('\n');
}

const rules = (r: ReturnType<typeof parseVfpRuleText>) => r.value.flatMap((p) => p.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)));

describe('a rule priority that is no whole number', () => {
  for (const bad of ['1e309', '-0', '1.5', '99999999999999999999']) {
    it(`Priority : ${bad} is refused at its line, not read as another priority; the rest of the file is read`, () => {
      const base = parseVfpRuleText(TWO, 'vfpOutput.txt');
      const r = parseVfpRuleText(withLine(51, bad), 'vfpOutput.txt');
      const before = rules(base);
      const after = rules(r);
      expect(after.length).toBe(before.length);
      const i = before.findIndex((x) => x.priority === 1000);
      expect(after[i].priority).toBeUndefined();
      after.forEach((x, k) => k !== i && expect(x.priority).toBe(before[k].priority));
      expect(r.issues.filter((x) => x.line === 51 && x.severity === 'warning').map((x) => x.message).join()).toMatch(/Priority: .* not read/);
    });
  }
});

describe('condition values', () => {
  it('ports 1e309 and -0 are refused at the line and 80-90 is still read', () => {
    const r = parseVfpRuleText(withLine(56, '80-90, 1e309, -0'), 'f');
    const c = rules(r).flatMap((x) => x.conditions).find((x) => x.kind === 'dstPort')!;
    expect(c.ports).toEqual([{ lo: 80, hi: 90 }]);
    const msgs = r.issues.filter((x) => x.line === 56).map((x) => x.message);
    expect(msgs.some((m) => /1e309.*exponent/.test(m))).toBe(true);
    expect(msgs.some((m) => /-0.*sign/.test(m))).toBe(true);
  });

  it('protocol 1e309 is refused, 6 is kept', () => {
    const r = parseVfpRuleText(withLine(55, '6, 1e309'), 'f');
    expect(rules(r).flatMap((x) => x.conditions).find((x) => x.kind === 'protocols')!.protocols).toEqual([6]);
    expect(r.issues.some((x) => x.line === 55 && /protocol "1e309"/.test(x.message))).toBe(true);
  });

  it('/33 and 999.1.1.1 are refused at the line; 10.1.0.0/16 beside them is read', () => {
    const r = parseVfpRuleText(withLine(84, '10.244.0.0/33, 999.1.1.1, 10.1.0.0/16'), 'f');
    const c = rules(r).flatMap((x) => x.conditions).find((x) => x.kind === 'dstIp')!;
    expect(c.ipRanges).toEqual([{ lo: 167837696, hi: 167903231 }]);
    const msgs = r.issues.filter((x) => x.line === 84).map((x) => x.message).join('\n');
    expect(msgs).toMatch(/10\.244\.0\.0\/33: the prefix length 33 is out of range/);
    expect(msgs).toMatch(/999\.1\.1\.1 is not an IPv4 address/);
  });

  it('the fixture as written gives no number warning', () => {
    expect(parseVfpRuleText(TWO, 'f').issues.filter((x) => /not read|refused|out of range/.test(x.message))).toEqual([]);
  });
});
