// Error messages kubelet, containerd and CNI plugins print for the known CNI failures (the containerd
// CNI debugging post), each with its cause and fix; and the HNS error codes (0x803b002f, 0x57, …)
// with what they mean, from the one explainer the log reader uses too (parsers/hns/errors.ts).
import { knownHnsErrors, type HnsErrorInfo } from '../../parsers/hns/errors.ts';

export interface KnownError {
  id: string;
  test: RegExp;
  title: string;
  cause: string;
  fix: string;
}

/** The HNS / Win32 codes explained well enough to be a finding of their own. */
const EXPLAINED: HnsErrorInfo[] = knownHnsErrors().filter((e) => e.hint !== undefined && e.fix !== undefined);

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every spelling of every explained code, as one alternation (built from constants, not input). */
function codeAlternatives(): string {
  return EXPLAINED.flatMap((e) => e.spellings.map((x) => (x.startsWith('(') ? escapeRe(x) : `\\b${escapeRe(x)}\\b`))).join('|');
}

/** `HCN_E_ADDR_INVALID_OR_RESERVED` → `log-hns-addr-invalid-or-reserved`, `ERROR_NOT_FOUND` → `log-win32-not-found`. */
export function knownErrorId(e: HnsErrorInfo): string {
  const m = /^(?:HCN_E_|GCN_E_|HCN_)(.*)$/.exec(e.name);
  return m?.[1] !== undefined ? `log-hns-${m[1].toLowerCase().replace(/_/g, '-')}` : `log-win32-${e.name.replace(/^ERROR_/, '').toLowerCase().replace(/_/g, '-')}`;
}

/** The finding text of a code: what Windows says it is, what it means on a node, what to do. */
export function explainErrorCode(e: HnsErrorInfo): { title: string; cause: string; fix: string } {
  return {
    title: `HNS answered ${e.name} (${e.code}): ${e.description.replace(/\.$/, '')}`,
    cause: `${e.description} (${e.name}, ${e.code}; HNS and Windows print the same code as ${e.spellings.filter((x) => x !== e.code).map((x) => x.replace(/[()]/g, '')).join(' or ')}). ${e.hint ?? ''}`.trim(),
    fix: e.fix ?? 'Read which HNS call failed in the line and check the Microsoft-Windows-Host-Network-Service-Admin event log around that time.',
  };
}

function knownErrorOf(e: HnsErrorInfo): KnownError {
  const spell = e.spellings.map((x) => (x.startsWith('(') ? escapeRe(x) : `\\b${escapeRe(x)}\\b`)).join('|');
  return { id: knownErrorId(e), test: new RegExp(spell, 'i'), ...explainErrorCode(e) };
}

export const KNOWN_ERRORS: KnownError[] = [
  {
    id: 'log-cni-not-initialized',
    test: /cni plugin not initialized|NetworkPluginNotReady|network plugin is not ready|no network config found in/i,
    title: 'The container runtime has no CNI configuration (cni plugin not initialized)',
    cause: 'containerd found no usable .conf/.conflist in its CNI conf_dir (or could not parse the first one), so the node reports NetworkReady=false and no pod sandbox can get a network.',
    fix: 'Check `conf_dir`/`bin_dir` under [plugins."io.containerd.grpc.v1.cri".cni] in containerd\'s config.toml (Windows: C:\\etc\\cni\\net.d or C:\\k\\cni\\config, C:\\opt\\cni\\bin), that the CNI agent (flannel, Antrea, Calico, Azure CNI) wrote its config there and that it is valid JSON with the right extension; then `Restart-Service containerd`.',
  },
  {
    id: 'log-cni-no-plugins-key',
    test: /no 'plugins' key/i,
    title: "A .conflist without a 'plugins' key",
    cause: "libcni reads a .conflist as a list and requires `plugins`; a single-plugin config saved with the .conflist extension fails to load (\"error parsing configuration list: no 'plugins' key\").",
    fix: 'Rename the file to .conf, or wrap the plugin in `{"cniVersion": …, "name": …, "plugins": [ { …the plugin… } ]}`.',
  },
  {
    id: 'log-cni-plugin-not-found',
    test: /failed to find plugin "[^"]*" in path/i,
    title: 'The CNI plugin binary is not in the bin directory',
    cause: 'The `type` of a plugin in the loaded config names an executable that is not in containerd\'s bin_dir (on Windows the file must be <type>.exe).',
    fix: 'Copy the plugin executable into bin_dir (C:\\opt\\cni\\bin or C:\\k\\cni) or fix the `type`; check `bin_dir` in containerd\'s config.toml.',
  },
  {
    id: 'log-cni-no-network-info',
    test: /failed to find network info for sandbox/i,
    title: 'The CNI result had no IP for the pod interface',
    cause: 'containerd looks for the IPs of the default interface (eth0) in the CNI ADD result; the plugin returned success without IPs on it, so the sandbox is torn down.',
    fix: 'Make the plugin return the pod IP on interface eth0 (check the result in the containerd debug log "cni result: …" and the plugin\'s cniVersion/result format).',
  },
  {
    id: 'log-cni-add-failed',
    test: /failed to setup network for sandbox|plugin type="[^"]*".* failed \(add\)/i,
    title: 'CNI ADD failed for a pod sandbox',
    cause: 'The CNI plugin returned an error for ADD (the message after `failed (add):` is the plugin\'s), so the pod stays in ContainerCreating with FailedCreatePodSandBox.',
    fix: 'Read the plugin\'s message in the line and the CNI agent log around that time; common causes on Windows: HNS network missing (flannel/agent not ready), IPAM out of addresses, a typo in the CNI config.',
  },
  {
    id: 'log-hns-error',
    // A line that names a code explained below is reported under that code instead.
    test: new RegExp(`^(?![\\s\\S]*(?:${codeAlternatives()}))[\\s\\S]*(?:hnsCall failed|HNS failed with error|hcnCreateEndpoint|The object already exists|Element not found\\.?|The endpoint was not found|failed to create endpoint)`, 'i'),
    title: 'HNS returned an error while programming the network',
    cause: 'A call to HNS (create/modify endpoint, network or load balancer) failed: typically a stale object with the same name/ID ("already exists"), a network removed under a running agent ("Element not found"), or HNS restarting.',
    fix: 'Check `Get-HnsNetwork`/`Get-HnsEndpoint` for leftovers, remove stale objects (`Remove-HnsEndpoint`, `Get-HnsPolicyList | Remove-HnsPolicyList`), restart the agent (kube-proxy/flanneld/CNI) and look at the Microsoft-Windows-Host-Network-Service-Admin event log.',
  },
  {
    id: 'log-cni-timeout',
    test: /context deadline exceeded.*(cni|sandbox|network)|(cni|sandbox|network).*context deadline exceeded/i,
    title: 'A CNI call timed out',
    cause: 'The CNI ADD/DEL did not finish before kubelet\'s runtime request timeout (2 min by default): the plugin or HNS is stuck or very slow.',
    fix: 'Use the CNI ADD timeline to see where the time goes; check the CNI agent and HNS; restarting the agent usually clears a stuck call.',
  },
  ...EXPLAINED.map(knownErrorOf),
];
