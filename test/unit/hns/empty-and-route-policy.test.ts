// Policy lists that balance nothing, and commands that printed nothing (parsers/hns, parse-file).
import { describe, expect, it } from 'vitest';
import { parseHnsFile, parsePolicyTxt } from '../../../parsers/hns/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';

const enc = (s: string) => new TextEncoder().encode(s);

// hns.psm1's New-HnsRoutePolicy makes a v1 policy list of ROUTE policies (DestinationPrefix, NeedEncap)
// over endpoint References, the way New-HnsLoadBalancer makes one of ELB policies.
const routeList = {
  ActivityId: '0E3BDE5A-3C5B-4B9E-9B1E-6C0D2A4F1B11',
  ID: '5B0F8A52-3A62-4C7B-9E0C-63E2A6D6C1AF',
  Policies: [{ Type: 'ROUTE', DestinationPrefix: '10.244.0.0/16', NeedEncap: true }],
  References: ['/endpoints/2f1e8a9c-4b6d-4c1e-9a2b-7d3e5f6a8b9c'],
};
const elbList = {
  ID: '0A41F6C4-8A11-4DB5-9E8F-2B0C7C5D6E01',
  Policies: [{ Type: 'ELB', ExternalPort: 53, InternalPort: 53, Protocol: 17, VIPs: ['10.96.0.10'] }],
  References: ['/endpoints/7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'],
};

describe('a policy list without an ELB policy is no load balancer', () => {
  it('in policy.txt beside a real one: only the ELB list counts, the other is said', () => {
    const r = parsePolicyTxt(JSON.stringify([routeList, elbList], null, 2));
    expect(r.value.loadBalancers.map((l) => [l.id, l.vips])).toEqual([['0a41f6c4-8a11-4db5-9e8f-2b0c7c5d6e01', ['10.96.0.10']]]);
    expect(r.value.unknown).toHaveLength(1);
    expect(r.issues).toEqual([expect.objectContaining({ line: 2, severity: 'info', message: 'a policy list without an ELB policy (ROUTE): not a load balancer, not counted' })]);
  });
  it('pasted alone: no "no HNS object could be read" warning on top of the note', () => {
    const p = parseBundleFile('pasted.txt', enc(JSON.stringify([routeList], null, 2)));
    expect(p.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(p.issues.map((i) => i.message)).toContain('a policy list without an ELB policy (ROUTE): not a load balancer, not counted');
  });
  it('a policy list whose policies a list view did not show is still taken for one', () => {
    expect(parseHnsFile(JSON.stringify({ ID: 'a', References: ['/endpoints/x'] }), 'f').value.loadBalancers).toHaveLength(1);
  });
});

describe('a command that printed nothing says so', () => {
  it.each([
    ['pasted.txt', 'PS C:\\k> Get-HnsPolicyList | ConvertTo-Json -Depth 10\nPS C:\\k>\n', 1, /^the command "Get-HnsPolicyList \| ConvertTo-Json -Depth 10" printed nothing: no output follows it/],
    ['pasted.txt', 'PS C:\\k> Get-HnsPolicyList | ConvertTo-Json\n[]\n', 1, /^the command "Get-HnsPolicyList \| ConvertTo-Json" printed nothing: only an empty value \(\[\]\) follows/],
    ['pasted.txt', '[]\n', 1, /^the command printed nothing: only an empty value \(\[\]\) follows/],
    ['policy.txt', '[]\n', 1, /^the command printed nothing: only an empty value \(\[\]\)/],
    ['endpoint.txt', 'PS C:\\k> Get-HnsEndpoint | ConvertTo-Json\n', 1, /^the command "Get-HnsEndpoint \| ConvertTo-Json" printed nothing/],
  ])('%s %j', (name, text, line, message) => {
    const p = parseBundleFile(name, enc(text));
    expect(p.issues.map((i) => [i.line, i.severity, message.test(i.message)])).toEqual([[line, 'warning', true]]);
    expect(p.issues.some((i) => /not recognised|no HNS object/.test(i.message))).toBe(false);
  });
});
