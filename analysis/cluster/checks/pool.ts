// What should be the same on every node of one plugin: the pods' OutboundNAT ExceptionList (each
// plugin writes one list for the cluster: sig-windows-tools flannel configs, AgentBaker
// azurecnifunc.ps1, Calico winpol/windows_policy.go, the WMCO template — analysis/platform/facts.ts),
// the CNI config containerd loads, kube-proxy's flags, the Windows build (HNS and VFP ship with it) and
// the kubelet version. The odd nodes are named against the majority; a value every node has its own
// of (kube-proxy's --hostname-override, an overlay node's --source-vip) has no majority and is not
// reported.
import type { ClusterModel, ClusterNode } from '../types.ts';
import type { SourceRef } from '../../../parsers/types.ts';
import type { ClusterCheck, ClusterFinding } from './types.ts';
import { list, majorityOf, nodeEv, plural } from './majority.ts';

/** Nodes grouped by the plugin that built them (facts differ per plugin). */
function byPlugin(c: ClusterModel): ClusterNode[][] {
  const m = new Map<string, ClusterNode[]>();
  for (const n of c.nodes) m.set(n.identity.plugin, [...(m.get(n.identity.plugin) ?? []), n]);
  return [...m.values()];
}

function differs(
  c: ClusterModel,
  nodes: ClusterNode[],
  value: (n: ClusterNode) => { value: string; src?: SourceRef } | undefined,
  make: (odd: { node: ClusterNode; value: string; src?: SourceRef }[], majority: { value: string; nodes: ClusterNode[]; src?: SourceRef }) => Omit<ClusterFinding, 'nodes' | 'evidence'>,
  /** What to look for from the evidence line on (the exact line inside an object). */
  needle?: (value: string) => string | undefined,
): ClusterFinding[] {
  const vals = nodes.map((n) => ({ n, v: value(n) })).filter((x): x is { n: ClusterNode; v: { value: string; src?: SourceRef } } => !!x.v);
  const m = majorityOf(vals.map((x) => ({ node: x.n.id, value: x.v.value })));
  if (!m || !m.odd.length) return [];
  const odd = vals.filter((x) => x.v.value !== m.value).map((x) => ({ node: x.n, value: x.v.value, src: x.v.src }));
  const maj = vals.filter((x) => x.v.value === m.value);
  const [first] = maj;
  if (!first) return [];
  const f = make(odd, { value: m.value, nodes: maj.map((x) => x.n), src: first.v.src });
  return [
    {
      ...f,
      evidence: [...odd.slice(0, 5).map((o) => nodeEv(c, o.node, o.src ?? { file: '', line: 0 }, needle?.(o.value))), nodeEv(c, first.n, first.v.src ?? { file: '', line: 0 }, needle?.(m.value))].filter((e) => e.file),
      nodes: { odd: odd.map((o) => o.node.id), majority: maj.map((x) => x.n.id), majorityValue: m.value, total: vals.length },
    },
  ];
}

const split = (l: string) => l.split(', ').filter(Boolean);

