// Reach on real outputs from public issues (../shared/corpus, each with a `.src`): each file read under
// the name a bundle gives it, alone or with its neighbours, and the partition from one of its
// addresses checked like the fixtures': no gap or overlap, and every example and random packet walks
// to its class's outcome — reach agrees with trace on every packet tried.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { reachFrom, outcomeOf, defaultSources } from '../../../analysis/reach/index.ts';
import { intToIp, ipToInt } from '../../../analysis/walk/ip.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { reachVerdict } from '../../../analysis/reach/outcome.ts';
import { CORPUS, corpusBytes } from '../../helpers/corpus.ts';
import { assertPartition } from './assert-partition.ts';

const CASES: { name: string; files: [string, string][]; from?: string }[] = [
  { name: 'a VFP list-rule dump (SdnDiagnostics#629)', files: [['vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt', 'vfpOutput.txt']], from: '10.0.0.4' },
  { name: 'an ACL layer dump (rke2windows)', files: [['vfp-list-rule-acl-layer__mrolmedo-rke2windows-README.txt', 'vfpOutput.txt']], from: '10.42.1.5' },
  { name: 'an HNS LB and a VFP rule fragment (k/k#115344)', files: [['hns-loadbalancer-json-and-vfp-rule-fragment__kubernetes-kubernetes-pr-115344.txt', 'vfpOutput.txt']], from: '10.244.1.5' },
  { name: 'an AKS endpoint (AKS#1367) with a node route print (acs-engine#1713)', files: [['hns-endpoint-json__Azure-AKS-issue-1367.txt', 'endpoint.txt'], ['route-print__Azure-acs-engine-issue-1713.txt', 'routes.txt']] },
  { name: 'a Calico endpoint (calico#4682)', files: [['hns-endpoint-json__projectcalico-calico-issue-4682.txt', 'endpoint.txt']] },
];

describe.skipIf(!CORPUS)('reach on real outputs agrees with trace', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const m = assembleModel(c.files.map(([src, name]) => parseBundleFile(name, corpusBytes(src))), { location: 'corpus', kind: 'folder', root: '' });
      const from = c.from ?? defaultSources(m)[0]?.ip ?? '10.0.0.4';
      const r = reachFrom(m, from, { maxWalks: 20_000 });
      expect(r.budget.hit).toBe(false);
      assertPartition(r);
      for (const k of r.classes) {
        const flow = { srcIp: from, dstIp: k.example.dstIp, dstPort: k.example.dstPort, proto: k.proto };
        expect(outcomeOf(m, flow).outcome.key).toBe(k.key);
        // trace's verdict is the class's (or one of its backends', when they differ).
        const t = reachVerdict(walkFlow(m, flow));
        expect(k.verdicts ? k.verdicts.map((v) => v.verdict) : [k.verdict]).toContain(t);
      }
      fc.assert(
        fc.property(fc.nat(r.classes.length - 1), fc.nat(), fc.nat(), (i, a, b) => {
          const k = r.classes[i];
          const lo = ipToInt(k.dst[0])!;
          const ip = intToIp(lo + (a % (ipToInt(k.dst[1])! - lo + 1)));
          const port = k.ports ? k.ports[0] + (b % (k.ports[1] - k.ports[0] + 1)) : undefined;
          expect(outcomeOf(m, { srcIp: from, dstIp: ip, dstPort: port, proto: k.proto }).outcome.key).toBe(k.key);
        }),
        { numRuns: 30, seed: 9 },
      );
    }, 60_000);
  }
});
