// Partial evidence joins into one node the way a full bundle does: the outputs a customer pastes one
// by one (their two pods' endpoints, then each pod's vfpctrl port dump, one of them quoted) give the
// same joins and the same packet walk as the whole CollectLogs bundle they came from.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { missingInputs } from '../../../analysis/missing.ts';
import { readFiles } from './read-sample.ts';
import { demoPastes } from '../../helpers/demo-pastes.ts';

describe('pasted outputs build up one node', async () => {
  const { full, a, b, portOf, pastes } = await demoPastes();
  const r = readFiles(pastes);

  it('each paste is recognised by its content', () => {
    expect(r.parsed.map((p) => p.kind)).toEqual(['endpoint', 'vfp', 'vfp']);
    expect(r.parsed[2].issues.some((i) => /quote marks removed/.test(i.message))).toBe(true);
  });

  it('the endpoints join their VFP ports as in the full bundle', () => {
    expect(r.model.joins.endpoints).toEqual([
      { endpointId: a.id, portKey: portOf(a.id), portVia: 'EndpointPortGuid' },
      { endpointId: b.id, portKey: portOf(b.id), portVia: 'EndpointPortGuid' },
    ]);
    expect(r.model.joins.unmatched).toEqual([]);
  });

  it('a walk between the two pods crosses the same rules as in the full bundle, citing the pastes', () => {
    const flow = { srcIp: a.ip!, dstIp: b.ip!, dstPort: 80, proto: 'tcp' as const };
    const whole = walkFlow(full, flow);
    const pasted = walkFlow(r.model, flow);
    expect(whole.verdict).toBe('delivered');
    // The pastes hold no ipconfig: whether the destination's vNIC is there to receive it cannot be told.
    expect(pasted.verdict).toBe('unknown');
    expect(pasted.reason).toMatch(/IP configuration \(ipconfig \/allcompartments \/all\) is not in the bundle/);
    const steps = (w: typeof whole) => w.hops.filter((h) => h.kind === 'vfp').map((h) => [h.layer, h.group, h.rule, h.action]);
    expect(steps(pasted)).toEqual(steps(whole));
    expect([...new Set(pasted.hops.filter((h) => h.kind === 'vfp').map((h) => h.evidence?.file))]).toEqual(['paste-2.txt', 'paste-3.txt']);
  });

  it('what the pastes lack is said once, with what it prevents', () => {
    expect(missingInputs(r.model).map((m) => m.what)).toEqual(['HNS networks', 'HNS load balancers', 'the IP configuration of the compartments', "the node's routing table"]);
    expect(missingInputs(full)).toEqual([]);
  });

  it('two pastes of the same object count it once; the second one adds only what is new', () => {
    const again = readFiles([...pastes, { name: 'paste-4.txt', text: `${JSON.stringify(a.raw, null, 2)}\n` }]);
    expect(again.counts.endpoints).toBe(2);
    expect(again.model.meta.sources.endpoints).toEqual(['paste-1.txt']);
    expect(again.model.files.find((f) => f.name === 'paste-4.txt')!.note).toMatch(/endpoints were taken from paste-1\.txt/);
    const c = full.endpoints!.find((e) => e.id !== a.id && e.id !== b.id)!;
    const more = readFiles([...pastes, { name: 'paste-5.txt', text: `${JSON.stringify([a.raw, c.raw], null, 2)}\n` }]);
    expect(more.model.endpoints!.map((e) => e.id)).toEqual([a.id, b.id, c.id]);
    expect(more.model.meta.sources.endpoints).toEqual(['paste-1.txt', 'paste-5.txt']);
  });
});
