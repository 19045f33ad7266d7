// Reach's walks read a rule printed the same on several ports once (analysis/reach/shared-rules.ts).
// The policy it gives a port must be the port's own policy — the same layers, groups and rules with
// the same content in the same order — on every generated platform, the demos and every fixture
// bundle; only lines and hit counters may be another port's. Rules that differ in anything but their
// counters are never shared.
import { describe, expect, it } from 'vitest';
import { sharedRulesModel, sharedRulesStats } from '../../../analysis/reach/shared-rules.ts';
import { build } from '../walk/helpers.ts';
import { allModels } from './models.ts';

/** The policy as JSON, without source lines and counters (which a shared rule takes from its first port). */
const shape = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'src' || k === 'line' || k === 'counters' ? undefined : v));

describe('rules shared between ports', () => {
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
});
