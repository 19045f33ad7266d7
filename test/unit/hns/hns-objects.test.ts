import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyHnsObject, parseEndpointTxt, parseHnsFile, parseNamespacesTxt, parseNetworkTxt, parsePolicyTxt } from '../../../parsers/hns/index.ts';

const HNS = join(__dirname, '../../fixtures/hns');
const fixture = (name: string): string => readFileSync(join(HNS, name), 'utf8');

describe('networks', () => {
  it('v1 l2bridge network (bare object after the Select table)', () => {
    const r = parseNetworkTxt(fixture('network-v1-l2bridge.txt'));
    expect(r.issues).toEqual([]);
    expect(r.value.kind).toBe('network');
    expect(r.value.table).toEqual([{ Name: 'cbr0', Type: 'L2Bridge', Id: 'e838e224-d184-4f51-9516-7a4bc4d2be37', AddressPrefix: '10.244.19.0/24' }]);
    const [n] = r.value.networks;
    expect(n).toMatchObject({
      id: 'e838e224-d184-4f51-9516-7a4bc4d2be37',
      name: 'cbr0',
      type: 'l2bridge',
      schema: 1,
      subnets: [{ prefix: '10.244.19.0/24', gateway: '10.244.19.1' }],
      managementIp: '10.127.130.38',
      networkAdapterName: 'Ethernet',
      dnsServers: ['10.96.0.10'],
      hostVnicPortGuid: '5b7d1e4a-3c2f-4a8b-9d6e-1f0a2b3c4d5e',
      externalPortGuid: '8f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
      remoteSubnetRoutes: [],
      state: 1,
      src: { file: 'network.txt', line: 7 },
    });
    expect(n.drMac).toBeUndefined();
    expect((n.raw as { ID: string }).ID).toBe('E838E224-D184-4F51-9516-7A4BC4D2BE37');
  });

  it('v2 overlay network: Ipams, remote subnet routes, PA, DR MAC, allocators under Health.Extra', () => {
    const r = parseNetworkTxt(fixture('network-v2-overlay.txt'));
    expect(r.issues).toEqual([]);
    expect(r.value.networks.map((n) => [n.name, n.type, n.schema, n.src.line])).toEqual([
      ['nat', 'nat', 2, 9],
      ['vxlan0', 'overlay', 2, 73],
    ]);
    const ov = r.value.networks[1];
    expect(ov.subnets).toEqual([{ prefix: '10.244.1.0/24', gateway: '10.244.1.1', vsid: 4096 }]);
    expect(ov.providerAddress).toBe('10.123.74.73');
    expect(ov.drMac).toBe('00-15-5D-01-02-03');
    expect(ov.networkAdapterName).toBe('Ethernet 2');
    expect(ov.remoteSubnetRoutes).toEqual([
      { destinationPrefix: '10.244.2.0/24', providerAddress: '10.123.74.74', isolationId: 4096, drMac: '0E-2A-0A-7B-4A-4A' },
      { destinationPrefix: '10.244.3.0/24', providerAddress: '10.123.74.75', isolationId: 4096, drMac: '0E-2A-0A-7B-4A-4B' },
    ]);
    expect(ov.dnsServers).toEqual(['10.96.0.10']);
    expect(ov.dnsSuffix).toBe('svc.cluster.local');
    expect(ov.hostVnicPortGuid).toBe('6d8f0a2c-4e6b-4d8f-a0c2-e4f6a8b0c2d4');
    expect(ov.externalPortGuid).toBe('b1c3d5e7-f9a1-4b3c-9d5e-7f9a1b3c5d7e');
    expect(ov.policies.map((p) => p.type)).toContain('HostRoute');
    expect(r.value.networks[0].hostRoutes).toEqual([{ destinationPrefix: '0.0.0.0/0', nextHop: '172.21.16.1', metric: 0 }]);
  });
});

