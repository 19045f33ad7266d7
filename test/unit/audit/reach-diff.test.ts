// Audit of issue #25 ("Done when": `diff --reach` before/after one fault lists exactly the classes that
// fault changed), on the hand-written bundles of test/fixtures/foreign and foreign-faults (their READMEs
// say what each fault must change). Each test was a defect the audit found; it keeps it fixed.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { diffReach, outcomeOf, type ReachChange } from '../../../analysis/reach/index.ts';
import { ipToInt } from '../../../analysis/walk/ip.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Proto } from '../../../analysis/walk/types.ts';
import { repo } from '../../helpers/cli.ts';

const fixture = (p: string) => loadBundle(path.join(repo, 'test/fixtures', p));
const BASE = 'foreign/ws2019-flannel-l2bridge-2020';
const POD = '10.244.3.5'; // a pod of the 2019 flannel host-gw node (endpoint.txt)

const covers = (cs: ReachChange[], from: string, ip: string, proto: Proto, port?: number) =>
  cs.some((c) => c.from === from && c.proto === proto && ipToInt(c.dst[0])! <= ipToInt(ip)! && ipToInt(ip)! <= ipToInt(c.dst[1])! &&
    (c.ports === null || (port !== undefined && c.ports[0] <= port && port <= c.ports[1])));

describe('audit: diff --reach misses what a fault changes when verdict, deciding rule and reply verdict stay', () => {
  // DEFECT A1. foreign-faults/README.md §1: the ExceptionList entry 10.244.0.0/0 "exempts every
  // destination from SNAT, so internet and node-external traffic leaves with the pod IP and is dropped
  // by the underlay". trace shows it (before: SNAT to 192.168.30.21 by OUTBOUNDNAT_…; after: the
  // EXCEPTIONS_… rule, no SNAT, a no-return caveat), but diff.ts compares only { verdict, decidingRule,
  // reply verdict } and the deciding hop of both walks is "host routing": the class is not listed.
  it('lists pod → internet TCP as changed after the ExceptionList typo (SNAT lost)', async () => {
    const a = await fixture(BASE);
    const b = await fixture('foreign-faults/l2bridge-exceptionlist-typo');
    // The walks do differ (the premise): SNAT before, none after.
    const wa = walkFlow(a, { srcIp: POD, dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' });
    const wb = walkFlow(b, { srcIp: POD, dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' });
    expect(wa.final.srcIp).not.toBe(POD);
    expect(wb.final.srcIp).toBe(POD);
    const d = diffReach(a, b);
    expect(covers(d.changed, POD, '8.8.8.8', 'tcp', 443)).toBe(true);
    // For the right reason: the change shows the SNAT before and none after (not only the reply).
    const c = d.changed.find((x) => covers([x], POD, '8.8.8.8', 'tcp', 443))!;
    expect(c.before.rewrites?.some((r) => r.includes('192.168.30.21'))).toBe(true);
    expect(c.after.rewrites).toEqual([]);
  });

  // DEFECT A1 again. foreign-faults/README.md §2: the host-gw route 10.244.1.0/24 → 192.168.30.22 is
  // gone; the walk now leaves by the default gateway 192.168.30.1 (and trace names the
  // missing-remote-subnet-route error), yet `diff --reach` prints "reachability changes: 0".
  it('lists pod → remote pod subnet as changed when its host-gw route is gone (next hop changed)', async () => {
    const a = await fixture(BASE);
    const b = await fixture('foreign-faults/l2bridge-missing-remote-route');
    const wa = walkFlow(a, { srcIp: POD, dstIp: '10.244.1.10', dstPort: 80, proto: 'tcp' });
    const wb = walkFlow(b, { srcIp: POD, dstIp: '10.244.1.10', dstPort: 80, proto: 'tcp' });
    expect(wa.egress.nextHop).toBe('192.168.30.22');
    expect(wb.egress.nextHop).toBe('192.168.30.1');
    const d = diffReach(a, b);
    expect(covers(d.changed, POD, '10.244.1.10', 'tcp', 80)).toBe(true);
    const c = d.changed.find((x) => covers([x], POD, '10.244.1.10', 'tcp', 80))!;
    expect([c.before.nextHop, c.after.nextHop]).toEqual(['192.168.30.22', '192.168.30.1']);
  });
});

describe('audit: the reply verdict of a packet that leaves with a pod address to the internet', () => {
  // DEFECT A2. On the ExceptionList-typo node a pod's TCP to 8.8.8.8 leaves unSNATed (no-return caveat:
  // "it comes back only if the network routes pod addresses"; a 10.244/16 address is never routed back
  // from the internet, RFC 1918). reach calls its reply "delivered", while ICMP in exactly the same
  // situation is "dropped" (outcome.ts reads the reply walk, which ignores its own no-return caveat).
  // Consequence seen with `diff --reach` on this pair: every pod → internet ICMP class is listed as
  // "reply dropped → reply delivered" — the fault is shown as a repair.
  it('is not "delivered" for TCP when ICMP in the same situation is "dropped"', async () => {
    const b = await fixture('foreign-faults/l2bridge-exceptionlist-typo');
    const tcp = outcomeOf(b, { srcIp: POD, dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' }).outcome;
    expect(tcp.reply?.verdict).not.toBe('delivered');
  });

  // Narrowed by the fix: the internet (what only the default route covers) is what the fault breaks.
  // ICMP to 172.22.160.0/20 (the on-link network of the host's vEthernet (nat), whose hosts route back
  // through this host) does turn "reply dropped" (SNATed ICMP is not transposed back, K8SDOC) into
  // "reply delivered" once the pod's address is kept: that change is real, not a repair shown by mistake.
  it('does not turn from dropped into delivered for ICMP to the internet when the ExceptionList typo removes SNAT', async () => {
    const a = await fixture(BASE);
    const b = await fixture('foreign-faults/l2bridge-exceptionlist-typo');
    const d = diffReach(a, b);
    const internet = d.changed.filter((c) => c.proto === 'icmp' && ['8.8.8.8', '1.1.1.1', '52.1.2.3'].some((ip) => covers([c], c.from, ip, 'icmp')));
    expect(internet.length).toBeGreaterThan(0);
    const repaired = internet.filter((c) => c.before.reply === 'dropped' && c.after.reply === 'delivered');
    expect(repaired).toEqual([]);
    // One semantics for every protocol: the unSNATed reply from the internet is unknown for ICMP as for TCP.
    for (const c of internet) expect(c.after.reply).toBe('unknown');
  });
});

describe('audit: a class whose request is dropped', () => {
  // DEFECT A5 (minor). Issue #25 point 2: `reply: { verdict } | null`. A dropped request has no reply,
  // yet every dropped class and cell carries reply { verdict: "unknown" } (trace: "the request is
  // dropped: there is no reply to walk"). A script filtering "reply not delivered" counts them all.
  it('has reply null', async () => {
    const a = await fixture(BASE);
    // 10.96.0.1 is the kubernetes Service VIP; port 221 has no load balancer: dropped at the vSwitch.
    const o = outcomeOf(a, { srcIp: POD, dstIp: '10.96.0.1', dstPort: 221, proto: 'tcp' }).outcome;
    expect(o.verdict).toBe('dropped');
    expect(o.reply).toBeNull();
  });
});
