// Ports and protocols of HNS load balancers and endpoint NAT policies read strictly (issue #28,
// point 8): `1e309` (Infinity in JSON) and `-0` were read as 0 — port 0, protocol 0 (any) — silently.
// Now the port mapping is left out with a warning at the object's line; the rest of the file is read.
import { describe, expect, it } from 'vitest';
import { parseHnsFile } from '../../../parsers/hns/index.ts';

// HCN v2 load balancer shape (microsoft/SDN Kubernetes/windows/debug collectlogs: Get-HnsPolicyList
// | ConvertTo-Json; PortMappings with Protocol/InternalPort/ExternalPort).
const lb = (mappings: string) => `[
  {
    "ID": "5b2e2b9a-7f7e-4d2c-9c5a-0a1b2c3d4e5f",
    "HostComputeEndpoints": ["8d7f3a40-1111-2222-3333-444455556666"],
    "FrontendVIPs": ["10.96.0.10"],
    "PortMappings": [${mappings}],
    "SchemaVersion": { "Major": 2, "Minor": 0 }
  },
  {
    "ID": "6c3f3cab-8a8f-4e3d-8d6b-1b2c3d4e5f60",
    "HostComputeEndpoints": ["8d7f3a40-1111-2222-3333-444455556666"],
    "FrontendVIPs": ["10.96.0.1"],
    "PortMappings": [{ "Protocol": 6, "InternalPort": 6443, "ExternalPort": 443 }],
    "SchemaVersion": { "Major": 2, "Minor": 0 }
  }
]`;

describe('HNS port mappings', () => {
  it('reads good mappings as before', () => {
    const r = parseHnsFile(lb('{ "Protocol": 17, "InternalPort": 53, "ExternalPort": 53 }'), 'lb.json');
    expect(r.value.loadBalancers[0].ports).toEqual([{ protocol: 17, internalPort: 53, externalPort: 53 }]);
    expect(r.issues.filter((i) => /numbers not read/.test(i.message))).toEqual([]);
  });

  for (const [what, bad] of [
    ['ExternalPort 1e309', '{ "Protocol": 17, "InternalPort": 53, "ExternalPort": 1e309 }'],
    ['ExternalPort "1e309"', '{ "Protocol": 17, "InternalPort": 53, "ExternalPort": "1e309" }'],
    ['Protocol -0', '{ "Protocol": -0, "InternalPort": 53, "ExternalPort": 53 }'],
    ['Protocol "-0"', '{ "Protocol": "-0", "InternalPort": 53, "ExternalPort": 53 }'],
    ['InternalPort 70000', '{ "Protocol": 6, "InternalPort": 70000, "ExternalPort": 80 }'],
  ]) {
    it(`${what}: the mapping is left out with a warning at the object's line, not read as 0`, () => {
      const r = parseHnsFile(lb(`${bad}, { "Protocol": 6, "InternalPort": 8080, "ExternalPort": 80 }`), 'lb.json');
      const [a, b] = r.value.loadBalancers;
      expect(a.ports).toEqual([{ protocol: 6, internalPort: 8080, externalPort: 80 }]);
      expect(b.ports).toEqual([{ protocol: 6, internalPort: 6443, externalPort: 443 }]);
      const w = r.issues.filter((i) => /numbers not read/.test(i.message));
      expect(w).toHaveLength(1);
      expect(w[0]).toMatchObject({ file: 'lb.json', line: 2, severity: 'warning' });
      expect(w[0].message).toMatch(/PortMappings\[0\]\.(Protocol|InternalPort|ExternalPort)/);
    });
  }
});
