// Calico's own policies (issue #26 point 2): the selector expression language as Calico parses it
// (projectcalico/calico libcalico-go/lib/selector/parser/parser.go, tokenizer/tokenizer.go, ast.go) and
// Calico's ordered evaluation with the Kubernetes policies (conversion.go: Kubernetes policies at order
// 1000; docs.tigera.io tier reference: the first matching rule decides, end of tier denies).
// The policies below are the ones users posted in public issues, as written there.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { evalSelector, parseCalicoSelector } from '../../../analysis/k8s/calico-selector.ts';
import { calicoIntent } from '../../../analysis/k8s/calico-eval.ts';
import { ruleLabel } from '../../../analysis/k8s/policy-eval.ts';
import { parseKubectlJson, type K8sPod } from '../../../parsers/k8s/index.ts';

const ev = (sel: string, labels: Record<string, string>) => {
  const p = parseCalicoSelector(sel);
  if (!p.ok) throw new Error(`${sel}: ${p.error}`);
  return evalSelector(p.node, (k) => labels[k]);
};

describe('Calico selector expressions', () => {
  const L = { app: 'web', tier: 'front', 'projectcalico.org/namespace': 'shop', 'k8s-app': 'calico-node' };
  it.each([
    ['', true], ['all()', true], ['global()', false],
    ["app == 'web'", true], ['app == "db"', false], ["app != 'db'", true], ["missing != 'x'", true],
    ["app in {'a', 'web'}", true], ["app in {}", false], ["app not in {'web'}", false], ["missing not in {'x'}", true],
    ['has(tier)', true], ['!has(tier)', false], ['! has( missing )', true], ['!!has(tier)', true],
    ["app == 'web' && tier == 'back'", false], ["app == 'db' || tier == 'front'", true],
    ["app == 'db' || tier == 'front' && has(app)", true], ["(app == 'db' || tier == 'front') && !has(app)", false],
    ["k8s-app contains 'node'", true], ["k8s-app starts with 'calico'", true], ["k8s-app ends with 'x'", false], ["k8s-app startswith 'cal'", true],
    ['projectcalico.org/namespace not in {"kube-system"}', true],
  ])('%s → %s', (sel, want) => {
    expect(ev(sel, L)).toBe(want);
  });
  it.each(["app = 'x'", "app == x", "app == 'x", 'has()', '(app == "x"', "app == 'x' &&", 'app', "app foo 'x'", "app in {'a' 'b'}", '&&'])('rejects %s (as Calico does)', (sel) => {
    expect(parseCalicoSelector(sel).ok).toBe(false);
  });
  it('an unknown label is unknown, unless the rest decides (false && ? = false; true || ? = true)', () => {
    const p = parseCalicoSelector("pcns.team == 'a' && app == 'db'");
    const get = (k: string) => (k === 'pcns.team' ? { unknown: 'namespaces' } : k === 'app' ? 'web' : undefined);
    expect(p.ok && evalSelector(p.node, get)).toBe(false);
    const q = parseCalicoSelector("pcns.team == 'a' && app == 'web'");
    expect(q.ok && evalSelector(q.node, get)).toBe('namespaces');
  });
  it('property: never throws; deep nesting and huge input are refused, not a stack overflow', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (s) => { parseCalicoSelector(s); }), { numRuns: 500 });
    expect(parseCalicoSelector(`${'('.repeat(5000)}all()${')'.repeat(5000)}`).ok).toBe(false);
    expect(parseCalicoSelector("a == 'b' && ".repeat(3000) + 'all()').ok).toBe(false);
  });
  it("property: != is the negation of ==, not in of in, !! is identity, and De Morgan holds", () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const val = fc.constantFrom('1', '2');
    const labels = fc.dictionary(key, val);
    fc.assert(fc.property(key, val, labels, fc.array(val, { maxLength: 3 }), (k, v, l, set) => {
      const s = `{${set.map((x) => `'${x}'`).join(', ')}}`;
      expect(ev(`${k} != '${v}'`, l)).toBe(!ev(`${k} == '${v}'`, l));
      expect(ev(`${k} not in ${s}`, l)).toBe(!ev(`${k} in ${s}`, l));
      expect(ev(`!!has(${k})`, l)).toBe(ev(`has(${k})`, l));
      expect(ev(`!(has(a) && ${k} == '${v}')`, l)).toBe(ev(`!has(a) || ${k} != '${v}'`, l));
    }));
  });
});

