// The load-balancing check (analysis/checks/lb-vfp.ts) works out what a pod port has and lacks once per
// group of ports carrying the same load-balancing rules. Property: on nodes whose pod ports each lose a
// random subset of their LB rules (some ports alike, not next to each other), every "no load-balancing
// rule" finding names exactly the ports that a whole parse of each port (ctx.policy, no sharing, no
// grouping) says lack that VIP:port.
import { describe, expect, it } from 'vitest';
import { buildWith } from './helpers.ts';
import { checkContext, rulesOf } from '../../../analysis/checks/context.ts';
import { lbRuleKeys, lbVfpCheck } from '../../../analysis/checks/lb-vfp.ts';
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import { prng as rng } from '../../fuzz/mutate.ts';


/** Drops, in the k-th port section that has LB rules, the LB rules `drop(k)` names. */
function dropPerPort(text: string, drop: (k: number, names: string[]) => Set<string>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const out: string[] = [];
  let section: string[] = [];
  let k = 0;
  const flush = () => {
    const names = section.flatMap((l) => /^\s*RULE\s*:\s*(LB_DSR_\S+)\s*$/.exec(l)?.[1] ?? []);
    if (!names.length) {
      out.push(...section);
    } else {
      const gone = drop(k++, names);
      for (let i = 0; i < section.length; i++) {
        const name = /^\s*RULE\s*:\s*(\S+)\s*$/.exec(section[i] ?? '')?.[1];
        if (name && gone.has(name)) {
          while (i < section.length && (section[i] ?? '').trim() !== '') i++;
          continue;
        }
        out.push(section[i] ?? '');
      }
    }
    section = [];
  };
  for (const l of lines) {
    if (/^Policy for port/.test(l)) flush();
    section.push(l);
  }
  flush();
  return out.join(eol);
}

describe('lb-vfp: ports grouped by their load-balancing rules', () => {
  it.each([1, 2, 3, 4, 5, 6])('names exactly the ports a whole parse says lack each VIP:port (seed %i)', (seed) => {
    const rand = rng(seed);
    // Three drop patterns shared by the ports at random (so alike ports are rarely next to each other).
    const patterns: Set<string>[] = [];
    const { model } = buildWith({ pods: 7 }, (p, t) =>
      p === 'vfpOutput.txt'
        ? dropPerPort(t, (k, names) => {
            if (!patterns.length) for (let i = 0; i < 3; i++) patterns.push(new Set(names.filter(() => rand() < (i === 0 ? 0 : 0.3))));
            return patterns[Math.floor(rand() * patterns.length)] ?? new Set();
          })
        : t,
    );
    const ctx = checkContext(model);
    const found = new Map<string, Set<string>>();
    for (const f of lbVfpCheck.run(ctx)) {
      if (f.id !== 'lb-rule-missing') continue;
      found.set(f.objects[0] ?? '', new Set(f.objects.slice(2)));
    }
    // The reference: each pod port parsed whole, its rules' keys, against the load balancers HNS has
    // on a service VIP (a VIP that is a node address lives on the host's ports, not the pods').
    const ports = ctx.localPods.map((e) => ctx.portOf(e)).filter((x): x is VfpPortRef => !!x?.policy);
    const keysOn = ports.map((port) => new Set(rulesOf(ctx.policy(port)!).flatMap((x) => lbRuleKeys(x.rule).keys)));
    const expected = new Set((model.loadBalancers ?? []).filter((lb) => !lb.ipv6).flatMap((lb) => lb.vips.filter((v) => !ctx.tc.hostIps.has(v)).flatMap((v) => lb.ports.filter((x) => x.protocol === 6 || x.protocol === 17).map((x) => `${v}|${x.externalPort}|${x.protocol}`))));
    const want = new Map<string, Set<string>>();
    for (const k of expected) {
      const lacking = ports.filter((_, i) => !keysOn[i]!.has(k)).map((p) => p.name);
      const [vip, port, proto] = k.split('|');
      if (lacking.length) want.set(`${vip}:${port}/${proto === '17' ? 'UDP' : 'TCP'}`, new Set(lacking));
    }
    expect(want.size).toBeGreaterThan(0);
    expect(patterns.some((p) => p.size > 0)).toBe(true);
    expect(new Map([...found].sort())).toEqual(new Map([...want].sort()));
  });
});
