// The cluster workspace's store over a fake API: it opens the folder the app was started with, fetches
// the graph, walks across nodes asking for the reply, keeps an error in words, and ignores an older
// open that ends after a newer one.
import { describe, expect, it } from 'vitest';
import { createClusterStore, type ClusterDeps } from '../../../renderer/src/cluster/cluster.ts';
import { clusterFlow } from '../../../renderer/src/cluster/cluster-flow.ts';
import type { AppInfo, Response } from '../../../contract/index.ts';

const opened = (id: string): Response<'openCluster'> => ({ clusterId: id, location: '/b', nodes: [], joins: 0, unresolved: 0, findings: [], failed: [], skipped: [] });
const graph: Response<'getClusterGraph'> = {
  podsShown: 12,
  nodes: [
    { id: 'cnode:a', kind: 'node', label: 'a' },
    { id: 'cpod:a:10.0.0.5', kind: 'pod', label: '10.0.0.5', parent: 'cnode:a' },
    { id: 'cnode:b', kind: 'node', label: 'b', odd: 1 },
    { id: 'cnowhere:10.9.9.9', kind: 'nowhere', label: '10.9.9.9' },
  ],
  edges: [
    { id: 'cpath:a>b', source: 'cnode:a', target: 'cnode:b', label: 'VXLAN 10.1.0.2', kind: 'vxlan' },
    { id: 'cpath:b>nowhere:10.9.9.9', source: 'cnode:b', target: 'cnowhere:10.9.9.9', label: 'VXLAN 10.9.9.9', kind: 'unresolved' },
  ],
};

function fake(over: Partial<ClusterDeps['api']> = {}) {
  const calls: string[] = [];
  const api: ClusterDeps['api'] = {
    openCluster: async ({ path, paths }) => (calls.push(path ? `open ${path}` : `open ${paths!.join(' + ')}`), opened('c1')),
    localPaths: async (files) => (calls.push(`paths ${files.map((f) => f.name).join(',')}`), files.map((f) => `/up/${f.name}`)),
    getClusterGraph: async ({ clusterId }) => (calls.push(`graph ${clusterId}`), graph),
    walkAcross: async (req) => (calls.push(`walk ${req.clusterId} ${req.srcIp}>${req.dstIp} reply=${req.reply}`), { lit: ['cnode:a'] } as unknown as Response<'walkAcross'>),
    ...over,
  };
  return { calls, store: createClusterStore({ api }) };
}

describe('cluster store', () => {
  it('several files dropped or picked together open as one cluster: their paths first, then the cluster and its graph', async () => {
    const { calls, store } = fake();
    const files = ['a.zip', 'b.zip', 'c.zip'].map((n) => new File([new Uint8Array([0x50, 0x4b])], n));
    await store.getState().openFiles(files);
    expect(calls).toEqual(['paths a.zip,b.zip,c.zip', 'open /up/a.zip + /up/b.zip + /up/c.zip', 'graph c1']);
    expect(store.getState().opened?.clusterId).toBe('c1');
  });

  it('an upload that fails is said in words and nothing is opened', async () => {
    const { calls, store } = fake({ localPaths: async () => Promise.reject(new Error('upload of b.zip: the file is larger than the upload limit')) });
    await store.getState().openFiles([new File(['x'], 'a.zip'), new File(['y'], 'b.zip')]);
    expect(store.getState()).toMatchObject({ opening: false, error: 'upload of b.zip: the file is larger than the upload limit' });
    expect(calls).toEqual([]);
  });

  it('opens the folder the app was started with, then its graph; walks with the reply', async () => {
    const { calls, store } = fake();
    await store.getState().initFrom({ initialCluster: '/b' } as AppInfo);
    expect(store.getState().opened?.clusterId).toBe('c1');
    expect(store.getState().graph).toBe(graph);
    await store.getState().walkAcross({ srcIp: '10.0.0.5', dstIp: '10.0.1.5', dstPort: 80, proto: 'tcp' });
    expect(calls).toEqual(['open /b', 'graph c1', 'walk c1 10.0.0.5>10.0.1.5 reply=true']);
    expect(store.getState().walk?.lit).toEqual(['cnode:a']);
  });

  it('without a folder to open, does nothing; a refusal is kept in words', async () => {
    const { calls, store } = fake({ openCluster: async () => Promise.reject(new Error('/b is one bundle')) });
    await store.getState().initFrom({} as AppInfo);
    expect(calls).toEqual([]);
    await store.getState().open('/b');
    expect(store.getState()).toMatchObject({ opening: false, error: '/b is one bundle' });
    expect(store.getState().opened).toBeUndefined();
  });

  it('a refused open is said where the user looks (no cluster is on screen to hold the error)', async () => {
    const said: string[] = [];
    const api: ClusterDeps['api'] = {
      openCluster: async () => Promise.reject(new Error('refused: /x is not a bundle you chose')),
      localPaths: async () => [],
      getClusterGraph: async () => graph,
      walkAcross: async () => ({}) as Response<'walkAcross'>,
    };
    const store = createClusterStore({ api, notify: (m) => said.push(m) });
    await store.getState().open('/x');
    expect(said).toEqual(['The bundles could not be opened as a cluster: refused: /x is not a bundle you chose']);
  });

  it('an older open that ends last does not replace the newer one', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const { store } = fake({
      openCluster: async ({ path }) => {
        if (path === '/old') await slow;
        return opened(path === '/old' ? 'old' : 'new');
      },
    });
    const first = store.getState().open('/old');
    await store.getState().open('/new');
    release();
    await first;
    expect(store.getState().opened?.clusterId).toBe('new');
  });
});

describe('cluster graph for React Flow', () => {
  it('groups with their items inside, paths as edges, what is lit marked', () => {
    const f = clusterFlow(graph, new Set(['cnode:a', 'cpath:a>b']));
    expect(f.nodes.find((n) => n.id === 'cnode:a')).toMatchObject({ type: 'clusterGroup', className: expect.stringContaining('cluster-lit') });
    expect(f.nodes.find((n) => n.id === 'cnode:b')?.className).toContain('cluster-odd');
    expect(f.nodes.find((n) => n.id === 'cpod:a:10.0.0.5')).toMatchObject({ parentId: 'cnode:a', extent: 'parent' });
    expect(f.nodes.find((n) => n.id === 'cnowhere:10.9.9.9')?.parentId).toBeUndefined();
    expect(f.edges.map((e) => [e.id, e.className?.includes('cluster-lit')])).toEqual([['cpath:a>b', true], ['cpath:b>nowhere:10.9.9.9', false]]);
  });
});
