// The checks that recognise VFP rule kinds (lb-vfp, drift, network-policy-acl-addresses) ask
// analysis/walk/semantics.ts what a rule does, never its printed words: a type printed otherwise is
// recognised by every check once semantics.ts knows it (issue #24, "add a VFP rule type" touches only
// the files its recipe names). Each case runs the checks on a bundle, then on the same bundle with the
// type respelled and the spelling added to semantics.ts's table only, and wants the same findings.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../analysis/checks/index.ts';
import type { Finding } from '../../../analysis/findings/types.ts';
import { RULE_TYPES, typeInfo } from '../../../analysis/walk/semantics.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { K8sPod } from '../../../parsers/k8s/index.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { buildPlatform } from '../platforms/helpers.ts';

const enc = new TextEncoder();
const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

/** A hand-written bundle folder, its vfpOutput.txt edited, parsed as `hnsight inspect` parses it. */
function foreign(dir: string, editVfp: (t: string) => string): NodeModel {
  const root = path.join(fixtures, dir);
  const parsed = readdirSync(root).filter((n) => n.endsWith('.txt')).map((n) => {
    const t = readFileSync(path.join(root, n), 'utf8');
    return parseBundleFile(n, enc.encode(n === 'vfpOutput.txt' ? editVfp(t) : t));
  });
  return assembleModel(parsed, { location: `mem:${dir}`, kind: 'folder', root: '' });
}

/** Every rule printed `Type : <from>` printed `Type : <to>` instead (a group's `Type : IPv4` is untouched). */
const respell = (from: string, to: string) => (t: string) => t.replace(new RegExp(`^(\\s*Type\\s*:\\s*)${from}[ \\t]*$`, 'gim'), `$1${to}`);

/** Removes every RULE block whose friendly name matches `re` (a block ends at its blank line). */
function dropRules(text: string, re: RegExp): string {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (/^\s*RULE\s*:/.test(l) && re.test(lines[i + 1] ?? '')) {
      while (i < lines.length && (lines[i] ?? '').trim() !== '') i++;
      continue;
    }
    out.push(l);
  }
  return out.join('\n');
}

/** Runs `fn` while semantics.ts's table knows `spelling` as `of` does (the table is put back after). */
function withAlias<T>(spelling: string, of: string, fn: () => T): T {
  const key = spelling.toLowerCase().replace(/[\s_-]+/g, '');
  const info = RULE_TYPES[of];
  if (!info) throw new Error(`semantics.ts does not know ${of}`);
  expect(RULE_TYPES[key], 'the alias must be new to semantics.ts').toBeUndefined();
  RULE_TYPES[key] = info;
  try {
    expect(typeInfo(spelling)?.action).toBe(info.action);
    return fn();
  } finally {
    delete RULE_TYPES[key];
  }
}

const shape = (fs: Finding[], prefix: string) => fs.filter((f) => f.id.startsWith(prefix)).map((f) => ({ id: f.id, severity: f.severity, title: f.title, objects: f.objects }));

