// Issue #25 point 7: reachFrom splits a cell only where a rule of a layer its walks crossed tells its
// packets apart. Its classes must be exactly those of the exhaustive walk of every atomic cell of every
// rule (reachFromCells, the oracle) — the same address and port intervals with the same outcomes — on
// every generated platform, the demos and every fixture bundle; and a rule that only packets reaching
// one pod meet must not split the cells that never reach it.
import { describe, expect, it } from 'vitest';
import { reachFrom, reachFromCells, classOf, defaultSources, outcomeOf, type ReachClass } from '../../../analysis/reach/index.ts';
import { build, localPods } from '../walk/helpers.ts';
import { assertPartition } from './assert-partition.ts';
import { allModels, reachOnce } from './models.ts';

const sig = (cs: ReachClass[]) => cs.map((c) => `${c.proto} ${c.dst.join('-')} ${c.ports?.join('-') ?? ''} ${c.verdict} ${c.key}`);

describe('classes split on the rules on their path equal the exhaustive cells', () => {
  for (const n of allModels()) {
    it(`${n.name}: the same classes and outcomes as every atomic cell walked`, async () => {
      const m = await n.load();
      const src = defaultSources(m)[0];
      if (!src) return;
      const fast = reachOnce(n, m, src.ip);
      const oracle = reachFromCells(m, src.ip);
      expect(sig(fast.classes)).toEqual(sig(oracle.classes));
      expect(fast.cells).toBeLessThanOrEqual(oracle.cells);
    }, 240_000);
  }
});

describe('a rule splits only the cells whose walks meet it', () => {
  // Every pod port's IN ACL group gets a block of TCP 5000-5099 (a network policy's shape: no address):
  // packets to a pod on those ports are dropped there, and nothing else crosses that group.
  const BLOCK = `    RULE : BLOCK_TCP_5000_TEST\n        Priority : 100\n        Flags : 1 terminating \n        Type : block\n        Conditions:\n            Protocols : 6\n            Destination ports : 5000-5099\n        Flow TTL: 0\n        FlagsEx : 0 \n`;
  let injected = 0;
  const { node, model } = build({}, (path, text) =>
    path !== 'vfpOutput.txt' ? text : text.replace(/( {2}GROUP : ACL_ENDPOINT_GROUP_IPV4_IN\n(?: {6,}.*\n|\n)*?)( {4}RULE :)/g, (_m, grp: string, rule: string) => (injected++, `${grp}${BLOCK}${rule}`)),
  );
  const pods = localPods(node);
  const src = pods[0].ip;
  const other = pods[1].ip;

  it('the pods behind the rule are split at its ports, the rest of the space is not', () => {
    expect(injected).toBeGreaterThan(1);
    const r = reachFrom(model, src);
    assertPartition(r);
    const blocked = classOf(r, other, 'tcp', 5050)!;
    expect(blocked.verdict).toBe('dropped');
    expect(blocked.decidingRule).toBe('BLOCK_TCP_5000_TEST');
    expect(blocked.ports).toEqual([5000, 5099]);
    expect(classOf(r, other, 'tcp', 4999)!.verdict).not.toBe('dropped');
    // An address outside the cluster never crosses a pod's IN group: its TCP class is not cut at 5000.
    const outside = classOf(r, '93.184.216.34', 'tcp', 5050)!;
    expect(outside.ports![0] < 5000 || outside.ports![1] > 5099).toBe(true);
    for (const [ip, port] of [[other, 5000], [other, 5099], [other, 5100], ['93.184.216.34', 5050]] as const)
      expect(outcomeOf(model, { srcIp: src, dstIp: ip, dstPort: port, proto: 'tcp' }).outcome.key, `${ip}:${port}`).toBe(classOf(r, ip, 'tcp', port)!.key);
  });

  it('walks fewer cells than the exhaustive partition, with the same classes', () => {
    const fast = reachFrom(model, src, { protos: ['tcp'] });
    const oracle = reachFromCells(model, src, { protos: ['tcp'] });
    expect(sig(fast.classes)).toEqual(sig(oracle.classes));
    // The exhaustive cells cut every address's TCP ports at 5000 and 5100 (the rule names no address).
    expect(fast.cells).toBeLessThan(oracle.cells);
    expect(fast.walks).toBeLessThan(oracle.walks);
  });
});