describe('endpoints', () => {
  it('v1 local l2bridge endpoint and remote overlay endpoint with a PA policy', () => {
    const r = parseEndpointTxt(fixture('endpoint-v1.txt'));
    expect(r.issues).toEqual([]);
    const [local, remote] = r.value.endpoints;
    expect(local).toMatchObject({
      id: '768b4bd1-774c-47e8-904f-91c007a4b183',
      networkId: 'e838e224-d184-4f51-9516-7a4bc4d2be37',
      networkName: 'cbr0',
      type: 'l2bridge',
      ip: '10.244.19.29',
      prefixLength: 24,
      mac: '00-15-5D-19-3C-A4',
      gateway: '10.244.19.2',
      dnsServers: ['10.96.0.10'],
      isRemote: false,
      state: 3,
      namespaceId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      compartmentId: 3,
      portName: 'c9385412-bdef-49f5-88b0-c9d484ef6716',
      outboundNat: [{ exceptions: ['10.244.0.0/16', '10.96.0.0/12', '10.127.130.0/24'] }],
      routes: [
        { destinationPrefix: '10.96.0.0/12', needEncap: true },
        { destinationPrefix: '10.127.130.38/32', needEncap: true },
      ],
      schema: 1,
      src: { line: 9 },
    });
    expect(local.sharedContainers).toHaveLength(2);
    expect(remote).toMatchObject({
      id: 'fde52790-a198-4bd8-a389-2b58d970c69b',
      ip: '10.244.2.141',
      mac: '0E-2A-0A-F4-02-8D',
      isRemote: true,
      isLocal: false,
      providerAddress: '10.123.74.74',
      networkName: 'vxlan0',
      src: { line: 110 },
    });
  });

  it('v2 endpoints: IpConfigurations, Dns, gateway route, port from Health.Extra allocators, Flags', () => {
    const r = parseEndpointTxt(fixture('endpoint-v2.txt'));
    expect(r.issues).toEqual([]);
    const [local, remote, remote2] = r.value.endpoints;
    expect(local).toMatchObject({
      id: 'c9385412-bdef-49f5-88b0-c9d484ef6716',
      networkId: '7f1b3a5c-9d2e-4f60-8a1b-2c3d4e5f6a7b',
      namespaceId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      ip: '10.244.1.21',
      ipv6: 'fd00:10:244:1::15',
      prefixLength: 24,
      gateway: '10.244.1.1',
      dnsServers: ['10.96.0.10'],
      dnsSuffix: 'default.svc.cluster.local',
      isRemote: false,
      isLocal: true,
      portName: 'c9385412-bdef-49f5-88b0-c9d484ef6716',
      outboundNat: [{ exceptions: ['10.244.0.0/16', '10.96.0.0/12', '10.123.74.0/24'] }],
      routes: [{ destinationPrefix: '10.96.0.0/12', needEncap: true }],
      portMappings: [{ protocol: 6, internalPort: 8080, externalPort: 30080, flags: 2 }],
      schema: 2,
    });
    expect(remote).toMatchObject({ isRemote: true, providerAddress: '10.123.74.74', ip: '10.244.2.17', name: "remote_10.244.2.17 (o'brien)" });
    // Flags as an enum name, MAC without separators.
    expect(remote2).toMatchObject({ isRemote: true, providerAddress: '10.123.74.75', mac: '0E-2A-0A-F4-03-09' });
  });

  it('depth-truncated values (System.Object[], @{...}) are read as far as possible and reported', () => {
    const r = parseEndpointTxt(fixture('endpoint-depth-truncated.txt'));
    const [ep] = r.value.endpoints;
    expect(ep.routes).toEqual([{ destinationPrefix: '10.96.0.0/12', needEncap: true }]);
    expect(ep.outboundNat).toEqual([{ exceptions: [] }]);
    expect(ep.sharedContainers).toEqual([]);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ severity: 'warning', line: 1 });
    expect(r.issues[0].message).toMatch(/SharedContainers/);
  });

  it('seed endpoint excerpt (no outer braces, trailing comma)', () => {
    const r = parseEndpointTxt(fixture('seed-endpoint-excerpt.txt'));
    expect(r.value.endpoints).toHaveLength(1);
    expect(r.value.endpoints[0]).toMatchObject({
      id: '4d1d1b8c-c12d-461a-a608-11825b6a9189',
      ip: '10.244.19.31',
      mac: '00-15-5D-AA-BF-3D',
      outboundNat: [{ exceptions: ['10.96.0.0/12', '10.127.130.0/24', '10.244.0.0/16'] }],
      src: { line: 1 },
    });
    expect(r.issues.map((i) => [i.severity, i.line])).toEqual([
      ['warning', 1],
      ['warning', 27],
    ]);
  });

  it('seed policies whose ExceptionList holds ROUTE objects (and a repeated Type key)', () => {
    const r = parseEndpointTxt(fixture('seed-outboundnat-route-exceptions.txt'));
    expect(r.value.endpoints).toHaveLength(1);
    expect(r.value.endpoints[0].outboundNat).toEqual([{ exceptions: ['10.96.0.0/12', '10.127.130.0/24', '10.244.0.0/16'] }]);
    expect(r.issues.some((i) => /no ID/.test(i.message))).toBe(true);
  });

  it('seed Get-HnsEndpoint Format-List output: no JSON, endpoint taken from the list', () => {
    const r = parseHnsFile(fixture('seed-get-hnsendpoint-fl.txt'), 'Get-HNSEndpoint.txt');
    expect(r.value.endpoints).toHaveLength(1);
    expect(r.value.endpoints[0]).toMatchObject({
      fromTable: true,
      ip: '10.244.19.29',
      mac: '00-15-50-19-3C-A4',
      gateway: '10.244.19.2',
      networkName: 'cbr0',
      networkId: 'e838e224-d184-4f51-9516-7a4bc4d2be37',
      prefixLength: 24,
      src: { line: 2 },
    });
    expect(r.value.endpoints[0].sharedContainers).toHaveLength(2);
    // This damaged copy has no ID line (said), and the prompt on line 1 is not part of the object (said).
    expect(r.issues.map((i) => [i.severity, i.line])).toEqual([['warning', 2], ['info', 1]]);
    expect(r.issues[0].message).toMatch(/no ID/);
  });
});

