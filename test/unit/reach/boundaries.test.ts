// The boundaries reach cuts at are what the walk reads (issue #25 point 1). A pod's adapter subnet is
// one: in its compartment a destination inside it is on-link, anything else goes via the gateway
// (engine.ts compartmentHop). Here the first pod's mask is narrowed to /28 in ip.txt, so its classes
// must split at the /28's edges and a packet on each side walks to its class's outcome.
import { describe, expect, it } from 'vitest';
import { reachFrom, classOf, outcomeOf } from '../../../analysis/reach/index.ts';
import { build } from '../walk/helpers.ts';

describe('reach boundaries', () => {
  it("a pod's adapter subnet splits its classes", () => {
    let first = true;
    const { model } = build({}, (path, text) =>
      path === 'ip.txt'
        ? text.replace(/(IPv4 Address[ .]*: 10\.244\.59\.3\(Preferred\) *\n\s*Subnet Mask[ .]*: )255\.255\.255\.0/, (m, head: string) => (first ? ((first = false), `${head}255.255.255.240`) : m))
        : text,
    );
    expect(first).toBe(false);
    const r = reachFrom(model, '10.244.59.3', { protos: ['icmp'] });
    // 10.244.59.15 is inside the /28, 10.244.59.16 outside: different outcomes, different classes.
    const inside = classOf(r, '10.244.59.15', 'icmp')!;
    const outside = classOf(r, '10.244.59.16', 'icmp')!;
    expect(inside).not.toBe(outside);
    expect(inside.dst[1]).toBe('10.244.59.15');
    for (const ip of ['10.244.59.14', '10.244.59.15', '10.244.59.16', '10.244.59.17']) expect(outcomeOf(model, { srcIp: '10.244.59.3', dstIp: ip, proto: 'icmp' }).outcome.key, ip).toBe(classOf(r, ip, 'icmp')!.key);
  });
});
