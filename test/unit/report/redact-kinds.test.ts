// Redaction of every identifier kind (issue #28, point 4): IPv6 in all its text forms (the link-local
// EUI-64 form spells a MAC), DNS names, e-mail addresses, braced and dashless GUIDs, beside IPv4, MACs
// and host names — in evidence, rule names, notes and node names, in every format; the same value
// (in any of its spellings) always gets the same placeholder, and a placeholder never reads as a value.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { buildReport, redactReport, renderHtml, renderMarkdown, type ReportDocument } from '../../../analysis/report/index.ts';
import { Redactor } from '../../../analysis/redact/index.ts';
import { redactorSeed } from '../../../analysis/redact/seed.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { PLANTED_IDS, plantedLeaks } from '../../fuzz/hostile.ts';

const root = path.resolve(__dirname, '../../..');
const hexN = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const word = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);

/** An IPv6 address and the spellings of it: expanded, RFC 5952 compressed, upper case. */
function ipv6Forms(groups: number[]): string[] {
  const full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
  const short = groups.map((g) => g.toString(16));
  // The longest run of two or more zero groups becomes `::` (RFC 5952 §4.2).
  let best = [-1, 0];
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best[1]) best = [i, j - i];
    i = j > i ? j : i + 1;
  }
  const compressed = best[1] >= 2 ? `${short.slice(0, best[0]).join(':')}::${short.slice(best[0] + best[1]).join(':')}` : short.join(':');
  return [compressed, full, compressed.toUpperCase()];
}

const group = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
/** Global or ULA (2000::/3, fd00::/8): never `::`, loopback, multicast or a bare prefix. */
const ipv6 = fc.tuple(fc.constantFrom(0x2001, 0x2a01, 0xfd12, 0xfdab), fc.array(group, { minLength: 6, maxLength: 6 }), fc.integer({ min: 1, max: 0xffff })).map(([a, mid, z]) => ipv6Forms([a, ...mid, z]));
/** The link-local address a MAC gives by EUI-64 (RFC 4291 appendix A), and the MAC. */
const eui64 = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }).map((b) => {
  const g = [0xfe80, 0, 0, 0, ((b[0] ^ 2) << 8) | b[1], (b[2] << 8) | 0xff, 0xfe00 | b[3], (b[4] << 8) | b[5]];
  return ipv6Forms(g);
});
const ipv4 = fc.tuple(fc.integer({ min: 11, max: 223 }).filter((x) => x !== 127), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map((p) => [p.join('.')]);
const mac = fc.array(hexN(2), { minLength: 6, maxLength: 6 }).map((p) => [p.join('-').toUpperCase(), p.join(':'), p.join('')]);
const guid = fc.tuple(hexN(8), hexN(4), hexN(4), hexN(4), hexN(12)).map((p) => [p.join('-'), `{${p.join('-').toUpperCase()}}`, p.join('')]);
// First label not io/com/org/net: reverse-DNS package names (`io.containerd.grpc`) are kept (README.md).
const dns = fc.tuple(fc.array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'net', 'local', 'internal', 'corp', 'io', 'contoso', 'example'))
  .filter(([labels]) => !['io', 'com', 'org', 'net'].includes(labels[0]))
  .map(([labels, tld]) => [`${labels.join('.')}.${tld}`, `${labels.join('.')}.${tld}`.toUpperCase()]);
const email = fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,8}$/), dns).map(([local, d]) => [`${local}@${d[0]}`]);

const value = fc.oneof(ipv6, eui64, ipv4, mac, guid, dns, email);
const glue = fc.constantFrom(' ', ', ', '_', ' RULE : ', '\n', '(', ') ', '"', '=', ': ', ' addr:', '/64 ', '%12 ', ' → ', '\t', '. ', '[', ']:');

/** Each value in its first spelling and in another one. (A bare 12-hex MAC is only known as a MAC
 *  once its separated form is seen in the same report: alone it could be any 12-digit hex ID.) */
function spliced(values: string[][], glues: string[]): string {
  return values.map((forms, i) => `${glues[i % glues.length]}${forms[0]}${glues[(i + 1) % glues.length]}${forms[i % forms.length]}`).join('') + glues[0];
}