const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2);
const pod = (name: string, ns: string, ip: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels }, spec: { nodeName: 'win-1', containers: [] }, status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] } });
function snap(items: unknown[]) {
  const r = parseKubectlJson(list(items), 'k.json');
  expect(r.issues).toEqual([]);
  return r.value;
}
const P = (s: ReturnType<typeof snap>, n: string) => s.pods.find((p) => p.name === n)! as K8sPod;

// projectcalico/calico#8948: a GlobalNetworkPolicy allowing all (with Log first) at order 200000 and one
// meant to deny b → a at order 10 whose rule names b as the *destination* of an ingress rule on a.
const allowAll = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'allow-all' }, spec: { selector: 'all()', order: 200000, types: ['Egress', 'Ingress'], egress: [{ action: 'Log' }, { action: 'Allow' }], ingress: [{ action: 'Log' }, { action: 'Allow' }] } };
const denyB2a = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'deny-b2a' }, spec: { selector: "app in {'a'}", order: 10, types: ['Ingress'], ingress: [{ action: 'Deny', protocol: 'TCP', destination: { selector: "app in {'b'}" } }] } };
// projectcalico/calico#7896: two GlobalNetworkPolicies, one by namespaceSelector.
const allowSystem = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'default-allow-system' }, spec: { namespaceSelector: 'has(projectcalico.org/name) && projectcalico.org/name in {"kube-system", "calico-system", "calico-apiserver"}', order: 1000, types: ['Ingress'], ingress: [{ action: 'Allow' }] } };
const denyInternet = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'default-deny-internet' }, spec: { order: 10, types: ['Ingress'], ingress: [{ action: 'Deny', protocol: 'TCP', source: { nets: ['0.0.0.0/0'] } }, { action: 'Allow', protocol: 'TCP', source: { selector: 'all()' } }] } };

