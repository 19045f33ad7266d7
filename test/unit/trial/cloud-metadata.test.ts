// A pod → the cloud's instance metadata service (169.254.169.254) on AKS and EKS (issue #25: "AKS pod →
// 169.254.169.254 forwarded, delivered — unchecked"). Checked against the sources: Azure's IMDS answers
// only the VM's primary IP ("Metadata calls must be made from the primary IP address assigned to the
// primary network card of the VM"), and an Azure VM routes 169.254.169.254/32 via its subnet gateway
// (MicrosoftDocs azure-docs, instance-metadata-service.md, "Verifying your routing table"); EC2 Windows
// AMIs route it the same way, persistently (a real `route print` in a Wazuh AWS lab, see
// test/fixtures/foreign-eks-vpc-bridge/README.md). The pods' OutBoundNAT does not exempt it (AgentBaker,
// vpc-bridge: only the pod/VPC/Service ranges), so the request leaves SNATed to the node's primary
// address by that route and its answer comes back: "forwarded", reply delivered, is right. This test
// guards that verdict (it held before this trial; no behaviour changed).
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { load } from '../walk/helpers.ts';

const CASES: [string, string, string, string][] = [
  ['test/fixtures/foreign/aks-win-zip-2025', '10.224.0.41', '10.224.0.35', '10.224.0.1'],
  ['test/fixtures/foreign-aks-overlay', '10.244.2.41', '10.224.0.5', '10.224.0.1'],
  ['test/fixtures/foreign-eks-vpc-bridge', '192.168.36.220', '192.168.45.17', '192.168.32.1'],
];

describe('pod → 169.254.169.254 on AKS and EKS', () => {
  for (const [b, pod, node, gw] of CASES)
    it(`${b.split('/').pop()}: SNATed to the node's primary address, by the metadata route, answered`, () => {
      const w = walkFlow(load(b), { srcIp: pod, dstIp: '169.254.169.254', dstPort: 80, proto: 'tcp' }, { reply: true });
      expect(w.verdict).toBe('forwarded');
      expect(w.final.srcIp).toBe(node);
      expect(w.egress.nextHop).toBe(gw);
      expect(w.reply?.verdict).toBe('delivered');
      expect(w.reply?.final.dstIp).toBe(pod);
    });
});