describe('every identifier kind, in every format', () => {
  let m: NodeModel;
  let base: ReportDocument;
  beforeAll(async () => {
    m = await loadBundle(path.join(root, 'assets/demo/l2bridge-node'));
    base = buildReport(m, { generatedAt: '2024-01-01T00:00:00Z' });
  });
  /** The report without its pictures, for the property's many runs (redact.test.ts covers the SVGs). */
  const light = (): ReportDocument => {
    const d: ReportDocument = structuredClone(base);
    d.topology.svg = '';
    for (const t of d.traces) t.svg = '';
    return d;
  };

  it('none survives in JSON, Markdown or HTML, in evidence, rule names, notes, titles and node names', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 10 }), fc.array(glue, { minLength: 3, maxLength: 6 }), word, (values, glues, node) => {
        const text = spliced(values, glues);
        const nodeName = `${node}-win-${values.length}`;
        const model: NodeModel = { ...m, meta: { ...m.meta, hostName: nodeName } };
        const doc = light();
        doc.node.hostName = nodeName;
        doc.traces[0].title = `walk on ${nodeName}: ${text}`;
        doc.traces[0].hops[0].rule = `LB_DSR_${text.replace(/\s/g, '_')}`;
        doc.findings[0].evidence = [{ file: 'vfpOutput.txt', line: 7, lines: [text, `  Friendly name : ${text}`] }];
        doc.notes.push({ id: 'n', target: { kind: 'report', ref: '' }, on: nodeName, text: `seen on ${nodeName.toUpperCase()} ${text}`, createdAt: '', updatedAt: '' });
        const red = redactReport(model, doc);
        for (const [fmt, out] of [['json', JSON.stringify(red)], ['md', renderMarkdown(red)], ['html', renderHtml(red)]] as const) {
          const low = out.toLowerCase();
          for (const forms of values) for (const f of forms) expect(low.includes(f.toLowerCase()), `${fmt}: ${f}`).toBe(false);
          expect(low.includes(nodeName), `${fmt}: ${nodeName}`).toBe(false);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a redacted report says which kinds it replaced and what it cannot recognise, in every format', () => {
    const doc: ReportDocument = structuredClone(base);
    doc.notes.push({ id: 'n', target: { kind: 'report', ref: '' }, on: 'report', text: 'ask ops@contoso.com about fd12:3456::1 on web01.contoso.com', createdAt: '', updatedAt: '' });
    const red = redactReport(m, doc);
    expect(red.redaction?.replaced).toMatchObject({ ip: expect.any(Number), ip6: 1, email: 1, dns: 1, mac: expect.any(Number), guid: expect.any(Number) });
    expect(red.redaction?.notRecognised.some((t) => /free text/.test(t))).toBe(true);
    const md = renderMarkdown(red);
    expect(md).toMatch(/\*\*Redacted:\*\* \d+ IPv4 addresses .*1 IPv6 address .*1 DNS name .*1 e-mail address/);
    expect(md).toMatch(/\*\*Not redacted\*\*/);
    expect(renderHtml(red)).toMatch(/<b>Redacted:<\/b> \d+ IPv4 addresses .*<b>Not redacted<\/b>.*free text/s);
    expect(buildReport(m, {}).redaction).toBeUndefined();
  });
});

describe('one value, one placeholder, however it is written', () => {
  it('IPv6 (compressed, expanded, upper case), MACs (dash, colon, bare once known), GUIDs (braced, dashless), DNS names (any case)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(ipv6, eui64, guid, dns, mac), { minLength: 1, maxLength: 8 }), (values) => {
        const r = new Redactor();
        for (const forms of values) r.prescan(forms[0]);
        for (const forms of values) {
          const first = r.redact(forms[0]);
          expect(first).toMatch(/^\[(ip6|guid|dns|mac)-\d+\]$/);
          for (const f of forms) expect(r.redact(f), f).toBe(first);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the example of the issue: fe80::215:5dff:fe51:7f5e and its expanded form are one address', () => {
    const r = new Redactor();
    const a = r.redact('fe80::215:5dff:fe51:7f5e');
    expect(a).toBe('[ip6-1]');
    expect(r.redact('FE80:0000:0000:0000:0215:5DFF:FE51:7F5E%12')).toBe('[ip6-1]%12');
  });
});