describe('Calico evaluation, on policies from public issues', () => {
  it('calico#8948: the Deny names b as destination of an ingress rule on a, so it never matches; allow-all decides', () => {
    const s = snap([pod('a', 'default', '100.67.254.1', { app: 'a' }), pod('b', 'default', '100.67.254.2', { app: 'b' }), allowAll, denyB2a]);
    const v = calicoIntent(s.networkPolicies, P(s, 'a'), { ip: '100.67.254.2', pod: P(s, 'b') }, 'ingress', 'TCP', 8888);
    expect(v.allowed).toBe(true);
    expect(v.selecting.map((p) => p.name)).toEqual(['deny-b2a', 'allow-all']);
    expect(ruleLabel(v.allowedBy[0]!, 'ingress')).toBe('allow-all (Calico global) ingress[1]');
    // As the user meant it (b as source), the order-10 Deny wins over the order-200000 Allow.
    const meant = { ...denyB2a, spec: { ...denyB2a.spec, ingress: [{ action: 'Deny', protocol: 'TCP', source: { selector: "app in {'b'}" } }] } };
    const s2 = snap([pod('a', 'default', '100.67.254.1', { app: 'a' }), pod('b', 'default', '100.67.254.2', { app: 'b' }), allowAll, meant]);
    const d = calicoIntent(s2.networkPolicies, P(s2, 'a'), { ip: '100.67.254.2', pod: P(s2, 'b') }, 'ingress', 'TCP', 8888);
    expect([d.allowed, d.deniedBy && ruleLabel(d.deniedBy, 'ingress')]).toEqual([false, 'deny-b2a (Calico global) ingress[0]']);
    // UDP is not the Deny's protocol: allowed.
    expect(calicoIntent(s2.networkPolicies, P(s2, 'a'), { ip: '100.67.254.2', pod: P(s2, 'b') }, 'ingress', 'UDP', 8888).allowed).toBe(true);
  });
  it('calico#7896: the order-10 Deny from 0.0.0.0/0 on TCP comes first for every pod; the namespaceSelector policy only selects system namespaces', () => {
    const s = snap([pod('web', 'my-app', '10.1.0.5', {}), pod('dns', 'kube-system', '10.1.0.6', {}), allowSystem, denyInternet]);
    const tcp = calicoIntent(s.networkPolicies, P(s, 'web'), { ip: '203.0.113.9' }, 'ingress', 'TCP', 443);
    expect([tcp.allowed, tcp.deniedBy && ruleLabel(tcp.deniedBy, 'ingress')]).toEqual([false, 'default-deny-internet (Calico global) ingress[0]']);
    // UDP passes both TCP rules: in kube-system the namespaceSelector policy allows; in my-app the end of the tier denies.
    expect(calicoIntent(s.networkPolicies, P(s, 'dns'), { ip: '203.0.113.9' }, 'ingress', 'UDP', 53)).toMatchObject({ allowed: true });
    const udp = calicoIntent(s.networkPolicies, P(s, 'web'), { ip: '203.0.113.9' }, 'ingress', 'UDP', 53);
    expect([udp.allowed, udp.deniedBy, udp.selecting.map((p) => p.name)]).toEqual([false, undefined, ['default-deny-internet']]);
  });
  it('Kubernetes policies sit at order 1000 among Calico policies; a policy no rule of which matches hands on; a Pass hands on to the profile (allow)', () => {
    const k8s = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'allow-80', namespace: 'default' }, spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 80 }] }] } };
    const early = (order: number, action: string) => ({ apiVersion: 'projectcalico.org/v3', kind: 'NetworkPolicy', metadata: { name: `p${order}`, namespace: 'default' }, spec: { selector: 'all()', order, ingress: [{ action, protocol: 'TCP', destination: { ports: [80] } }] } });
    const items = (...x: unknown[]) => snap([pod('a', 'default', '10.0.0.1', {}), k8s, ...x]);
    const s1 = items(early(999, 'Allow'));
    expect(calicoIntent(s1.networkPolicies, P(s1, 'a'), { ip: '10.9.9.9' }, 'ingress', 'TCP', 80).allowed).toBe(true);
    expect(calicoIntent(s1.networkPolicies, P(s1, 'a'), { ip: '10.9.9.9' }, 'ingress', 'TCP', 81).allowed).toBe(false);
    // A Deny before the Kubernetes policy wins; after it, the Kubernetes policy's Allow has decided already.
    const s2 = items(early(999, 'Deny'));
    expect(calicoIntent(s2.networkPolicies, P(s2, 'a'), { ip: '10.9.9.9' }, 'ingress', 'TCP', 80).allowed).toBe(false);
    const s4 = items(early(1001, 'Deny'));
    const k = calicoIntent(s4.networkPolicies, P(s4, 'a'), { ip: '10.9.9.9' }, 'ingress', 'TCP', 80);
    expect([k.allowed, ruleLabel(k.allowedBy[0]!, 'ingress')]).toEqual([true, 'default/allow-80 ingress[0]']);
    const s3 = items(early(5, 'Pass'));
    const pass = calicoIntent(s3.networkPolicies, P(s3, 'a'), { ip: '10.9.9.9' }, 'ingress', 'TCP', 80);
    expect([pass.allowed, pass.passedBy && ruleLabel(pass.passedBy, 'ingress')]).toEqual([true, 'default/p5 (Calico) ingress[0]']);
  });
  it('a namespaced policy\'s rule selector reaches only its namespace unless a namespaceSelector widens it', () => {
    const np = (src: object) => ({ apiVersion: 'projectcalico.org/v3', kind: 'NetworkPolicy', metadata: { name: 'p', namespace: 'shop' }, spec: { selector: "app == 'db'", ingress: [{ action: 'Allow', source: src }] } });
    const pods = [pod('db', 'shop', '10.0.0.1', { app: 'db' }), pod('fe', 'shop', '10.0.0.2', { app: 'fe' }), pod('fe2', 'other', '10.0.0.3', { app: 'fe' })];
    const s = snap([...pods, np({ selector: "app == 'fe'" })]);
    expect(calicoIntent(s.networkPolicies, P(s, 'db'), { ip: '10.0.0.2', pod: P(s, 'fe') }, 'ingress', 'TCP', 1).allowed).toBe(true);
    expect(calicoIntent(s.networkPolicies, P(s, 'db'), { ip: '10.0.0.3', pod: P(s, 'fe2') }, 'ingress', 'TCP', 1).allowed).toBe(false);
    const w = snap([...pods, np({ selector: "app == 'fe'", namespaceSelector: 'all()' })]);
    expect(calicoIntent(w.networkPolicies, P(w, 'db'), { ip: '10.0.0.3', pod: P(w, 'fe2') }, 'ingress', 'TCP', 1).allowed).toBe(true);
    // A selector tested on an address that is no pod: a network set might match it — not verifiable, said.
    expect(calicoIntent(s.networkPolicies, P(s, 'db'), { ip: '192.0.2.7' }, 'ingress', 'TCP', 1).unknown).toMatch(/^not verifiable: shop\/p \(Calico\) selects by labels, and 192\.0\.2\.7 is no pod/);
  });
  it('what is not modelled is "not verifiable" with the reason: another tier, serviceAccountSelector, HTTP match, an unparsable selector', () => {
    const base = { apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'g' } };
    const cases: [object, RegExp][] = [
      [{ tier: 'security', selector: 'all()', ingress: [{ action: 'Deny' }] }, /tier "security"/],
      [{ serviceAccountSelector: "role == 'x'", ingress: [{ action: 'Deny' }] }, /serviceAccountSelector/],
      [{ selector: 'all()', ingress: [{ action: 'Allow', http: { methods: ['GET'] } }] }, /matches on http/],
      [{ selector: "app = 'x'", ingress: [{ action: 'Deny' }] }, /selector "app = 'x'" of g \(Calico global\) does not parse/],
    ];
    for (const [spec, re] of cases) {
      const s = snap([pod('a', 'default', '10.0.0.1', {}), { ...base, spec }]);
      expect(calicoIntent(s.networkPolicies, P(s, 'a'), { ip: '10.9.9.9' }, 'ingress', 'TCP', 80).unknown).toMatch(re);
    }
  });
  it('Calico types default: egress rules alone make an Egress-only policy (projectcalico/api PolicySpec.Types)', () => {
    const s = snap([{ apiVersion: 'projectcalico.org/v3', kind: 'GlobalNetworkPolicy', metadata: { name: 'e' }, spec: { egress: [{ action: 'Allow' }] } }]);
    expect(s.networkPolicies[0]!.policyTypes).toEqual(['Egress']);
  });
});

