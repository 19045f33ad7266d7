// A load-balancing rule is known by its name on every pod port (port-rules.ts), but its name
// (LB_DSR_<hash>_<src>_<VIP>_<port>_<target>_<proto>) does not carry its DIPs: a port whose copy HNS
// left with old DIPs (partial programming) must still be seen by drift-lb-dips, whether the stale DIP
// is printed with as many bytes as the right one or not. Counters differ from port to port (get-rule-
// counter prints each port's hits inside the block) and must not split a rule.
import { describe, expect, it } from 'vitest';
import { buildWith } from './helpers.ts';
import { checkContext } from '../../../analysis/checks/context.ts';
import { lbVfpCheck } from '../../../analysis/checks/lb-vfp.ts';
import { PortRuleReader } from '../../../analysis/checks/port-rules.ts';
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import fc from 'fast-check';
import { RuleContents } from '../../../analysis/checks/rule-content.ts';

/** The pod port sections of a dump (text from one `Policy for port` line to the next) that carry LB_DSR rules. */
function dsrSections(text: string): { start: number; end: number; port: string }[] {
  const out: { start: number; end: number; port: string }[] = [];
  const re = /^Policy for port :\s*\r?\n?\s*([0-9A-Fa-f-]{36})/gm;
  const heads = [...text.matchAll(re)];
  for (const [i, h] of heads.entries()) {
    const start = h.index ?? 0;
    const end = heads[i + 1]?.index ?? text.length;
    if (/RULE\s*:\s*LB_DSR_/.test(text.slice(start, end))) out.push({ start, end, port: h[1]! });
  }
  return out;
}

/**
 * Edits, in the `which`-th pod port section with LB_DSR rules, the first LB_DSR rule that has a DIP:
 * `edit` gets the rule's block and returns the new block. Returns the port's name and the rule's name.
 */
function editRule(text: string, which: number, edit: (block: string) => string): { text: string; port: string; rule: string } {
  const s = dsrSections(text)[which];
  if (!s) throw new Error('no such section');
  const section = text.slice(s.start, s.end);
  const m = /( {4}RULE\s*:\s*(LB_DSR_\S+)\r?\n(?:(?! {4}RULE)[^\n]*\n)*?\s*\{ \d+\.\d+\.\d+\.\d+ : \d+ \}[^\n]*\n(?:(?! {4}RULE)[^\n]*\n)*?\s*Dropped unified flows[^\n]*\n)/.exec(section);
  if (!m) throw new Error('no LB_DSR rule with a DIP');
  const block = m[1]!;
  const edited = section.replace(block, edit(block));
  return { text: text.slice(0, s.start) + edited + text.slice(s.end), port: s.port, rule: m[2]! };
}

/** The first DIP of a block, as printed. */
const firstDip = (block: string) => /\{ (\d+\.\d+\.\d+\.\d+) : \d+ \}/.exec(block)![1]!;

function run(edit: (block: string) => string, which = 2) {
  let port = '';
  let rule = '';
  let dip = '';
  const { model } = buildWith({ pods: 5 }, (p, t) => {
    if (p !== 'vfpOutput.txt') return t;
    const r = editRule(t, which, (b) => {
      const out = edit(b);
      dip = firstDip(out);
      return out;
    });
    port = r.port;
    rule = r.rule;
    return r.text;
  });
  const ctx = checkContext(model);
  const findings = lbVfpCheck.run(ctx).filter((f) => f.id === 'drift-lb-dips');
  return { model, ctx, findings, port, rule, dip };
}