describe('load balancers', () => {
  it('v1 policy lists: several ELB policies become ports of one load balancer; References → endpoint ids', () => {
    const r = parsePolicyTxt(fixture('policy-v1.txt'));
    expect(r.issues).toEqual([]);
    const [dns, web] = r.value.loadBalancers;
    expect(dns).toMatchObject({
      id: '9007bb8a-b10f-4c65-835e-98545989a840',
      schema: 1,
      vips: ['10.96.0.10'],
      ports: [
        { protocol: 17, internalPort: 53, externalPort: 53 },
        { protocol: 6, internalPort: 53, externalPort: 53 },
      ],
      dsr: false,
      endpointIds: ['7cd7cab6-59e2-42b5-acb4-aa6532f78c6d', 'cbb5953c-2ff3-4b47-ab0a-79b1137b549e'],
      isApplied: true,
      state: 1,
    });
    expect(web).toMatchObject({ dsr: true, sourceVip: '10.244.19.3', ports: [{ protocol: 6, internalPort: 8080, externalPort: 80, ilb: true }] });
  });

  it('v2 load balancers: FrontendVIPs, DSR/IPv6 flags as numbers or names, port-mapping flags', () => {
    const r = parsePolicyTxt(fixture('policy-v2.txt'));
    expect(r.issues).toEqual([]);
    const [api, nodePort, v6] = r.value.loadBalancers;
    expect(api).toMatchObject({
      id: '69ac3ce0-a679-4b4a-a04a-b4e3c761710a',
      schema: 2,
      vips: ['10.96.0.1'],
      sourceVip: '10.244.1.3',
      dsr: true,
      ipv6: false,
      ports: [{ protocol: 6, internalPort: 6443, externalPort: 443, ilb: true, distributionType: 0 }],
      endpointIds: ['c9385412-bdef-49f5-88b0-c9d484ef6716', '5ae0f1b2-c3d4-4e5f-a6b7-c8d9e0f1a2b3'],
    });
    expect(nodePort).toMatchObject({ vips: [], dsr: false, ports: [{ protocol: 17, externalPort: 30053, localRoutedVip: true, useMux: true }] });
    expect(nodePort.ports[0].ilb).toBeUndefined();
    expect(v6).toMatchObject({ dsr: true, ipv6: true, ports: [{ localRoutedVip: true, preserveDip: true, distributionType: 1 }] });
  });

  it('a single v2 load balancer printed as a bare object', () => {
    const r = parsePolicyTxt(fixture('policy-v2-single.txt'));
    expect(r.value.loadBalancers.map((l) => l.id)).toEqual(['69ac3ce0-a679-4b4a-a04a-b4e3c761710a']);
  });

  it('seed excerpts: ELB with References, kube-DNS UDP 53', () => {
    const a = parsePolicyTxt(fixture('seed-policy-elb-excerpt.txt'));
    expect(a.value.loadBalancers[0]).toMatchObject({ vips: ['10.102.220.146'], ports: [{ protocol: 6, internalPort: 80, externalPort: 80 }], isApplied: false });
    expect(a.value.loadBalancers[0].endpointIds).toEqual(['4d1d1b8c-c12d-461a-a608-11825b6a9189', 'fde5279-a198-4bd8-a389-2b58d970c69b']);
    const b = parsePolicyTxt(fixture('seed-kubedns-lb.txt'));
    expect(b.value.loadBalancers[0]).toMatchObject({ id: '9007bb8a-b10f-4c65-835e-98545989a840', vips: ['10.96.0.10'], ports: [{ protocol: 17, internalPort: 53, externalPort: 53 }] });
  });
});

