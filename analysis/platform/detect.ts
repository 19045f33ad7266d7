// Names the network plugin (and mode) and the cloud from the bundle's evidence (signals.ts), and says
// how sure it is. Pure and cached per model: the checks, the inspect document and the reports all
// ask for it.
import type { NodeModel } from '../../parsers/model/types.ts';
import { platformName } from './name.ts';
import { FACTS, factList } from './facts.ts';
import { collectSignals, podNetworkOf } from './signals.ts';
import { PLUGINS, type Confidence, type Platform, type PlatformEvidence, type PluginId } from './types.ts';

const cache = new WeakMap<NodeModel, Platform>();

/** Families with several modes, by the name the family goes by when the mode is not known. */
const MODES: Partial<Record<string, string>> = { azure: 'Azure CNI', calico: 'Calico', flannel: 'Flannel' };

/** The node's own IPv4 address: the pod network's management IP, else the host vNIC's address. */
export function nodeAddress(m: NodeModel): string | undefined {
  const pod = podNetworkOf(m);
  const mgmt = pod?.managementIp ?? (m.networks ?? []).find((n) => n.managementIp && !/^169\.254\./.test(n.managementIp))?.managementIp;
  if (mgmt && !/^169\.254\./.test(mgmt)) return mgmt;
  const host = m.ip?.compartments.find((c) => c.id === 1) ?? m.ip?.compartments[0];
  // Antrea moves the host adapter's IP, MAC and routes to the OVS bridge's internal interface, br-int
  // (antrea-io/antrea docs/design/windows-design.md: "the original networking configuration … on the host
  // network adapter is moved to this new interface").
  const usable = (x: { ipv4: { address: string }[]; gateways: string[] }) => x.ipv4.some((i) => !/^169\.254\./.test(i.address)) && x.gateways.length > 0;
  const a = host?.adapters.find((x) => /^vEthernet \((?!nat\)|HNS Internal)/i.test(x.name) && usable(x)) ?? host?.adapters.find((x) => /^br-int$/i.test(x.name) && usable(x));
  return a?.ipv4.find((i) => !/^169\.254\./.test(i.address))?.address;
}

