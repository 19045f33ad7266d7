// kubectl get pods,svc,endpointslices -A -o json
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parseKubectlJson } from '../../../parsers/k8s/index.ts';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/k8s/kubectl-pods-svc-eps.json');
const text = readFileSync(file, 'utf8');

describe('parseKubectlJson', () => {
  it('reads pods, services and endpoint slices with their lines', () => {
    const r = parseKubectlJson(text, 'k8s.json');
    expect(r.issues).toEqual([]);
    const s = r.value;
    expect(s.pods.map((p) => [p.namespace, p.name, p.ips, p.hostNetwork, p.src.line])).toEqual([
      ['default', 'win-webserver-6b8f4c9d7-x2x8q', ['10.244.19.32'], false, 4],
      ['kube-system', 'kube-proxy-windows-7tq2r', ['10.127.130.38'], true, 53],
    ]);
    expect(s.pods[0].containerIds).toEqual(['5b2919415cea791dd4ddff000f46e4ada5386e0c3147ae17ac5eebb82e008418']);
    expect(s.services.map((x) => [x.namespace, x.name, x.type, x.clusterIps, x.ports.map((p) => `${p.port}/${p.protocol}${p.nodePort ? `:${p.nodePort}` : ''}`)])).toEqual([
      ['default', 'win-webserver', 'NodePort', ['10.102.220.146'], ['80/TCP:31486']],
      ['kube-system', 'kube-dns', 'ClusterIP', ['10.96.0.10'], ['53/UDP', '53/TCP']],
    ]);
    expect(s.endpointSlices[0]).toMatchObject({ serviceName: 'win-webserver', addressType: 'IPv4' });
    expect(s.endpointSlices[0].endpoints.map((e) => [e.addresses[0], e.ready, e.targetPod?.name])).toEqual([
      ['10.244.19.32', true, 'win-webserver-6b8f4c9d7-x2x8q'],
      ['10.244.18.7', false, undefined],
    ]);
  });
  it('a warning before the JSON, CRLF, and two lists in one file', () => {
    const two = 'Warning: v1 Endpoints is deprecated\r\n' + text.replace(/\n/g, '\r\n') + '\r\n' + text;
    const r = parseKubectlJson(two, 'k.json');
    expect(r.value.pods).toHaveLength(4);
    expect(r.issues.every((i) => i.severity === 'info')).toBe(true);
  });
  it('a cut file keeps the complete items', () => {
    const cut = text.slice(0, text.indexOf('"kind": "Service"') + 40);
    const r = parseKubectlJson(cut, 'k.json');
    expect(r.value.pods).toHaveLength(2);
    expect(r.issues.some((i) => i.severity === 'error')).toBe(true);
  });
  it('never throws on mutations', () => {
    fc.assert(fc.property(fc.nat(text.length), fc.string(), (at, junk) => {
      parseKubectlJson(text.slice(0, at) + junk + text.slice(at), 'k.json');
    }), { numRuns: 200 });
  });
});
