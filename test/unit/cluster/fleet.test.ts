// `hnsight fleet`: a bundle that cannot be read — or that hnsight itself fails on — is listed and the
// others are read, and the run exits 1 saying so; the text never says "nothing" where the JSON lists
// findings (info findings are counted, and listed with --verbose).
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { runFleet } from '../../../services/cluster/fleet.ts';
import { summarizeFleet, type NodeDigest } from '../../../analysis/cluster/index.ts';
import { formatFleetTail } from '../../../cli/format/fleet-text.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const FOREIGN = path.resolve(__dirname, '../../fixtures/foreign');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('hnsight fleet', () => {
  it('a bundle hnsight fails on is listed under failed; the run goes on', async () => {
    // hnsight failing on one bundle (a parser or check bug): the checks throw for one host.
    const checks = (m: NodeModel) => {
      if (m.meta.hostName === 'k8s-win22-02') throw new TypeError("Cannot read properties of undefined (reading 'x')");
      return runChecks(m);
    };
    const s = await runFleet(
      [
        { path: path.join(FOREIGN, 'ws2022-overlay-2024'), name: 'ws2022-overlay-2024', kind: 'folder' },
        { path: path.join(FOREIGN, 'ws2019-flannel-l2bridge-2020'), name: 'ws2019-flannel-l2bridge-2020', kind: 'folder' },
      ],
      { checks },
    );
    expect(s.nodes.map((n) => n.host)).toEqual(['win-k8s-n01']);
    expect(s.failed).toHaveLength(1);
    expect(s.failed[0].bundle).toContain('ws2022-overlay-2024');
    expect(s.failed[0].error).toContain('hnsight failed on this bundle');
  });

  it('a bundle not read: exit 1, and the summary says it leaves it out', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hnsight-fleet-'));
    dirs.push(dir);
    await cp(path.join(FOREIGN, 'ws2019-flannel-l2bridge-2020'), path.join(dir, 'a'), { recursive: true });
    await mkdir(path.join(dir, 'b'));
    await writeFile(path.join(dir, 'broken.zip'), Buffer.from('PK\u0003\u0004 not really a zip'));
    const r = await runCli('fleet', dir);
    expect(r.stdout).toContain('1 node, 1 bundle not read: this summary leaves it out (exit code 1)');
    expect(r.code).toBe(1);
  });

  it('the text counts the info findings the JSON lists on every node', () => {
    const d = (id: string): NodeDigest =>
      ({
        id,
        bundle: id,
        identity: { host: id, addresses: [], podSubnets: [], plugin: 'unknown', platformLabel: '?', crossNode: 'unknown' },
        remoteSubnets: [],
        hostRoutes: [],
        remoteEndpoints: [],
        localPods: [],
        lbs: { keys: [], dips: [], flags: [], lines: [], files: [] },
        kubeProxy: false,
        versions: {},
        k8sNodes: [],
        counts: {},
        errors: 0,
        warnings: 0,
        findings: [{ id: 'some-info', severity: 'info', title: 'Something worth knowing', count: 1 }],
        cniAdds: 0,
        cniAddP50Ms: null,
        cniAddP99Ms: null,
      }) as unknown as NodeDigest;
    const s = summarizeFleet([d('a'), d('b'), d('c')]);
    expect(s.common.map((c) => c.id)).toEqual(['some-info']);
    const text = formatFleetTail(s, { verbose: false });
    expect(text).not.toContain('common to most nodes: nothing');
    expect(text).toContain('common to most nodes: no error or warning (and 1 info finding: --verbose lists it)');
    expect(formatFleetTail(s, { verbose: true })).toContain('info    some-info  on every node: Something worth knowing');
  });
});
