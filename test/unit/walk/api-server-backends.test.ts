// The kubernetes Service's backends told from the HNS load balancers alone (remote-pod.ts
// apiServerBackends): kube-apiserver gives default/kubernetes the first address of the Service range,
// port 443 (kubernetes pkg/controlplane ServiceIPRange); kubeadm's API server listens on 6443. With the
// range named (kubeclusterconfig.json), the first address decides; without it, an address ending in .0.1
// whose 443 goes to 6443. Anything else is not guessed at.
import { describe, expect, it } from 'vitest';
import { apiServerBackends, remoteIsPod, remoteWords } from '../../../analysis/walk/remote-pod.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { load } from './helpers.ts';

type Lb = { vips: string[]; ports: { protocol: number; internalPort: number; externalPort: number }[]; endpointIds: string[] };
const model = (lbs: Lb[], range?: string): NodeModel => {
  const base = load('assets/demo/l2bridge-node');
  const eps = [{ ...base.endpoints![0], id: 'API', ip: '192.168.1.10', isRemote: true }, { ...base.endpoints![0], id: 'POD', ip: '10.244.5.7', isRemote: true }];
  const files = range ? [{ ...base.files[0], name: 'kubeclusterconfig.json' }] : [];
  const text = range ? { find: (_f: string, _l: number, pred: (l: string) => boolean) => (pred(`"ServiceCidr": "${range}"`) ? { text: `"ServiceCidr": "${range}"`, line: 3 } : undefined) } : undefined;
  return { ...base, endpoints: eps as NodeModel['endpoints'], loadBalancers: lbs.map((l, i) => ({ ...base.loadBalancers![0], id: `lb${i}`, ...l })), files: files as NodeModel['files'], text: text as unknown as NodeModel['text'] };
};
const lb = (vip: string, ext: number, int: number, ids = ['API'], protocol = 6): Lb => ({ vips: [vip], ports: [{ protocol, externalPort: ext, internalPort: int }], endpointIds: ids });

describe('apiServerBackends', () => {
  it('the l2bridge demo: 10.96.0.1:443 → 6443 names 10.240.255.5', () => {
    expect([...apiServerBackends(load('assets/demo/l2bridge-node'))]).toEqual(['10.240.255.5']);
  });
  it('without a named range: .0.1, TCP 443 → 6443 only', () => {
    expect([...apiServerBackends(model([lb('10.96.0.1', 443, 6443)]))]).toEqual(['192.168.1.10']);
    expect(apiServerBackends(model([lb('10.96.0.1', 443, 443)])).size).toBe(0);
    expect(apiServerBackends(model([lb('10.96.3.1', 443, 6443)])).size).toBe(0);
    expect(apiServerBackends(model([lb('10.96.0.1', 443, 6443, ['API'], 17)])).size).toBe(0);
  });
  it('with a named range: its first address on TCP 443, whatever the backend port', () => {
    expect([...apiServerBackends(model([lb('10.0.0.1', 443, 443)], '10.0.0.0/16'))]).toEqual(['192.168.1.10']);
    expect(apiServerBackends(model([lb('10.96.0.1', 443, 6443)], '10.0.0.0/16')).size).toBe(0);
    expect(apiServerBackends(model([lb('10.0.0.10', 443, 443, ['POD'])], '10.0.0.0/16')).size).toBe(0);
  });
});

// On Azure CNI and EKS the pod network the bundle shows can hold the API server too (the VNet or VPC,
// AKS API Server VNet Integration): the kubernetes Service's backend is still no pod (review2).
describe('the API server inside a range the bundle calls the pod network', () => {
  it('is not a pod, in the API server words', () => {
    const base = load('assets/demo/l2bridge-node');
    const m: NodeModel = { ...base, networks: (base.networks ?? []).map((n, i) => (i === 0 ? { ...n, remoteSubnetRoutes: [...n.remoteSubnetRoutes, { ...(n.remoteSubnetRoutes[0] ?? {}), destinationPrefix: '10.240.0.0/16' } as (typeof n.remoteSubnetRoutes)[number]] } : n)) };
    const ctx = walkContext(m);
    const ep = m.endpoints!.find((e) => e.ip === '10.240.255.5')!;
    expect(remoteIsPod(ctx, ep)).toBe(false);
    expect(remoteWords(false, ep.ip!, 'x', ctx)).toMatch(/the API server, not a pod \(inferred/);
  });
});