describe('namespaces', () => {
  it('v2 namespaces after a Format-List table', () => {
    const r = parseNamespacesTxt(fixture('namespaces-v2.txt'));
    expect(r.issues).toEqual([]);
    expect(r.value.table).toHaveLength(2);
    expect(r.value.namespaces).toEqual([
      expect.objectContaining({
        id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        compartmentId: 5,
        compartmentGuid: '7e8f9a0b-1c2d-4e3f-a4b5-c6d7e8f9a0b1',
        type: 'HostDefault',
        isDefault: true,
        endpointIds: ['c9385412-bdef-49f5-88b0-c9d484ef6716'],
        containerIds: ['4a625a2b10a33b0dea96fe8743fb8e13504481ee9f481d179f8e75b8c98611d2'],
        src: { file: 'namespaces.txt', line: 18 },
      }),
      expect.objectContaining({ id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', compartmentId: 1, type: 'Host', endpointIds: [] }),
    ]);
  });

  it('v1 namespace with ResourceList', () => {
    const r = parseNamespacesTxt(fixture('namespaces-v1.txt'));
    expect(r.value.namespaces[0]).toMatchObject({ compartmentId: 3, isDefault: false, endpointIds: ['768b4bd1-774c-47e8-904f-91c007a4b183'] });
  });
});

describe('classification and mixed files', () => {
  it('classifies by shape', () => {
    expect(classifyHnsObject({ Id: 'x', FrontendVIPs: [] })).toBe('loadbalancer');
    expect(classifyHnsObject({ ID: 'x', Policies: [{ Type: 'ELB', VIPs: [] }], References: [] })).toBe('loadbalancer');
    expect(classifyHnsObject({ ID: 'x', NamespaceId: 2 })).toBe('namespace');
    expect(classifyHnsObject({ ID: 'x', Resources: [{ Type: 'Endpoint', Data: { ID: 'y' } }] })).toBe('namespace');
    expect(classifyHnsObject({ ID: 'x', IpConfigurations: [] })).toBe('endpoint');
    expect(classifyHnsObject({ id: 'x', ipaddress: '10.0.0.1' })).toBe('endpoint');
    expect(classifyHnsObject({ ID: 'x', Subnets: [] })).toBe('network');
    expect(classifyHnsObject({ ID: 'x', Type: 'L2Bridge' })).toBe('network');
    expect(classifyHnsObject({ PortPool: 1 })).toBe('unknown');
    expect(classifyHnsObject('System.Object[]')).toBe('unknown');
    expect(classifyHnsObject(null)).toBe('unknown');
  });

  it('a file with several kinds (and lower/upper case keys) is split by shape', () => {
    const text = JSON.stringify([
      { id: 'AAAAAAAA-0000-0000-0000-000000000001', ipAddress: '10.1.0.5', macaddress: '00155d000001', isRemoteEndpoint: 'True' },
      { Id: 'AAAAAAAA-0000-0000-0000-000000000002', Subnets: [{ AddressPrefix: '10.1.0.0/24' }], Type: 'L2Bridge', Name: 'x' },
      { Id: 'AAAAAAAA-0000-0000-0000-000000000003', FrontendVIPs: ['10.96.0.1'], PortMappings: [{ Protocol: 'TCP', InternalPort: 1, ExternalPort: 2 }], Flags: '1' },
      { PortPoolAllocations: 3 },
    ]);
    const r = parseHnsFile(text, 'Get-HNSEndpoint-2.txt');
    expect(r.value.endpoints[0]).toMatchObject({ id: 'aaaaaaaa-0000-0000-0000-000000000001', ip: '10.1.0.5', mac: '00-15-5D-00-00-01', isRemote: true });
    expect(r.value.networks[0].type).toBe('l2bridge');
    expect(r.value.loadBalancers[0]).toMatchObject({ dsr: true, ports: [{ protocol: 6 }] });
    expect(r.value.unknown).toEqual([{ value: { PortPoolAllocations: 3 }, line: 1 }]);
  });
});
