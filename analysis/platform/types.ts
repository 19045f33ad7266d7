// Which network plugin (and mode) and which cloud built the node, how sure hnsight is, and the
// bundle lines that say so. Checks rely on per-plugin facts (facts.ts), so a wrong guess here means
// wrong findings: the detector says "low" or "unknown" rather than guessing silently.

/** Network plugins and modes hnsight knows the facts of (research: platforms.md §1–2). */
export type PluginId =
  | 'flannel-host-gw'
  | 'flannel-vxlan'
  | 'azure-cni'
  | 'azure-cni-overlay'
  | 'azure-cni-pod-subnet'
  | 'eks-vpc-bridge'
  | 'calico-vxlan'
  | 'calico-bgp'
  | 'antrea'
  | 'ovn-kubernetes'
  | 'nat'
  | 'unknown';

export const PLUGINS: readonly Exclude<PluginId, 'unknown'>[] = [
  'flannel-host-gw',
  'flannel-vxlan',
  'azure-cni',
  'azure-cni-overlay',
  'azure-cni-pod-subnet',
  'eks-vpc-bridge',
  'calico-vxlan',
  'calico-bgp',
  'antrea',
  'ovn-kubernetes',
  'nat',
];

/**
 * high: two or more independent kinds of evidence agree and none disagrees. medium: one strong kind
 * (the pod network's name and type, or the CNI config) and nothing against it. low: only weak hints,
 * or hints that disagree. A check that relies on the plugin's facts speaks at most a warning at low.
 */
export type Confidence = 'high' | 'medium' | 'low';

export interface PlatformEvidence {
  file: string;
  /** 1-based; 0 for the file as a whole (its name is the evidence). */
  line: number;
  text: string;
  /** What this line says, in words (`HNS network "cbr0" of type L2Bridge: Flannel host-gw's network`). */
  says: string;
  /** The plugins it points to (several: Azure CNI without its mode), empty for a cloud hint. */
  plugins: PluginId[];
  /** Kind of evidence; two of the same kind count once towards confidence. */
  kind: 'hns-network' | 'hns-endpoint' | 'cni-config' | 'side-file' | 'log' | 'kube-proxy' | 'addressing' | 'cloud';
  /** 3 strong (names the plugin), 2 good, 1 hint. */
  weight: number;
}

export interface SkippedCheck {
  /** Check module id (analysis/checks). */
  id: string;
  title: string;
  reason: string;
}

export interface Platform {
  plugin: PluginId;
  /** `Azure CNI Overlay`, `Flannel host-gw`, `Unknown network plugin`. */
  label: string;
  /** The cloud or distribution when the bundle says (AKS, aks-engine, EKS, OpenShift, RKE2). */
  cloud?: string;
  confidence: Confidence;
  /** The HNS network that holds the pods. */
  podNetwork?: { name: string; type: string };
  evidence: PlatformEvidence[];
  /** Evidence that points elsewhere (why confidence is not higher). */
  conflicts: PlatformEvidence[];
  /** The facts the checks rely on for this plugin, in words, with their sources. */
  facts: { topic: string; fact: string; source: string }[];
  /** Filled by the checks runner: what did not run here and why, and what only warns. */
  checks?: { skipped: SkippedCheck[]; hedged: string[] };
}