describe('a rule type printed otherwise is recognised by every check once semantics.ts knows it', () => {
  it('lb-vfp: an lbnat rule printed "Load Balance" (a LB rule missing on one port is still found)', () => {
    const dir = 'foreign-faults/l2bridge-vfp-drift-exception-and-lb-rule';
    const before = shape(runChecks(foreign(dir, (t) => t)), 'lb-');
    expect(before.map((f) => f.id)).toContain('lb-rule-missing');
    const after = withAlias('Load Balance', 'lbnat', () => shape(runChecks(foreign(dir, respell('lbnat', 'Load Balance'))), 'lb-'));
    expect(after).toEqual(before);
  });

  it('drift: a routeencap rule printed "VXLAN Tunnel" and named otherwise is still compared with the RemoteSubnetRoutes', () => {
    // Named otherwise, so that only what the rule does (encap, with explicit destinations) can say it is one.
    // The bundle's fault (a rule missing on some ports), and one rule sent to another provider address.
    const dir = 'foreign-faults/overlay-remotesubnetroute-missing';
    for (const wrongPa of [false, true]) {
      const edit = (t: string) => {
        const renamed = t.split('REMOTESUBNETROUTE_ENCAP_').join('VXLAN_ROUTE_');
        return wrongPa ? renamed.replace('{ IP address=10.0.1.4,', '{ IP address=10.0.1.99,') : renamed;
      };
      const before = shape(runChecks(foreign(dir, edit)), 'drift-remote');
      expect(before.length).toBeGreaterThan(wrongPa ? 1 : 0);
      if (wrongPa) expect(before.map((f) => f.title).join('\n')).toContain('10.0.1.99');
      const after = withAlias('VXLAN Tunnel', 'routeencap', () => shape(runChecks(foreign(dir, (t) => respell('routeencap', 'VXLAN Tunnel')(edit(t)))), 'drift-remote'));
      expect(after).toEqual(before);
    }
  });

  it('drift: an OutBoundNAT rule printed "Translate", named as AKS names it (SNAT_TCP_OUTBOUNDNAT_…), is a NAT rule', () => {
    // Every ExceptionList entry gone from VFP while the NAT rule stays: each exception is missing on
    // every port. The NAT rule's name does not start with OUTBOUNDNAT (microsoft/SDN
    // TroubleShootContainerNetworking.ps1 names it SNAT_TCP_OUTBOUNDNAT_<n>_<IP>), so only its type says it NATs.
    const dir = 'foreign/ws2022-overlay-2024';
    const edit = (t: string) => dropRules(t, /EXCEPTIONS_OUTBOUNDNAT/).replace(/(RULE : |Friendly name : )OUTBOUNDNAT_/g, '$1SNAT_TCP_OUTBOUNDNAT_');
    const before = shape(runChecks(foreign(dir, edit)), 'drift-outboundnat');
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((f) => /is in HNS but not in VFP/.test(f.title))).toBe(true);
    const after = withAlias('Translate', 'nat', () => shape(runChecks(foreign(dir, (t) => respell('nat', 'Translate')(edit(t)))), 'drift-outboundnat'));
    expect(after).toEqual(before);
    // The type that script gives it, dynnat, is a NAT rule too (semantics.ts knows it already).
    expect(shape(runChecks(foreign(dir, (t) => respell('nat', 'dynnat')(edit(t)))), 'drift-outboundnat')).toEqual(before);
  });

  it('network-policy-acl-addresses: an allow rule printed "Permit" still counts as allowing its addresses', () => {
    const after = withAlias('Permit', 'allow', () => aclFindings('Permit'));
    const before = aclFindings('allow');
    expect(before.map((f) => f.id)).toContain('network-policy-acl-missing-peer');
    expect(after).toEqual(before);
  });
});

// The Calico pod-port ACL of test/unit/k8s/network-policy-acl.test.ts (projectcalico/calico
// felix/dataplane/windows/policysets/policysets.go: one HNS ACL per policy rule, then a default block),
// with a backend replica left out of the allow rule: the check says the replica is missing.
function aclFindings(allowSpelling: string): ReturnType<typeof shape> {
  const base = buildPlatform('calico-vxlan').model;
  const pods = base.k8s?.pods ?? [];
  const queue = pods.filter((p) => p.labels.app === 'queue-5');
  const backends = pods.filter((p) => p.labels['backend.hnsight.example/backend-4'] === 'true' || p.name.startsWith('backend-4'));
  const tc = walkContext(base);
  const portOf = (p: K8sPod) => tc.portOf.get(base.endpoints?.find((e) => e.ip === p.ips[0])?.id ?? '')?.name ?? '';
  const policy = {
    apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'allow-backend', namespace: 'default' },
    spec: { podSelector: { matchLabels: { app: 'queue-5' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: { matchLabels: { 'backend.hnsight.example/backend-4': 'true' } } }], ports: [{ protocol: 'TCP', port: 8080 }] }] },
  };
  const addrs = backends.slice(1).map((b) => b.ips[0]).join(',');
  const rule = (n: number, name: string, type: string, conds: string[]) => [`    RULE : 6D0E5C11-0000-4000-8000-00000000000${n}`, `        Friendly name : ${name}`, `        Priority : ${1000 + n}`, '        Flags : 8195 terminating stateful ', `        Type : ${type}`, '        Conditions:', ...conds.map((c) => `            ${c}`), '        Flow TTL: 240', '        FlagsEx : 0 ', ''].join('\n');
  const rules = [rule(1, 'policy-default.knp.default.allow-backend-Ab3xZ-0', 'allow', ['Protocols : 6', `Source IP : ${addrs}`, 'Destination ports : 8080']), rule(2, 'default-deny-ingress', 'block', ['<none>'])].join('\n');
  const model = buildPlatform('calico-vxlan', {}, {}, (file, t) => {
    if (file === 'kubectl-get-all.json') {
      const doc = JSON.parse(t) as { items: unknown[] };
      doc.items.push(policy);
      return JSON.stringify(doc, null, 2);
    }
    if (file !== 'vfpOutput.txt') return t;
    let out = t;
    for (const q of queue) {
      const at = out.indexOf(`Policy for port : \n${portOf(q)}`);
      const g = out.indexOf('GROUP : ACL_ENDPOINT_GROUP_IPV4_IN', at);
      const first = out.indexOf('    RULE :', g);
      const end = Math.min(...[out.indexOf('\n  GROUP :', first), out.indexOf('\nLAYER :', first)].filter((i) => i > 0));
      out = `${out.slice(0, first)}${rules}${out.slice(end)}`;
    }
    return respell('allow', allowSpelling)(out);
  }).model;
  return shape(runChecks(model), 'network-policy');
}