export function detectPlatform(m: NodeModel): Platform {
  const hit = cache.get(m);
  if (hit) return hit;
  const signals = collectSignals(m, nodeAddress(m));
  const score = new Map<PluginId, number>();
  for (const s of signals) for (const p of s.plugins) score.set(p, (score.get(p) ?? 0) + s.weight / s.plugins.length + (s.plugins.length === 1 ? s.weight * 0.01 : 0));
  // Ties between a family's modes (an `azure` network and azure-vnet.log fit both Azure modes) are
  // broken by the evidence that names one mode; the sum above gives a tiny edge to single-plugin lines.
  let best: PluginId = 'unknown';
  let bestScore = 0;
  for (const p of PLUGINS) {
    const s = score.get(p) ?? 0;
    if (s > bestScore) {
      best = p;
      bestScore = s;
    }
  }
  // Hints that fit plugins of several families (an overlay network, a pod CIDR apart from the node
  // subnet) narrow the choice but name no plugin: with nothing else, the plugin is not known.
  const familyOf = (p: PluginId) => (p === 'unknown' ? p : FACTS[p].family);
  const hints = signals.filter((s) => new Set(s.plugins.map(familyOf)).size > 1);
  if (best !== 'unknown' && !signals.some((s) => s.plugins.includes(best) && new Set(s.plugins.map(familyOf)).size === 1)) best = 'unknown';
  const cloud = cloudOf(signals, best);
  const pod = podNetworkOf(m);
  const podNetwork = pod ? { name: pod.name, type: pod.type } : undefined;
  if (best === 'unknown') {
    const out: Platform = { plugin: 'unknown', label: 'Unknown network plugin', cloud, confidence: 'low', podNetwork, evidence: [...hints, ...signals.filter((s) => s.kind === 'cloud' && !!cloud && s.says.startsWith(cloud.split(' ')[0] ?? cloud))], conflicts: [], facts: [] };
    cache.set(m, out);
    return out;
  }
  const fam = FACTS[best].family;
  const sameFamily = (p: PluginId) => p !== 'unknown' && p !== 'nat' && FACTS[p].family === fam;
  const support = signals.filter((s) => s.plugins.includes(best));
  // Evidence for another plugin only; AKS runs Calico as network policy on top of Azure CNI
  // (AgentBaker calicofunc.ps1:132-136), so Calico files are no argument against Azure.
  const against = signals.filter((s) => s.plugins.length && !s.plugins.includes(best) && !(fam === 'azure' && s.plugins.every((p) => p.startsWith('calico'))));
  const strongAgainst = against.filter((s) => s.weight >= 2 && !s.plugins.some(sameFamily));
  const kinds = new Set(support.filter((s) => s.weight >= 2).map((s) => s.kind));
  const strongest = Math.max(0, ...support.map((s) => s.weight));
  let confidence: Confidence;
  if (kinds.size >= 2 && strongest >= 3) confidence = 'high';
  else if (strongest >= 3 || kinds.size >= 2) confidence = 'medium';
  else confidence = 'low';
  // Evidence for another plugin lowers confidence: to low when it is as strong as the winner's (a CNI
  // config or a network for another plugin), one step when it is weaker (a stray log file).
  if (strongAgainst.length) {
    const maxAgainst = Math.max(...strongAgainst.map((x) => x.weight));
    const totalAgainst = strongAgainst.reduce((n, x) => n + x.weight, 0);
    confidence = maxAgainst >= strongest || totalAgainst * 2 >= bestScore ? 'low' : confidence === 'high' ? 'medium' : 'low';
  }
  // The mode: named by a line that points to this mode and no other of its family, or only hinted by
  // the addressing (pod subnet inside or outside the node's subnet), or not known at all. A mode from
  // the addressing alone is said to be inferred; without a mode the label is the family's name. Either
  // way the checks rely on one mode's facts, so confidence stays below high.
  const modes = MODES[fam];
  let label = FACTS[best].label;
  if (modes) {
    const picks = (s: PlatformEvidence) => s.plugins.filter(sameFamily).every((p) => p === best);
    const named = support.some((s) => s.kind !== 'addressing' && picks(s));
    const hinted = support.some((s) => s.kind === 'addressing' && picks(s));
    if (!named) {
      label = hinted ? (label.endsWith(')') ? `${label.slice(0, -1)}, inferred from the addressing)` : `${label} (inferred from the addressing)`) : `${modes} (mode not known)`;
      if (confidence === 'high') confidence = 'medium';
    }
    // A line that names another mode of the family (the config says Overlay, the addressing says VNet
    // subnet) puts this mode's facts in doubt: one step down, and to low when it is as strong as the
    // strongest line naming this mode. The line is shown among the conflicts.
    const otherMode = against.filter((s) => s.plugins.some(sameFamily));
    if (otherMode.length) {
      const forMode = Math.max(0, ...support.filter(picks).map((s) => s.weight));
      confidence = Math.max(...otherMode.map((s) => s.weight)) >= forMode ? 'low' : confidence === 'high' ? 'medium' : 'low';
    }
  }
  const out: Platform = {
    plugin: best,
    label,
    cloud,
    confidence,
    podNetwork,
    evidence: [...support.sort((a, b) => b.weight - a.weight), ...signals.filter((s) => s.kind === 'cloud' && !!cloud && s.says.startsWith(cloud.split(' ')[0] ?? cloud))],
    conflicts: against,
    facts: factList(best),
  };
  cache.set(m, out);
  return out;
}

function cloudOf(signals: PlatformEvidence[], best: PluginId): string | undefined {
  const c = signals.filter((s) => s.kind === 'cloud').map((s) => s.says);
  // A host name alone (akswin…, EC2AMAZ-…) names the cloud only when the plugin agrees.
  const byName = (s: string) => / host name /.test(s);
  if (c.some((s) => s.startsWith('AKS:') && (!byName(s) || best.startsWith('azure')))) return 'AKS';
  if (c.some((s) => s.startsWith('AKS or aks-engine'))) return best.startsWith('azure') ? 'AKS / aks-engine' : 'AKS / aks-engine (node setup files)';
  if (c.some((s) => s.startsWith('EKS') && (!byName(s) || best === 'eks-vpc-bridge'))) return 'EKS';
  if (best === 'eks-vpc-bridge') return 'EKS';
  if (best === 'ovn-kubernetes') return 'OpenShift (WMCO)';
  if (c.some((s) => s.startsWith('RKE2'))) return 'RKE2';
  if (best.startsWith('azure')) return 'Azure';
  return undefined;
}

/** One line for summaries: `Azure CNI Overlay on AKS (high confidence)`. */
export function platformLine(p: Platform): string {
  return `${platformName(p)} (${p.plugin === 'unknown' ? 'no evidence of a known plugin' : `${p.confidence} confidence`})`;
}
