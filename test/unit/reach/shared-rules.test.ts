// Reach's walks read a rule printed the same on several ports once (analysis/reach/shared-rules.ts):
// a rule differing only in its hit counters is shared, one whose data differs is not, and a group is
// taken whole only when its fields and every rule are the same. That every port's policy equals its
// own bytes parsed afresh, everywhere, is shared-equality.test.ts.
import { describe, expect, it } from 'vitest';
import { sharedRulesModel, sharedRulesStats } from '../../../analysis/reach/shared-rules.ts';
import { build } from '../walk/helpers.ts';

/** The policy as JSON, without source lines and counters (which a shared rule takes from its first port). */
const shape = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'src' || k === 'line' || k === 'counters' ? undefined : v));

describe('rules shared between ports', () => {
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
