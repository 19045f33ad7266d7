// outcomeOf does not walk again the backend the hash-picked walk already went to, when that walk is
// provably the one forced to it (analysis/reach/outcome.ts pickedIsForced). The outcome must be the
// same as with every backend walked afresh, on every load-balanced class of every generated platform,
// the demos and every fixture bundle, and fewer walks must be needed where Services have several backends.
import { describe, expect, it } from 'vitest';
import { defaultSources, reachFrom } from '../../../analysis/reach/index.ts';
import { outcomeOf } from '../../../analysis/reach/outcome.ts';
import { sharedRulesModel } from '../../../analysis/reach/shared-rules.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { allModels } from './models.ts';

let saved = 0;

describe('the backend the walk picked is not walked twice', () => {
  for (const n of allModels()) {
    it(`${n.name}: every load-balanced class has the outcome of every backend walked afresh`, async () => {
      const m = await n.load();
      const sm = sharedRulesModel(m);
      for (const s of defaultSources(m).slice(0, 3)) {
        const r = reachFrom(m, s.ip, { protos: ['tcp', 'udp'] });
        for (const c of r.classes) {
          if (!c.verdicts) continue;
          const f: Flow = { srcIp: s.ip, dstIp: c.example.dstIp, proto: c.example.proto as Flow['proto'], ...(c.example.dstPort !== undefined ? { dstPort: c.example.dstPort } : {}) };
          let a = 0;
          let b = 0;
          const fast = outcomeOf(sm, f, (x) => (a++, walkFlow(sm, x, { reply: true })));
          const slow = outcomeOf(sm, f, (x) => (b++, walkFlow(sm, x, { reply: true })), true);
          expect(fast.outcome, `${s.ip} → ${f.dstIp}:${f.dstPort}/${f.proto}`).toEqual(slow.outcome);
          saved += b - a;
        }
      }
    });
  }
  it('saved walks somewhere', () => expect(saved).toBeGreaterThan(10));
});
