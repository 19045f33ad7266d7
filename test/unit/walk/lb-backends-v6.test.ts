// A load balancer's other backends are listed as the tool prints any address with a port: IPv6 in
// brackets (`[fd00:10:244:5::a]:8080`, RFC 3986 §3.2.2). Unbracketed, `fd00:10:244:5::a:8080` is itself
// a valid IPv6 address, so a reader (and reach's outcome, which reads the list) took it for another host.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { formatWalk } from '../../../analysis/walk/format.ts';
import { parseAddress } from '../../../parsers/net/address.ts';
import { DUALSTACK } from '../reach/models-v6.ts';

describe('other backends of an IPv6 load balancer', () => {
  it('are bracketed with their port, and each parses back to a backend address and port', async () => {
    const m = await loadBundle(DUALSTACK);
    const w = walkFlow(m, { srcIp: 'fd00:10:244:5::a', dstIp: 'fd00:96::5', dstPort: 80, proto: 'tcp' });
    const lb = w.hops.find((h) => h.alternatives?.length);
    expect(lb, 'a hop listing other backends').toBeDefined();
    for (const alt of lb!.alternatives!) {
      expect(alt).toMatch(/^\[[0-9a-f:]+\]:\d+$/);
      const a = parseAddress(alt);
      expect(a?.port, alt).toBe(lb!.rewrite?.dstPort);
    }
    expect(formatWalk(w)).toMatch(/other backends: \[/);
  });
});
