// hnsdiag.txt = `hnsdiag list all -d`. Two layouts by build (see FORMATS.md):
//  - 10.0.17763 and older: legacy columnar sections (Networks / Endpoints / Namespaces / LoadBalancers);
//  - newer: one block per object (`Endpoint         : <id>` then indented `Key : value` lines).
// With -d, each object's own HNS JSON follows its row/block as one compact line starting at column 0
// (v1 documents on the legacy build, v2/HCN documents on newer ones). Without -d (AKS's
// `<ts>-hnsdiag-list.txt`) only rows/blocks are printed.

import { Raw, type PsValue } from '../psjson.ts';
import type { GeneratedNode } from '../types.ts';
import { endpointV1, endpointV2, loadBalancerV2, namespaceV1, namespaceV2, networkV1, networkV2, policyListV1, v2Type } from './hns.ts';

function compact(v: PsValue): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(compact).join(',')}]`;
  if (typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${compact(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const lc = (s: string) => s.toLowerCase();

export function* hnsdiagTxt(node: GeneratedNode, detailed: boolean): Generator<string> {
  const netName = new Map(node.networks.map((n) => [n.id, n.name]));
  if (node.legacyBuild) {
    const j = (v: PsValue) => (detailed ? compact(v) + '\n' : '');
    let s = 'Networks:\nName             ID\n';
    for (const n of node.networks) s += `${n.name.padEnd(16)} ${lc(n.id)}\n` + j(networkV1(node, n));
    s += '\nEndpoints:\nName             ID                                   Virtual Network Name\n';
    for (const e of node.endpoints) s += `${e.name.padEnd(16)} ${lc(e.id)} ${e.networkName}\n` + j(endpointV1(node, e));
    s += '\nNamespaces:\nID                                   | Endpoint IDs\n';
    for (const ns of node.namespaces) s += `${lc(ns.id)} | ${ns.endpointIds.map(lc).join(' ')}\n` + j(namespaceV1(ns));
    s += '\nLoadBalancers:\nID                                   | Virtual IPs      | Direct IP IDs\n';
    yield s;
    for (const lb of node.loadBalancers) {
      yield `${lc(lb.id)} |  ${lb.vip.padEnd(16)}| ${lb.endpointIds.map(lc).join(' ')}\n` + j(policyListV1(node, lb));
    }
    yield '\n';
    return;
  }
  const kv = (k: string, v: string | number) => `    ${k.padEnd(16)} : ${v}\n`;
  const j = (v: PsValue) => (detailed ? compact(v) + '\n' : '');
  let s = '';
  for (const n of node.networks) {
    s += `${'Network'.padEnd(16)} : ${lc(n.id)}\n` + kv('Name', n.name) + kv('Type', v2Type(n)) + kv('Subnet', n.subnet) + j(networkV2(node, n)) + '\n';
  }
  for (const e of node.endpoints) {
    s +=
      `${'Endpoint'.padEnd(16)} : ${lc(e.id)}\n` +
      kv('Name', e.name) +
      kv('IP Address', e.ip) +
      kv('MAC Address', e.mac) +
      kv('Network', netName.get(e.networkId) ?? '') +
      kv('Remote', e.kind === 'remote' ? 'True' : 'False') +
      j(endpointV2(node, e)) +
      '\n';
  }
  for (const ns of node.namespaces) {
    s += `${'Namespace'.padEnd(16)} : ${lc(ns.id)}\n` + kv('Compartment ID', ns.compartmentId) + kv('Endpoint IDs', ns.endpointIds.map(lc).join(' ')) + j(namespaceV2(ns)) + '\n';
  }
  yield s;
  for (const lb of node.loadBalancers) {
    yield `${'LoadBalancer'.padEnd(16)} : ${lc(lb.id)}\n` +
      kv('Virtual IPs', lb.vip) +
      kv('Ports', `${lb.externalPort} -> ${lb.internalPort} (${lb.protocol === 6 ? 'TCP' : 'UDP'})`) +
      kv('Direct IP IDs', lb.endpointIds.map(lc).join(' ')) +
      j(loadBalancerV2(lb)) +
      '\n';
  }
}
