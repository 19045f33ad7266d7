// Internet traffic and its answer on every platform the generator makes and on the hand-written
// bundles: real nodes reach the internet, from the host and from pods (OutboundNAT), and get the
// answers. A walk that drops them, or ends a reply at the node address instead of the pod, is wrong.
// Sources: the troubleshooting guide ("Troubleshooting Kubernetes Networking on Windows: Part 1",
// D. Schott, Microsoft, 2019) prints the ExternalPort's EXTERNAL_L2_REWRITE_LAYER without a Flags line
// and with rules for container MACs only; kubernetes/kubernetes#79359 and vfpctrl's `/?` (dynnat flag
// 256 Source NAT, every dynnat binding keeps a flow) for the un-SNAT of the answer.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { PLATFORMS } from '../../../tools/gen/index.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { load } from './helpers.ts';

const INTERNET = '93.184.216.34';

/** Pods of this node: endpoints whose vNIC is in a compartment of their own. */
function pods(m: NodeModel): string[] {
  const ctx = walkContext(m);
  return (m.endpoints ?? []).filter((e) => !e.isRemote && e.ip && (ctx.adapterOf.get(e.id)?.compartment.id ?? 0) > 1).map((e) => e.ip!);
}

function expectInternetRoundTrip(m: NodeModel, src: string): void {
  const r = walkFlow(m, { srcIp: src, dstIp: INTERNET, dstPort: 443, proto: 'tcp' }, { reply: true });
  expect(r.verdict, `${src} → internet: ${r.reason}`).toBe('forwarded');
  const back = r.reply!;
  expect(back.verdict, `reply to ${src}: ${back.reason}`).toBe('delivered');
  // The answer reaches the socket that sent the request: its own address and port, not the SNAT address.
  const sentFrom = r.hops.find((h) => h.kind === 'host-route' && h.rewrite?.srcIp)?.rewrite?.srcIp ?? src;
  expect(back.final.dstIp).toBe(sentFrom);
  expect(back.final.dstPort).toBe(r.hops[0].after?.srcPort);
  expect(back.final.srcIp).toBe(INTERNET);
  expect(back.caveats?.some((c) => c.kind === 'reply-mismatch')).toBe(false);
}

describe('internet traffic and its answer', () => {
  for (const p of PLATFORMS) {
    it(`${p}: the host and every pod reach the internet and get the answer`, () => {
      const { model } = buildPlatform(p);
      const node = walkContext(model).nodeIp!;
      expectInternetRoundTrip(model, node);
      const ps = pods(model);
      expect(ps.length).toBeGreaterThan(0);
      for (const ip of ps) expectInternetRoundTrip(model, ip);
    });
  }
  const foreign = path.resolve('test/fixtures/foreign');
  for (const d of readdirSync(foreign, { withFileTypes: true }).filter((x) => x.isDirectory())) {
    it(`foreign/${d.name}: every pod reaches the internet and gets the answer`, () => {
      const m = load(path.join(foreign, d.name));
      for (const ip of pods(m)) expectInternetRoundTrip(m, ip);
    });
  }
});

describe('a layer that only rewrites headers', () => {
  it('passes what none of its rules rewrite (the host through EXTERNAL_L2_REWRITE_LAYER), marked inferred', () => {
    const { model } = buildPlatform('flannel-host-gw');
    const r = walkFlow(model, { srcIp: walkContext(model).nodeIp!, dstIp: INTERNET, dstPort: 443, proto: 'tcp' });
    const pass = r.hops.find((h) => h.layer === 'EXTERNAL_L2_REWRITE_LAYER');
    expect(pass?.kind).toBe('layer-default');
    expect(pass?.inferred).toBe(true);
    expect(pass?.note).toMatch(/only rewrite headers/);
  });
});