describe('placeholders never read as values', () => {
  it('redacting a redacted text changes nothing, and a placeholder glued to an address stays apart from it', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 10 }), fc.array(glue, { minLength: 3, maxLength: 6 }), (values, glues) => {
        const once = new Redactor().redact(spliced(values, glues));
        expect(new Redactor().redact(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
    const r = new Redactor({ ips: ['10.240.0.19'] });
    const out = r.redact('LB_10.240.0.190.0.0.0');
    expect(out).toBe('LB_[ip-1]0.0.0.0');
    expect(out).not.toMatch(/(?<![\d.])\d{1,3}\.\d+\.\d+\.\d+(?<!0\.0\.0\.0)/);
  });
});

describe('what is not an identifier stays as written', () => {
  it('file names, Windows builds, versions, VFP names, `::`, code identifiers and public names', () => {
    const keep = [
      'vfpOutput.txt', 'hnsdiag.exe', '10-azure.conflist', 'kubelet.log', 'build 10.0.20348.2340', 'v1.27.3', 'SLB_NAT_LAYER', 'EXTERNAL_DSR_PORT',
      'RULE : LB_DSR_ 0x1', '::', '::1 and ff02::1', 'std::string', '[System.Net.Dns]::GetHostName()', '10:30:00.123', 'json.RawMessage',
      'winkernel.endpointsInfo', 'Health.Extra.Resources', 'io.containerd.grpc', 'node.kubernetes.io/os', 'mcr.microsoft.com/oss/kubernetes/pause:3.9',
      'kube-dns.kube-system.svc.cluster.local', 'e.g. this', 'http://www.w3.org/2000/svg', '0.0.0.0/0 via 255.255.255.0',
    ];
    const r = new Redactor();
    for (const k of keep) expect(r.redact(k)).toBe(k);
  });
});

describe('the fuzz harness\'s planted identifiers (test/fuzz/hostile.ts)', () => {
  it('are all found in plain text and none after redaction, so a leak in a fuzzed report is a finding', () => {
    const text = PLANTED_IDS.map((id, i) => `${['', 'RULE : ', '"', '(', '\t'][i % 5]}${id}${[' ', '"', ')', ',', '\n'][i % 5]}`).join('');
    expect(plantedLeaks(text)).toEqual(PLANTED_IDS);
    expect(plantedLeaks(new Redactor().redact(text))).toEqual([]);
  });
});

// Review of issue #28 ("--redact leaves … DNS names and domains"): holes found by an adversarial pass.
describe('review of #28: names that slipped through', () => {
  it('a DNS suffix typed in title case (`corp.Contoso.Local`, `WEB01.Contoso.Com`) is a name, not a code identifier', () => {
    // Windows prints the DNS suffix as the administrator typed it (ipconfig /all "Primary Dns Suffix").
    const r = new Redactor();
    for (const name of ['corp.Contoso.Local', 'WEB01.Contoso.Com', 'Fabrikam.Corp', 'dc1.Contoso.Internal']) {
      const out = r.redact(`Primary Dns Suffix . . . : ${name}`);
      expect(out).toMatch(/\[dns-\d+\]$/);
      expect(out.toLowerCase()).not.toContain('contoso');
    }
    // Code identifiers with a name's shape stay.
    for (const k of ['json.RawMessage', 'System.Object', 'winkernel.endpointsInfo', '[System.Net.Dns]::GetHostName()']) expect(r.redact(k)).toBe(k);
  });

  it("the cluster's other nodes (kubectl get nodes) are learned: their names have no shape to recognise", () => {
    const model = {
      meta: {},
      k8s: {
        pods: [],
        services: [],
        nodes: [{ name: 'aks-nodepool1-12345678-vmss000001', addresses: [{ type: 'InternalIP', address: '10.224.0.33' }, { type: 'Hostname', address: 'aks-nodepool1-12345678-vmss000001' }] }],
      },
    } as unknown as NodeModel;
    const r = new Redactor(redactorSeed(model));
    const out = r.redact('remote subnet of node aks-nodepool1-12345678-vmss000001 via 10.224.0.3310.244.1.0');
    expect(out).not.toContain('vmss000001');
    expect(out).not.toContain('10.224.0.33');
  });
});

describe('review of #28: a host name glued with an underscore', () => {
  it('is still the host name (rule and network names glue values with `_`)', () => {
    const r = new Redactor({ hostnames: ['akswin000000'] });
    expect(r.redact('VFP_akswin000000_ext AKSWIN000000_nic')).toBe('VFP_[host-1]_ext [host-1]_nic');
    // Inside a longer name it is not the host's.
    expect(r.redact('xakswin0000001')).toBe('xakswin0000001');
  });
});