describe('drift-lb-dips: a stale copy of a load-balancing rule on one pod port', () => {
  // 10.x → 11.x: the same number of bytes, an address no endpoint has.
  const sameLength = (b: string) => b.replace(/\{ 10\.(\d+\.\d+\.\d+) : /, '{ 11.$1 : ');
  // 10.x → 172.x: one byte longer.
  const longer = (b: string) => b.replace(/\{ 10\.(\d+\.\d+\.\d+) : /, '{ 172.$1 : ');
  // One DIP more (another line, the count updated): the block has more lines.
  const extraDip = (b: string) =>
    b.replace(/Count of DIP Ranges: (\d+)/, (_, n: string) => `Count of DIP Ranges: ${Number(n) + 1}`).replace(/(\r?\n)(\s*)(\{ \d+\.\d+\.\d+\.\d+ : (\d+) \})/, '$1$2{ 11.1.2.3 : $4 }$1$2$3');

  it.each([
    ['a DIP changed, same length', sameLength, 2],
    ['a DIP changed, other length', longer, 2],
    ['a DIP added', extraDip, 2],
    ['a DIP changed on the last pod port', sameLength, -1],
    // The first port read holds the stale copy: the others agree with HNS, and the finding must still
    // say the ports disagree (it once said "these pods get no traffic from this node").
    ['a DIP changed on the first pod port', sameLength, 0],
  ] as const)('%s: names that port, as an error', (_, edit, which) => {
    const sections = (t: string) => dsrSections(t).length;
    let n = 0;
    buildWith({ pods: 5 }, (p, t) => {
      if (p === 'vfpOutput.txt') n = sections(t);
      return t;
    });
    expect(n).toBeGreaterThan(3);
    const { findings, port, dip } = run(edit, which < 0 ? n - 1 : which);
    expect(dip.startsWith('10.')).toBe(false);
    const onPort = findings.filter((f) => f.objects.includes(port));
    expect(onPort).toHaveLength(1);
    expect(onPort[0]!.severity).toBe('error');
    expect(onPort[0]!.objects).toContain(dip);
    expect(onPort[0]!.explanation).toContain(port);
    // It says the pod ports disagree, naming a port that carries the other copy.
    expect(onPort[0]!.explanation).toMatch(/Port [0-9A-F-]{36} sends to .*not all carry the same copy/);
  });

  it('the unedited node has no such finding, and counters alone do not split a rule', () => {
    // Another port's hit counts (more digits too): the same rule, shared, and no finding.
    const counters = (b: string) => b.replace(/Matched packets : \d+/, 'Matched packets : 123456789').replace(/Pending packets : \d+/, 'Pending packets : 7');
    const { findings, model, port, rule } = run(counters);
    expect(findings).toEqual([]);
    const reader = new PortRuleReader(model);
    const ports = (model.ports ?? []).filter((p: VfpPortRef) => !!p.policy);
    const edited = ports.find((p) => p.name.toLowerCase() === port.toLowerCase())!;
    const other = ports.find((p) => p !== edited && reader.of(p).some((r) => r.name === rule))!;
    const a = reader.of(edited).find((r) => r.name === rule);
    const b = reader.of(other).find((r) => r.name === rule);
    expect(a).toBeDefined();
    expect(a).toBe(b);
  });

  it('the rule reader gives the stale port its own copy, the others still share one', () => {
    const { model, port, rule, dip } = run(sameLength);
    const reader = new PortRuleReader(model);
    const withRule = (model.ports ?? []).filter((p) => p.policy && reader.of(p).some((r) => r.name === rule));
    expect(withRule.length).toBeGreaterThan(3);
    const copies = withRule.map((p) => ({ p, r: reader.of(p).find((r) => r.name === rule)! }));
    const stale = copies.find((c) => c.p.name.toLowerCase() === port.toLowerCase())!;
    expect(stale.r.dipRanges.map((d) => d.ip)).toContain(dip);
    const rest = copies.filter((c) => c !== stale);
    for (const c of rest) {
      expect(c.r).toBe(rest[0]!.r);
      expect(c.r).not.toBe(stale.r);
      expect(c.r.dipRanges.map((d) => d.ip)).not.toContain(dip);
    }
    // What each port gets is what a whole parse of that port says.
    for (const { p, r } of copies) {
      const full = model.vfp!.getPolicy(p.key)!.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)).find((x) => x.name === rule)!;
      expect(r.dipRanges).toEqual(full.dipRanges);
    }
  });
});

describe('RuleContents: a copy is the known one exactly when it lists the same DIPs', () => {
  // A block as vfpctrl /get-rule-counter prints it (test/fixtures/vfp), with its DIPs and counters.
  // `bare`: without the DIP count and FlagsEx lines, so nothing but the counters follows the DIPs.
  const block = (dips: string[], counters: number[], eol: string, bare = false) =>
    [
      '    RULE : LB_DSR_ABCDE_10.240.0.4_10.96.0.10_53_53_17',
      '        Friendly name : LB_DSR_ABCDE_10.240.0.4_10.96.0.10_53_53_17',
      '        Priority : 100',
      '        Type : lbnat',
      '        Rule Data:',
      ...(bare ? [] : [`            Count of DIP Ranges: ${dips.length}`]),
      '            DIP Range(s) :',
      ...dips.map((d) => `                { ${d} : 53 }`),
      ...(bare ? [] : ['        FlagsEx : 0 ']),
      ...['Matched packets', 'Dropped packets', 'Pending packets', 'Dropped unified flows'].map((k, i) => `        ${k} : ${counters[i] ?? 0}`),
      '',
    ].join(eol);
  const ip = fc.tuple(fc.integer({ min: 1, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `10.244.${a}.${b}`);
  it('whatever the counters, the EOL and where the block lies in the port', () => {
    fc.assert(
      fc.property(fc.array(ip, { minLength: 1, maxLength: 4 }), fc.array(ip, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(10 ** 7), { minLength: 4, maxLength: 4 }), fc.array(fc.nat(10 ** 7), { minLength: 4, maxLength: 4 }), fc.nat(7), fc.constantFrom('\n', '\r\n'), fc.constantFrom('alike', 'other', 'longer'), fc.boolean(), (a, other, ca, cb, pad, eol, kind, bare) => {
        // The same DIPs (only the counters differ), another list (often of the same length), or the
        // same list and one more DIP after it.
        const b = kind === 'alike' ? [...a] : kind === 'longer' ? [...a, ...other.slice(0, 1)] : other;
        const enc = new TextEncoder();
        const x = enc.encode(block(a, ca, eol, bare));
        const y = enc.encode(block(b, cb, eol, bare));
        const buf = new Uint8Array(pad + y.length);
        buf.set(y, pad);
        const c = new RuleContents();
        c.add(0, x, 0, x.length);
        expect(c.same(0, buf, new DataView(buf.buffer), pad, pad + y.length)).toBe(a.join() === b.join());
      }),
      { numRuns: 300 },
    );
  });
});
