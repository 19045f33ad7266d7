// A DSR load balancer's local backend without its NAT_ / ALLOW_NAT_ rules (microsoft/SDN
// Kubernetes/windows/debug/networkmonitor/networkhealth.ps1, DSRLoadBalancerPolicyVfpRules) makes its
// Service port `vfp rule missing` in inspect --json and the Services table, with the check's lines; the
// healthy twin is realised. The node is the hand-written overlay bundle with walk scenario b12's edits
// (test/helpers/dsr-twin.ts, shared with test/unit/checks/dsr-rules.test.ts) and a kubectl snapshot naming the Service.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { decodeText } from '../../../parsers/text/decode.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';
import { servicesTable } from '../../../analysis/view-models/services-table.ts';
import { formatServicesText } from '../../../cli/format/services-text.ts';
import { DSR_BASE as BASE, dsrTwinEdits, editFile, type Edit } from '../../helpers/dsr-twin.ts';

/** The Service the load balancer C783314E… (10.98.201.5:9182/TCP → 10.244.2.12) realises, as kubectl would list it. */
const KUBECTL = JSON.stringify({
  apiVersion: 'v1',
  kind: 'List',
  items: [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'windows-exporter', namespace: 'monitoring' }, spec: { type: 'ClusterIP', clusterIP: '10.98.201.5', clusterIPs: ['10.98.201.5'], ports: [{ port: 9182, protocol: 'TCP', targetPort: 9182 }], selector: { app: 'windows-exporter' } } },
    { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'windows-exporter-abcde', namespace: 'monitoring', labels: { 'kubernetes.io/service-name': 'windows-exporter' } }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.2.12'], conditions: { ready: true }, nodeName: 'k8s-win22-02' }], ports: [{ port: 9182, protocol: 'TCP' }] },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'windows-exporter-x1', namespace: 'monitoring', labels: { app: 'windows-exporter' } }, spec: { nodeName: 'k8s-win22-02' }, status: { phase: 'Running', podIP: '10.244.2.12', podIPs: [{ ip: '10.244.2.12' }] } },
  ],
}, null, 2);

/**
 * The host vNIC (port BA60314C…, the one with SLB_LB_LAYER) given a HairPin_ rule for another VIP only:
 * the node shows it programs hairpin rules, and 10.98.201.5:9182's is missing (networkhealth.ps1's
 * "Host VFP port has missing rule HairPin_\w*_<VIP>_<port>_<port>_<proto>").
 */
const HOST_HAIRPIN_OTHER: Edit = {
  file: 'vfpOutput.txt',
  at: ['Policy for port : ', 'BA60314C-D4DB-4BF9-9FC8-A208697A1A02'],
  find: 'LAYER : SLB_LB_LAYER\n',
  replace: ['LAYER : SLB_HAIRPIN_LAYER', '    Friendly name : SLB_HAIRPIN_LAYER', '    Flags : 0x1 Default Allow', '    Priority : 15', '', '  GROUP : SLB_GROUP_HAIRPIN_IPv4_IN', '      Friendly name : SLB_GROUP_HAIRPIN_IPv4_IN', '      Priority : 100', '      Direction : IN', '      Type : IPv4', '        Conditions:', '            <none>', '      Match type : Priority-based match', '', '    RULE : HairPin_A1B2C_10.96.0.10_53_53_17', '        Friendly name : HairPin_A1B2C_10.96.0.10_53_53_17', '        Priority : 100', '        Flags : 1 terminating', '        Type : allow', '        Conditions:', '            Protocols : 17', '            Destination IP : 10.96.0.10', '            Destination ports : 53', '        FlagsEx : 0 ', '', 'LAYER : SLB_LB_LAYER', ''],
};

function twin(drop?: 'NAT_B1393' | 'ALLOW_NAT_B1393', extra: Edit[] = []) {
  const edits = dsrTwinEdits(drop, extra);
  const parsed = readdirSync(BASE).map((name) => {
    const bytes = new Uint8Array(readFileSync(path.join(BASE, name)));
    const body = editFile(edits, name, decodeText(bytes, name).text.replace(/\r\n/g, '\n'));
    return parseBundleFile(name, new TextEncoder().encode(body));
  });
  parsed.push(parseBundleFile('kubectl-get-all.json', new TextEncoder().encode(KUBECTL)));
  return assembleModel(parsed, { location: BASE, kind: 'folder', root: BASE });
}

const row = (m: ReturnType<typeof twin>) => inspectDocument(m).services.find((r) => r.where === '10.98.201.5:9182' && r.proto === 'TCP');

describe('DSR rules in the Service states', () => {
  it('the healthy twin: the Service port is realised', () => {
    expect(row(twin())?.state).toBe('realised');
  });

  for (const drop of ['NAT_B1393', 'ALLOW_NAT_B1393'] as const) {
    it(`without ${drop}_…: "vfp rule missing", naming the rule, with the port's line; the table says the same and is red`, () => {
      const m = twin(drop);
      const r = row(m)!;
      expect(r.state).toBe('vfp rule missing');
      expect(r.detail).toContain(`${drop.replace('B1393', '')}…_10.98.201.5_9182_6`);
      expect(r.detail).toMatch(/^DSR load balancer/);
      expect(r.evidence[0]).toMatchObject({ file: 'kubectl-get-all.json' });
      expect(r.evidence.some((e) => e.file === 'vfpOutput.txt')).toBe(true);
      const t = servicesTable(m).rows.find((x) => x.where === r.where)!;
      expect(t).toMatchObject({ state: 'vfp rule missing', tone: 'bad' });
    });
  }

  it('the host hairpin rule missing: still "realised" in inspect --json (its vocabulary kept), with warning "hairpin rule missing"; the table says "realised, hairpin rule missing", amber', () => {
    const m = twin(undefined, [HOST_HAIRPIN_OTHER]);
    const r = row(m)!;
    expect(r.state).toBe('realised');
    expect(r.warning).toBe('hairpin rule missing');
    expect(r.detail).toContain('host VFP port has missing rule HairPin_…_10.98.201.5_9182_9182_6');
    expect(r.evidence.some((e) => e.file === 'vfpOutput.txt')).toBe(true);
    const t = servicesTable(m).rows.find((x) => x.where === r.where)!;
    expect(t).toMatchObject({ state: 'realised', warning: 'hairpin rule missing', stateText: 'realised, hairpin rule missing', tone: 'warn' });
    // inspect's text lists it with the faults, in the same words.
    const txt = formatServicesText(inspectDocument(m), { verbose: false }, (t, i) => [' '.repeat(i) + t]).join('\n');
    expect(txt).toMatch(/monitoring\/windows-exporter\s+10\.98\.201\.5:9182\/TCP\s+realised, hairpin rule missing/);
    expect(txt).toContain('(1 with a warning)');
    // The healthy twin has no warning.
    expect(row(twin())?.warning).toBeUndefined();
  });
});
