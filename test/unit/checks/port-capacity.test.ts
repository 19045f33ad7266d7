// Dynamic port capacity (analysis/checks/port-capacity.ts) on a hand-written bundle whose port range
// files are netsh's UTF-16 output (test/fixtures/foreign-faults/l2bridge-missing-remote-route), and on a
// copy whose exclusions fill the range.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { withNatRanges } from '../../helpers/nat-ranges.ts';
import { checkContext } from '../../../analysis/checks/context.ts';
import { portCapacityCheck } from '../../../analysis/checks/port-capacity.ts';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/foreign-faults/l2bridge-missing-remote-route');

describe('port capacity', () => {
  it('shows the arithmetic for the TCP and UDP dynamic ranges; a roomy range is info', async () => {
    const m = await loadBundle(DIR);
    const f = portCapacityCheck.run(checkContext(m));
    expect(f.map((x) => `${x.id} ${x.severity}`)).toEqual(['port-capacity info', 'port-capacity info']);
    // 49152–65535 minus 50000–50059: gaps 49152–49999 (848 → 13 blocks) and 50060–65535 (15476 → 241 blocks).
    expect(f[0].explanation).toContain('16384 ports) − 60 ports in 1 excluded range inside it = 16324 free ports');
    expect(f[0].explanation).toContain('= 254.');
    expect(f[0].explanation).toMatch(/insufficient information/);
    expect(f[0].evidence.map((e) => `${e.file}:${e.line}`)).toEqual(['dynamicportrange.txt:4', 'excludedportrange.txt:8']);
  });

  it('exclusions leaving fewer than 16 blocks: a warning naming the count', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-ports-'));
    cpSync(DIR, dir, { recursive: true });
    // HNS-style 100-port exclusions over 49152–65535 except 10 × 64 ports kept free between them.
    const rows: string[] = [];
    let p = 49152;
    while (p <= 65535) {
      const end = Math.min(65535, p + 1499);
      rows.push(`${String(p).padStart(10)}  ${String(end).padStart(10)}`);
      p = end + 1 + 64;
    }
    const text = ['', 'Protocol tcp Port Exclusion Ranges', '', 'Start Port    End Port', '----------    --------', ...rows, '', '* - Administered port exclusions.', ''].join('\r\n');
    writeFileSync(path.join(dir, 'excludedportrange.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const m = await loadBundle(dir);
    const f = portCapacityCheck.run(checkContext(m)).filter((x) => x.id === 'port-capacity-low');
    expect(f.length).toBe(1);
    expect(f[0].severity).toBe('warning');
    expect(f[0].title).toMatch(/^Only 1?\d free blocks of 64 TCP ports/);
  });
});

describe('SNAT per pod (issue #26 point 6)', () => {
  it('pods source-NATed but no NAT range listed (the bundle\'s /list-nat-range sections are empty): insufficient information, said', async () => {
    const m = await loadBundle(DIR);
    const [tcp, udp] = portCapacityCheck.run(checkContext(m));
    expect(tcp!.explanation).toMatch(/\d+ pods here are source-NATed \(OutBoundNAT\), but no pod port lists a NAT range with ports: .*insufficient information: needs each pod port's NAT ranges \(vfpctrl \/port <port> \/list-nat-range\)/);
    expect(udp!.explanation).toContain('insufficient information to say how many more pods fit');
  });

  it('with NAT ranges on the pod ports: the forecast and its arithmetic, hedged as inferred', async () => {
    const { dir, filled } = withNatRanges(DIR);
    expect(filled).toBeGreaterThan(0);
    const m = await loadBundle(dir);
    const [tcp] = portCapacityCheck.run(checkContext(m));
    expect(tcp!.explanation).toMatch(/SNAT per pod: \d+ pod ports? hold \d+ NAT ports in all \(the most, 128 ports, is 2 blocks of 64\); 254 free blocks ÷ 2 blocks per pod = 127 more pods fit \(inferred/);
    expect(tcp!.evidence.some((e) => e.file === 'vfpOutput.txt' && /NAT ranges of .*: 128 ports/.test(e.text))).toBe(true);
    // The same forecast in `inspect --json`'s capacity rows (TCP only).
    const { inspectDocument } = await import('../../../analysis/inspect.ts');
    const rows = inspectDocument(m).capacity;
    expect(rows.map((r) => [r.proto, r.snat?.fit])).toEqual([['tcp', 127], ['udp', undefined]]);
  });
});

describe('capacity in inspect', () => {
  it('the SNAT forecast reads the pod ports once per model, however many times the rows are shown', async () => {
    const { inspectDocument } = await import('../../../analysis/inspect.ts');
    const { dir } = withNatRanges(DIR);
    const m = await loadBundle(dir);
    const store = m.vfp!;
    const read = store.getPortSections.bind(store);
    const asked: string[] = [];
    store.getPortSections = (name) => (asked.push(name), read(name));
    const check = portCapacityCheck.run(checkContext(m));
    const once = asked.length;
    expect(once).toBeGreaterThan(0);
    // `hnsight inspect` runs the check, then builds the document with the same rows: no port read again.
    const doc = inspectDocument(m, check);
    expect(asked.length).toBe(once);
    expect(doc.capacity.find((r) => r.proto === 'tcp')?.snat?.text).toBe(check[0]!.explanation.match(/SNAT per pod: [^]*$/)?.[0]);
  });

  it('the inspect document and its text carry the same rows as the check', async () => {
    const { inspectDocument } = await import('../../../analysis/inspect.ts');
    const { formatCapacityText } = await import('../../../cli/format/capacity-text.ts');
    const m = await loadBundle(DIR);
    const doc = inspectDocument(m);
    expect(doc.capacity.map((r) => `${r.proto} ${r.blocks} ${r.freePorts}`)).toEqual(['tcp 254 16324', 'udp 254 16324']);
    const text = formatCapacityText(doc, (t) => [t]).join('\n');
    expect(text).toContain('TCP  254 free 64-port blocks, 16324 of 16384 ports free');
    expect(text).toContain('49152–49999 (848 ports → 13) + 50060–65535 (15476 ports → 241) = 254');
    // The CLI says the TCP row's SNAT forecast (or what it needs), once: not a fixed line on every row.
    const tcp = doc.capacity.find((r) => r.proto === 'tcp');
    expect(tcp?.snat?.text).toBeTruthy();
    expect(text).toContain(`Pods that still fit: ${tcp?.snat?.text ?? ''}`);
    expect(text.match(/Pods that still fit/g)).toHaveLength(1);
  });
});
