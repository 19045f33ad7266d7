// The cluster's intent against a bundle hnsight did not generate (issue #26): the foreign
// ws2019-flannel-l2bridge-2020 bundle with a hand-written kubectl snapshot of the same cluster
// (test/fixtures/k8s/README.md): the healthy twin gives no intent finding; the drifted one names each
// drift with its Service, Node or pod and the lines that show it, in the findings, in `services` and in
// the CLI text.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';
import { formatInspectText } from '../../../cli/format/inspect-text.ts';
import { buildReport } from '../../../analysis/report/build.ts';
import { renderMarkdown } from '../../../analysis/report/markdown.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(here, '../../fixtures/foreign/ws2019-flannel-l2bridge-2020');
const snap = (name: string) => path.resolve(here, '../../fixtures/k8s', name);
const load = (k: string) => loadBundle([...readdirSync(dir).filter((f) => f !== 'expected.json').map((f) => path.join(dir, f)), snap(k)]);
const INTENT = /^k8s-|^calico-cni/;

describe('ws2019 flannel host-gw with its kubectl snapshot', () => {
  it('healthy twin: every Service port realised, no intent finding', async () => {
    const m = await load('ws2019-flannel-healthy.json');
    expect(m.k8s!.nodes.length).toBe(3);
    const fs = runChecks(m);
    expect(fs.filter((f) => INTENT.test(f.id)).map((f) => f.title)).toEqual([]);
    const doc = inspectDocument(m, fs);
    expect(doc.services.length).toBe(9);
    expect(doc.services.filter((r) => r.state !== 'realised').map((r) => `${r.name} ${r.where} ${r.state}`)).toEqual([]);
  });

  it('drift: each is named with its Service, Node or pod and evidence', async () => {
    const m = await load('ws2019-flannel-drift.json');
    const fs = runChecks(m).filter((f) => INTENT.test(f.id));
    expect(fs.map((f) => `${f.severity} ${f.id} ${f.title}`).sort()).toEqual([
      'error k8s-backends-drift default/win-webserver 10.102.220.146:80 sends traffic to 10.244.1.11, which no Running pod holds',
      'error k8s-backends-drift default/win-webserver node port 31486 sends traffic to 10.244.1.11, which no Running pod holds',
      'error k8s-route-to-unknown-node The route to 10.244.1.0/24 leads to 192.168.30.22, an address no Node of the cluster has',
      'error k8s-service-no-lb Service default/iis-metrics port 9100/TCP has no HNS load balancer',
      'warning k8s-pod-no-endpoint 1 running pod of this node has no HNS endpoint',
    ]);
    const route = fs.find((f) => f.id === 'k8s-route-to-unknown-node')!;
    expect(route.evidence[0]).toMatchObject({ file: 'routes.txt', line: 15 });
    expect(route.explanation).toContain('the pod CIDR of k8s-worker-2, at 192.168.30.23');
    // Every finding that compares the snapshot says when the snapshot was taken.
    for (const f of fs.filter((x) => x.id !== 'k8s-pod-no-endpoint')) expect(f.explanation).toContain('Per the snapshot of about 2020-05-20 10:02:00 UTC');
    const doc = inspectDocument(m, runChecks(m));
    expect(doc.services.filter((r) => r.state !== 'realised').map((r) => `${r.namespace}/${r.name} ${r.where}/${r.proto} ${r.state}`)).toEqual([
      'default/win-webserver 10.102.220.146:80/TCP stale backends',
      'default/win-webserver NodePort 31486/TCP stale backends',
      'default/iis-metrics 10.100.7.7:9100/TCP no load balancer',
    ]);
    expect(doc.services.find((r) => r.state === 'stale backends')!.detail).toContain('sends to 10.244.1.11, which no Running pod holds, and not to ready backend 10.244.1.14');
    const text = formatInspectText(m, doc, { verbose: false });
    expect(text).toContain('services: 7 of 10 Service ports of the kubectl snapshot realised on this node');
    expect(text).toMatch(/default\/iis-metrics\s+10\.100\.7\.7:9100\/TCP\s+no load balancer/);
    const md = renderMarkdown(buildReport(m));
    expect(md).toContain('## Services on this node');
    // The report's Services table: name, port, type, VIP, backends (ready / in HNS), policies, state.
    expect(md).toContain('| default/iis-metrics | 9100/TCP | ClusterIP | 10.100.7.7 | 1 / none | — / Cluster | no load balancer |');
  });
});
