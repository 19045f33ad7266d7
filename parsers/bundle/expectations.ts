// What a recognised file gave, counted, and a warning where it gave nothing its kind should give:
// a policy list with no load balancer, a network without subnets, a route print without routes.
// Nothing read is left without a word (the paste panel and `inspect` show these per file).
import type { ParseIssue } from '../types.ts';
import type { ParsedFile } from './parsed-file.ts';

/** Objects a file yielded, by what they are ("networks", "rules", "log lines" …); zero counts omitted. */
export function fileYield(p: ParsedFile): Record<string, number> {
  const c = p.content;
  const out: Record<string, number> = {};
  const put = (k: string, n: number): void => {
    if (n > 0) out[k] = n;
  };
  switch (c.type) {
    case 'hns': {
      const v = c.value;
      put('networks', v.networks.length);
      put('endpoints', v.endpoints.length);
      put('remote endpoints', v.endpoints.filter((e) => e.isRemote).length);
      put('load balancers', v.loadBalancers.length);
      put('namespaces', v.namespaces.length);
      break;
    }
    case 'hnsdiag': {
      const v = c.value;
      put('networks', v.networks.length);
      put('endpoints', v.endpoints.length);
      put('remote endpoints', v.endpoints.filter((e) => e.remoteInferred).length);
      put('load balancers', v.loadBalancers.length);
      put('namespaces', v.namespaces.length);
      put('adapters', v.adapters.length);
      break;
    }
    case 'ip': {
      const v = c.value;
      put('compartments', v.compartments.filter((x) => !x.implicit || x.adapters.length > 0 || x.hostName !== undefined).length);
      put('adapters', v.compartments.reduce((n, x) => n + x.adapters.length, 0));
      put('IP addresses (Get-NetIPAddress)', v.netIpAddresses.length);
      put('interfaces (Get-NetIPInterface)', v.netIpInterfaces.length);
      break;
    }
    case 'routes': {
      const v = c.value;
      put('IPv4 active routes', v.ipv4Active.length);
      put('IPv4 persistent routes', v.ipv4Persistent.length);
      put('IPv6 routes', v.ipv6Active.length + v.ipv6Persistent.length);
      put('interfaces', v.interfaces.length);
      put('routes (Get-NetRoute)', v.netRoutes.length);
      break;
    }
    case 'ports':
      put('vSwitch ports', c.value.length);
      break;
    case 'vfp': {
      const t = c.index.totals;
      put('VFP ports', Math.max(c.index.ports.length, c.index.portTable.length));
      put('layers', t.layers);
      put('groups', t.groups);
      put('rules', t.rules);
      break;
    }
    case 'k8s':
      put('pods', c.value.pods.length);
      put('services', c.value.services.length);
      put('endpoint slices', c.value.endpointSlices.length);
      put('nodes', c.value.nodes.length);
      put('network policies', c.value.networkPolicies.length);
      break;
    case 'cni-config':
      put('plugins', c.value.plugins.length);
      break;
    case 'cni-bin':
      put('plugin executables', c.value.files.length);
      break;
    case 'log': {
      const ev = c.value.events;
      put('log lines', ev.length);
      put('errors', ev.filter((e) => e.level === 'error' || e.level === 'fatal').length);
      put('warnings', ev.filter((e) => e.level === 'warning').length);
      put('HNS error codes', ev.reduce((n, e) => n + (e.hnsErrors?.length ?? 0), 0));
      break;
    }
    default:
      break;
  }
  return out;
}

const first = (p: ParsedFile): number => {
  const t = p.text ?? (p.content.type === 'text' ? p.content.text : '');
  const i = t.split(/\r\n|\n|\r/, 400).findIndex((l) => l.trim() !== '');
  return i < 0 ? 0 : i + 1;
};

/** Warnings for a recognised file that yielded nothing its kind should, each with its line. */
export function expectationIssues(p: ParsedFile): ParseIssue[] {
  const out: ParseIssue[] = [];
  const warn = (line: number, message: string): void => {
    out.push({ file: p.name, line, severity: 'warning', message });
  };
  const c = p.content;
  const said = (re: RegExp): boolean => p.issues.some((i) => i.severity !== 'info' && re.test(i.message));
  const y = fileYield(p);
  if (c.type === 'hns') {
    const v = c.value;
    const total = v.networks.length + v.endpoints.length + v.loadBalancers.length + v.namespaces.length;
    const empty = (p.text ?? '').trim() === '';
    const noElbOnly = v.unknown.length > 0 && p.issues.some((i) => /^a policy list without an ELB policy/.test(i.message));
    if (total === 0 && !empty && !noElbOnly && !said(/no HNS objects found|printed nothing/)) warn(first(p), `recognised as ${p.recognition?.format ?? p.kind}, but no HNS object could be read from it`);
    if (p.kind === 'policy' && v.loadBalancers.length === 0 && !empty && total > 0) warn(first(p), 'a load balancer / policy list file without any load balancer in it');
    for (const n of v.networks) {
      if (n.subnets.length > 0) continue;
      warn(n.src.line, `network ${n.name || n.id || '(no name)'} has no subnets in this output${n.partial ? ' (the text ends before them)' : ''}`);
    }
    for (const lb of v.loadBalancers) {
      if (lb.vips.length === 0 && lb.ports.length === 0 && lb.endpointIds.length === 0) warn(lb.src.line, `load balancer ${lb.id || '(no ID)'} has no VIP, port or backend in this output${lb.partial ? ' (the text ends before them)' : ''}`);
    }
  } else if (c.type === 'ip') {
    if (Object.keys(y).length === 0 && !said(/no ipconfig, Get-NetIPAddress or Get-NetIPInterface output found/)) warn(first(p), 'recognised as IP configuration, but no compartment, adapter or address could be read from it');
  } else if (c.type === 'ports') {
    if (c.value.length === 0) warn(first(p), 'recognised as a vSwitch port listing, but no port could be read from it');
  } else if (c.type === 'vfp') {
    if (c.index.totals.rules === 0 && c.index.ports.length === 0 && c.index.portTable.length === 0) warn(1, 'recognised as a vfpctrl dump, but no port, layer, group or rule could be read from it');
  } else if (c.type === 'log') {
    if (c.value.events.length === 0 && !said(/no line is in a log format/)) warn(first(p), 'recognised as a log, but no log line could be read from it');
  } else if (c.type === 'cni-config') {
    if (c.value.plugins.length === 0 && !c.value.invalid && !said(/CNI|plugin/)) warn(1, 'recognised as a CNI configuration, but it names no plugin');
  } else if (c.type === 'k8s') {
    if (Object.keys(y).length === 0 && Object.keys(c.value.other).length === 0 && !said(/no Kubernetes objects found/)) warn(first(p), 'recognised as kubectl JSON, but it holds no pod, service or endpoint slice');
  }
  return out;
}
