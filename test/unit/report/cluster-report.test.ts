// The report of a cluster: `hnsight report DIR|A B … --out FILE` shows the nodes, the findings across
// nodes with the odd node and the majority, and each walk as one stitched path with both nodes' halves
// (each hop under its node, the hand-over between them, the evidence quoted from that node's bundle).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { cleanupClusters, loadGeneratedCluster, writeGeneratedCluster, type WrittenCluster } from '../../helpers/cluster.ts';
import { buildClusterReport, renderClusterMarkdown, type ClusterReportDocument } from '../../../analysis/report/index.ts';

let out: string;
let faulty: WrittenCluster;
beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'hnsight-cluster-report-'));
  faulty = await writeGeneratedCluster({ nodes: 3, platform: 'flannel-vxlan', seed: 51, faults: ['stale-pa', 'missing-lb'] });
});
afterAll(async () => {
  await cleanupClusters();
  await rm(out, { recursive: true, force: true });
});

describe('the cluster report', () => {
  it('a pod → pod walk across two nodes: both halves, each hop under its node with its own bundle\'s line, and the reply', async () => {
    const c = await loadGeneratedCluster({ nodes: 2, platform: 'calico-vxlan', seed: 52 });
    const [n0, n1] = c.plan.nodes;
    const doc = buildClusterReport(c.cluster, { flows: [{ srcIp: n0.podIps[0], dstIp: n1.podIps[0], dstPort: 80, proto: 'tcp' }] });
    expect(doc.schema).toBe('hnsight-cluster-report/1');
    expect(doc.nodes.map((n) => n.id)).toEqual([n0.host, n1.host]);
    const w = doc.walks[0];
    expect(w.verdict).toBe('delivered');
    expect(w.nodes).toEqual([n0.host, n1.host]);
    expect(new Set(w.hops.map((h) => h.node))).toEqual(new Set([n0.host, n1.host]));
    expect(w.hops.filter((h) => h.kind === 'handover')).toHaveLength(1);
    // Evidence is quoted from the hop's own node's bundle.
    for (const h of w.hops.filter((x) => x.evidence?.lines.length && x.kind !== 'handover')) {
      expect(c.cluster.byId(h.node)!.model!.text!.lineText(h.evidence!.file, h.evidence!.line)!.trimEnd()).toBe(h.evidence!.lines[0]);
    }
    expect(w.reply?.nodes).toEqual([n1.host, n0.host]);
    const md = renderClusterMarkdown(doc);
    expect(md.indexOf(`**on ${n0.host}**`)).toBeGreaterThan(0);
    expect(md.indexOf(`**on ${n1.host}**`)).toBeGreaterThan(md.indexOf(`**on ${n0.host}**`));
    expect(md).toContain(`⇒ **hand over (VXLAN to ${n1.nodeIp})**`);
  });

  it('report DIR (no --trace): the findings across nodes with the odd node, and the walks they show — the stale address dropped with its finding, the missing load balancer qualifying the verdict', async () => {
    const file = path.join(out, 'cluster.json');
    const r = await runCli('report', faulty.dir, '--out', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('3 nodes');
    const doc = JSON.parse(await readFile(file, 'utf8')) as ClusterReportDocument;
    const odd = faulty.plan.nodes[2].host;
    const ids = doc.findings.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['cluster-stale-provider-address', 'cluster-lb-missing']));
    for (const f of doc.findings) expect(f.nodes.odd).toContain(odd);
    const stale = doc.walks.find((w) => w.findings.some((f) => f.id === 'cluster-stale-provider-address'))!;
    expect(stale.verdict).toBe('dropped');
    expect(stale.verdictCaveat?.text).toContain('at the hand-over');
    const lb = doc.walks.find((w) => w.findings.some((f) => f.id === 'cluster-lb-missing'))!;
    expect(lb.nodes[0]).toBe(odd);
    expect(lb.verdict).not.toBe('delivered');
    expect(lb.verdictCaveat?.severity).toBe('error');
  });

  it('HTML and Markdown from the folder; several bundles named one by one; --redact hides the addresses in every node\'s half', async () => {
    const html = path.join(out, 'c.html');
    expect((await runCli('report', ...faulty.paths.slice(0, 2), '--trace', `${faulty.plan.nodes[0].podIps[0]}-${faulty.plan.nodes[1].podIps[0]}:80`, '--out', html)).code).toBe(0);
    const h = await readFile(html, 'utf8');
    expect(h).toContain(`on ${faulty.plan.nodes[0].host}`);
    expect(h).toContain(`on ${faulty.plan.nodes[1].host}`);
    expect(h).toContain('class="handover');
    expect(h).not.toMatch(/<script/i);
    const md = path.join(out, 'c.md');
    expect((await runCli('report', faulty.dir, '--redact', '--out', md)).code).toBe(0);
    const m = await readFile(md, 'utf8');
    expect(m).toContain('**redacted**');
    for (const n of faulty.plan.nodes) {
      expect(m).not.toContain(n.nodeIp);
      expect(m).not.toContain(n.podIps[0]);
    }
    expect(m).toContain('## Walks across nodes');
  });

  it('--notes is refused for a cluster, in words', async () => {
    const r = await runCli('report', faulty.dir, '--notes', 'x.json', '--out', path.join(out, 'x.md'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cluster report takes none');
  });
});
