// Reach's walks read a rule printed the same on several ports once (analysis/reach/shared-rules.ts).
// The policy it gives a port must be the port's own policy — the same layers, groups and rules with
// the same content in the same order — on every generated platform, the demos and every fixture
// bundle; only lines and hit counters may be another port's. Rules that differ in anything but their
// counters are never shared.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sameRuleBytes, sharedRulesModel, sharedRulesStats } from '../../../analysis/reach/shared-rules.ts';
import { build } from '../walk/helpers.ts';
import { allModels } from './models.ts';

/** The policy as JSON, without source lines and counters (which a shared rule takes from its first port). */
const shape = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'src' || k === 'line' || k === 'counters' ? undefined : v));

/** What "the same rule" means, said plainly: line for line equal, or both a counter line of the same key. */
function sameByLines(a: string, b: string): boolean {
  const al = a.split('\n');
  const bl = b.split('\n');
  const counter = (l: string) => {
    const c = l.indexOf(':');
    return c >= 0 && ['matchedpackets', 'droppedpackets', 'pendingpackets', 'droppedunifiedflows', 'droppedflows'].includes(l.slice(0, c).replace(/[ \t\r]/g, '').toLowerCase()) ? c : -1;
  };
  return al.length === bl.length && al.every((x, i) => {
    const y = bl[i]!;
    if (x === y) return true;
    const c = counter(x);
    return c >= 0 && c === counter(y) && x.slice(0, c) === y.slice(0, c);
  });
}

describe('rules shared between ports', () => {
  it('compares two rule blocks as their lines say (counters aside), on random blocks', () => {
    const line = fc.oneof(
      fc.constantFrom('    RULE : LB_1', '        Priority : 100', '        Type : lbnat', '', '\r', '            Destination IP : 10.96.0.1'),
      fc.tuple(fc.constantFrom('        Matched packets', '        Dropped packets', '        Pending packets', '        Dropped unified flows', '        Matched  packets', '        Flow TTL'), fc.constantFrom(' : ', ': ', ':'), fc.nat({ max: 20 })).map(([k, c, n]) => `${k}${c}${n}`),
    );
    const block = fc.array(line, { maxLength: 8 }).map((ls) => ls.join('\n'));
    fc.assert(
      fc.property(block, fc.array(fc.tuple(fc.nat({ max: 7 }), line), { maxLength: 3 }), fc.boolean(), fc.nat({ max: 3 }), (a, edits, extra, at) => {
        const bl = a.split('\n');
        for (const [i, l] of edits) if (i < bl.length) bl[i] = l;
        if (extra) bl.push('        Matched packets : 1');
        const b = bl.join('\n');
        const enc = new TextEncoder();
        // Where the port's copy starts modulo 4 decides how its words line up with the known copy's.
        expect(sameRuleBytes(enc.encode(a), enc.encode(b), at)).toBe(sameByLines(a, b));
        expect(sameRuleBytes(enc.encode(b), enc.encode(a), at)).toBe(sameByLines(b, a));
      }),
      { numRuns: 2000 },
    );
  });

  for (const n of allModels()) {
    it(`${n.name}: every port's policy is its own`, async () => {
      const m = await n.load();
      const s = sharedRulesModel(m);
      for (const p of m.ports ?? []) {
        if (!p.policy) continue;
        expect(shape(s.vfp!.getPolicy(p.key)), p.name).toBe(shape(m.vfp!.getPolicy(p.key)));
      }
    });
  }

  it('shares a rule whose block differs only in its hit counters, and not one whose data differs', () => {
    let k = 0;
    // Every LB_DSR rule's Matched packets counter gets a value of its own; the first pod port's first
    // LB_DSR rule also gets another priority.
    const { model } = build({}, (path, text) =>
      path !== 'vfpOutput.txt'
        ? text
        : text
            .replace(/(RULE : LB_DSR_\S+\n(?: {8,}.*\n|\n)*? {8}Matched packets : )\d+/g, (_m, head: string) => `${head}${++k * 7}`)
            .replace(/(RULE : LB_DSR_\S+\n {8}Priority : )(\d+)/, (_m, head: string, prio: string) => `${head}${Number(prio) + 1}`),
    );
    expect(k).toBeGreaterThan(10);
    const s = sharedRulesModel(model);
    for (const p of model.ports ?? []) if (p.policy) expect(shape(s.vfp!.getPolicy(p.key)), p.name).toBe(shape(model.vfp!.getPolicy(p.key)));
    const stats = sharedRulesStats(model);
    expect(stats.shared).toBeGreaterThan(k / 2);
  });

  it('takes a group whole from another port only when its fields and every rule are the same', () => {
    // The second pod port's first LB_DSR rule load-balances to another backend: that port's group is its
    // own; the other pod ports print the same group (counters aside) and get one object, whose rule index
    // the walk builds once.
    let seen = 0;
    let first: string | undefined;
    const { model } = build({}, (path, text) =>
      path !== 'vfpOutput.txt'
        ? text
        : text.replace(/(RULE : (LB_DSR_\S+)\n(?: {8,}.*\n|\n)*? {16}\{ )(\d+\.\d+\.\d+\.)(\d+)/g, (m, head: string, name: string, net: string, last: string) => {
            // The first rule's second copy: the second port that prints LB_DSR rules.
            first ??= name;
            return name === first && ++seen === 2 ? `${head}${net}${(Number(last) + 1) % 250}` : m;
          }),
    );
    const s = sharedRulesModel(model);
    const lbGroups = (model.ports ?? [])
      .filter((p) => p.policy)
      .map((p) => ({ p, g: s.vfp!.getPolicy(p.key)!.layers.flatMap((l) => l.groups).find((g) => g.rules.some((r) => r.name.startsWith('LB_DSR_'))) }))
      .filter((x) => x.g);
    expect(seen).toBeGreaterThan(2);
    expect(lbGroups.length).toBeGreaterThan(2);
    const own = model.vfp!.getPolicy(lbGroups[1]!.p.key)!.layers.flatMap((l) => l.groups).find((g) => g.rules.some((r) => r.name.startsWith('LB_DSR_')))!;
    // The edited port's group says what its own text says (another backend), and is nobody else's.
    expect(shape(lbGroups[1]!.g)).toBe(shape(own));
    expect(lbGroups.filter((x) => x.g === lbGroups[1]!.g)).toHaveLength(1);
    // The others print the same group: one object.
    const rest = lbGroups.filter((_, i) => i !== 1);
    expect(new Set(rest.map((x) => x.g)).size).toBe(1);
    expect(sharedRulesStats(model).sharedGroups).toBeGreaterThanOrEqual(rest.length - 1);
  });
});
