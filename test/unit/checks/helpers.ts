// Generated bundles with text edits and extra side-input files, assembled in memory.
import { bundleFiles, buildNode, type GeneratedNode, type NodeSpec } from '../../../tools/gen/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { parseText } from '../../support/parsed-files.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { BASE } from '../walk/helpers.ts';

const enc = new TextEncoder();

/** The model's parsed parts are shared and frozen (test/support/parsed-files.ts): change a node through `edit` (its text), not by writing to the model. */
export function buildWith(over: Partial<NodeSpec>, edit?: (path: string, text: string, node: GeneratedNode) => string, extra: (node: GeneratedNode) => Record<string, string> = () => ({})): { node: GeneratedNode; model: NodeModel } {
  const node = buildNode({ ...BASE, ...over });
  const parsed = bundleFiles(node, { encoding: 'utf8', eol: 'crlf', extras: false }).map((f) => {
    const text = [...f.content()].join('');
    // Parsed once per worker for a given text (test/support/parsed-files.ts).
    return parseText(f.path, edit ? edit(f.path, text, node) : text);
  });
  for (const [name, text] of Object.entries(extra(node))) parsed.push(parseBundleFile(name, enc.encode(text)));
  return { node, model: assembleModel(parsed, { location: `mem:${node.hostName}`, kind: 'folder', root: '' }) };
}

/** A `kubectl get pods,svc,endpointslices -A -o json` of the generated cluster. */
export function kubectlFor(node: GeneratedNode, opts: { extraService?: boolean } = {}): string {
  const items: unknown[] = [];
  const local = node.endpoints.filter((e) => e.kind === 'pod');
  local.forEach((e, i) => items.push({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `web-${i}`, namespace: 'default', uid: `00000000-0000-0000-0000-00000000000${i}` },
    spec: { nodeName: node.hostName, containers: [{ name: 'c' }] },
    status: { phase: 'Running', hostIP: node.nodeIp, podIP: e.ip, podIPs: [{ ip: e.ip }], containerStatuses: [{ containerID: `containerd://${e.containerId}` }] },
  }));
  const bySvc = new Map<string, typeof node.loadBalancers>();
  for (const lb of node.loadBalancers) if (!lb.isNodePort) bySvc.set(lb.serviceName, [...(bySvc.get(lb.serviceName) ?? []), lb]);
  const svcs = [...bySvc.entries()].map(([name, lbs]) => ({ name, vip: lbs[0].vip, ports: lbs.map((l) => ({ port: l.externalPort, protocol: l.protocol === 17 ? 'UDP' : 'TCP' })), dips: [...new Set(lbs.flatMap((l) => l.dips))] }));
  if (opts.extraService) svcs.push({ name: 'default/orders', vip: '10.100.1.2', ports: [{ port: 8443, protocol: 'TCP' }], dips: [local[0].ip] });
  for (const s of svcs) {
    const [ns, name] = s.name.split('/');
    items.push({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { type: 'ClusterIP', clusterIP: s.vip, clusterIPs: [s.vip], ports: s.ports.map((p) => ({ ...p, targetPort: p.port })) } });
    items.push({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${name}-abcde`, namespace: ns, labels: { 'kubernetes.io/service-name': name } }, addressType: 'IPv4', endpoints: s.dips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })), ports: s.ports });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4);
}