export const poolCheck: ClusterCheck = {
  id: 'cluster-pool',
  ids: ['cluster-exceptions-differ', 'cluster-cni-config-differs', 'cluster-kube-proxy-flag-differs', 'cluster-windows-build-differs', 'cluster-kubelet-version-differs', 'cluster-plugin-differs'],
  title: 'What every node of a pool should share',
  assumes: 'one network plugin configuration, one kube-proxy configuration and one Windows build per node pool',
  run(c) {
    const out: ClusterFinding[] = [];
    // Another plugin than the others: everything else is compared within a plugin.
    out.push(
      ...differs(
        c,
        c.nodes.filter((n) => n.identity.plugin !== 'unknown'),
        (n) => ({ value: n.identity.platformLabel, src: n.identity.src }),
        (odd, maj) => ({
          id: 'cluster-plugin-differs',
          severity: 'warning',
          area: 'hns',
          title: `${list(odd.map((o) => o.node.id))} ${odd.length > 1 ? 'run' : 'runs'} ${list([...new Set(odd.map((o) => o.value))])}; ${maj.nodes.length} nodes run ${maj.value}`,
          explanation: `The bundles say these nodes were built by another network plugin (or mode) than the rest. Mixed pools happen (a migration, a second node pool), but pods on nodes of different plugins reach each other only if both sides know the other's routes.`,
          fix: 'Check the odd nodes belong to this cluster and pool; if they should run the same plugin, reinstall its CNI and agent there.',
          objects: odd.map((o) => o.node.id),
        }),
      ),
    );
    for (const group of byPlugin(c)) {
      out.push(
        ...differs(
          c,
          group,
          (n) => (n.digest.exceptions ? { value: n.digest.exceptions.list, src: n.digest.exceptions.src } : undefined),
          (odd, maj) => {
            const want = split(maj.value);
            const lacking = [...new Set(odd.flatMap((o) => want.filter((w) => !split(o.value).includes(w))))];
            const more = [...new Set(odd.flatMap((o) => split(o.value).filter((x) => !want.includes(x))))];
            return {
              id: 'cluster-exceptions-differ',
              severity: lacking.length ? 'error' : 'warning',
              area: 'hns',
              title: `${list(odd.map((o) => o.node.id))}: pods' OutBoundNAT exceptions ${[lacking.length ? `lack ${list(lacking, 4)}` : '', more.length ? `add ${list(more, 4)}` : ''].filter(Boolean).join(' and ')} (${maj.nodes.length} nodes: ${maj.value})`,
              explanation: `Every node of ${group[0]?.identity.platformLabel ?? 'this platform'} gives its pods the same ExceptionList: the ranges pods reach with their own address. ${plural(maj.nodes.length, 'node')} exempt ${maj.value}; ${list(odd.map((o) => `${o.node.id}: ${o.value || '(none)'}`), 3)}.${lacking.length ? ` Pods on ${odd.length > 1 ? 'those nodes' : 'that node'} are SNATed to the node address when they talk to ${list(lacking, 4)}: peers see the node, not the pod (network policies and return paths that expect pod addresses break).` : ' Traffic to the extra ranges leaves with the pod address, which the network there must route back.'}`,
              fix: `Make the odd node's CNI config (its ExceptionList / Exceptions) the same as the others', then recreate its pods' endpoints (they keep the policy they were created with).`,
              objects: [...lacking, ...more, ...odd.map((o) => o.node.id)],
            };
          },
          (v) => (split(v)[0] ? 'Exception' : undefined),
        ),
        ...differs(
          c,
          group,
          (n) => (n.digest.cni ? { value: n.digest.cni.shape, src: n.digest.cni.src } : undefined),
          (odd, maj) => ({
            id: 'cluster-cni-config-differs',
            severity: 'warning',
            area: 'cni',
            title: `${list(odd.map((o) => o.node.id))} load${odd.length > 1 ? '' : 's'} another CNI config than ${maj.nodes.length} other nodes`,
            explanation: `containerd loads ${maj.value} on ${plural(maj.nodes.length, 'node')}; ${list(odd.map((o) => `${o.node.id}: ${o.value}`), 3)}. A node that loads another config creates pods differently (another plugin version, IPAM or mode).`,
            fix: "Deploy the same CNI config to the odd node (the plugin's installer or DaemonSet writes it) and restart containerd.",
            objects: odd.map((o) => o.node.id),
          }),
        ),
      );
      // kube-proxy flags, one by one.
      const names = new Set<string>();
      for (const n of group) for (const k of Object.keys(n.digest.kubeProxyFlags?.flags ?? {})) names.add(k);
      for (const name of [...names].sort()) {
        out.push(
          ...differs(
            c,
            group.filter((n) => n.digest.kubeProxyFlags),
            (n) => ({ value: n.digest.kubeProxyFlags!.flags[name] ?? '(not printed)', src: { file: n.digest.kubeProxyFlags!.file, line: 0 } }),
            (odd, maj) => ({
              id: 'cluster-kube-proxy-flag-differs',
              severity: 'warning',
              area: 'lb',
              title: `kube-proxy --${name}: ${list(odd.map((o) => `${o.node.id} "${o.value}"`), 3)}; ${maj.nodes.length} nodes "${maj.value}"`,
              explanation: `kube-proxy prints its flags when it starts (FLAG: --name="value", at verbosity 1). --${name} is "${maj.value}" on ${plural(maj.nodes.length, 'node')} and differs on ${list(odd.map((o) => o.node.id))}: load balancers on the odd nodes may be programmed differently (DSR, source VIP, feature gates).`,
              fix: "Start kube-proxy with the same arguments on every node of the pool (its service definition or DaemonSet), then restart it on the odd nodes.",
              objects: [name, ...odd.map((o) => o.node.id)],
            }),
          ),
        );
      }
      // The update build revision (UBR) is in a bundle only when its collector wrote it (parsers/model/
      // assemble.ts): with a node whose revision is not known (0), the builds are compared without it.
      const revisionKnown = group.every((n) => !n.digest.versions.windows || /^\d+\.\d+\.\d+\.[1-9]\d*$/.test(n.digest.versions.windows));
      const buildOf = (v: string) => (revisionKnown ? v : v.split('.').slice(0, 3).join('.'));
      out.push(
        ...differs(
          c,
          group,
          (n) => (n.digest.versions.windows ? { value: buildOf(n.digest.versions.windows), src: { file: n.model?.files.find((f) => /(^|\/)winver\.txt$/i.test(f.name))?.name ?? 'winver.txt', line: 0 } } : undefined),
          (odd, maj) => ({
            id: 'cluster-windows-build-differs',
            severity: 'warning',
            area: 'node',
            title: `${list(odd.map((o) => `${o.node.id} (${o.value})`), 3)} run${odd.length > 1 ? '' : 's'} another Windows build than ${maj.nodes.length} nodes (${maj.value})`,
            explanation: `HNS, VFP and the vSwitch ship with Windows: a node on another build programs the same policies with other code (and other fixes). Behaviour that differs on these nodes only is often a build difference.${odd.every((o) => buildOf(o.value).split('.').slice(0, 3).join('.') === maj.value.split('.').slice(0, 3).join('.')) ? ' Here the release is the same and the update build revision (the last number: the monthly cumulative update) differs.' : ''}`,
            fix: 'Bring the pool to one build (node image upgrade / reimage), or compare the odd node with a healthy one (hnsight diff).',
            objects: odd.map((o) => o.node.id),
          }),
        ),
        ...differs(
          c,
          group,
          (n) => (n.digest.versions.kubelet ? { value: n.digest.versions.kubelet, src: n.digest.versions.kubeletSrc } : undefined),
          (odd, maj) => ({
            id: 'cluster-kubelet-version-differs',
            severity: 'warning',
            area: 'node',
            title: `${list(odd.map((o) => `${o.node.id} (${o.value})`), 3)}: another kubelet than ${maj.nodes.length} nodes (${maj.value})`,
            explanation: 'The kubelet (and usually kube-proxy with it) is of another version on these nodes: an upgrade that did not finish.',
            fix: 'Finish the node pool upgrade.',
            objects: odd.map((o) => o.node.id),
          }),
        ),
      );
    }
    return out;
  },
};