describe('hostile Calico policies', () => {
  it('property: any selector text, action, ports and nets in a policy never throw; the verdict is a boolean, or undecided with a reason', () => {
    const frag = fc.constantFrom("app == 'a'", 'has(app)', '!', '&&', '||', '(', ')', 'all()', "x in {'1'}", 'global()', "pcns.team == 'x'", "projectcalico.org/serviceaccount == 'sa'", '"', '{', ' ');
    const selector = fc.oneof(fc.array(frag, { maxLength: 6 }).map((x) => x.join(' ')), fc.string({ maxLength: 20 }));
    const ports = fc.array(fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.constantFrom('http', '1:100', '99:1', 'x:y')), { maxLength: 3 });
    const entity = fc.record({ selector, notSelector: selector, nets: fc.array(fc.constantFrom('10.0.0.0/8', '::/0', 'junk', '0.0.0.0/0'), { maxLength: 2 }), ports }, { requiredKeys: [] });
    const rule = fc.record({ action: fc.constantFrom('Allow', 'Deny', 'Pass', 'Log'), protocol: fc.constantFrom('TCP', 'UDP', 6, 17, 'ICMP'), source: entity, destination: entity }, { requiredKeys: ['action'] });
    const policy = fc.record({ global: fc.boolean(), selector, order: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), ingress: fc.array(rule, { maxLength: 3 }) }).map((p) => ({
      apiVersion: 'projectcalico.org/v3', kind: p.global ? 'GlobalNetworkPolicy' : 'NetworkPolicy',
      metadata: { name: `p${Math.abs(p.order ?? 9)}`, namespace: 'default' }, spec: { selector: p.selector, order: p.order, ingress: p.ingress },
    }));
    fc.assert(fc.property(fc.array(policy, { maxLength: 4 }), fc.constantFrom('TCP', 'UDP'), fc.integer({ min: 1, max: 65535 }), (ps, proto, port) => {
      const s = parseKubectlJson(list([pod('a', 'default', '10.0.0.1', { app: 'a' }), pod('b', 'default', '10.0.0.2', { app: 'b' }), ...ps]), 'k.json').value;
      const v = calicoIntent(s.networkPolicies, P(s, 'a'), { ip: '10.0.0.2', pod: P(s, 'b') }, 'ingress', proto, port);
      expect(typeof v.allowed).toBe('boolean');
      if (v.unknown !== undefined) expect(v.unknown.length).toBeGreaterThan(0);
    }), { numRuns: 300 });
  });
});
