// The error codes HNS/HCN answers with, as they appear in kubelet, kube-proxy, containerd and CNI
// logs: `hcnCreateEndpoint failed in Win32: An address provided is invalid or reserved. (0x803b002f)
// {"Success":false,"Error":"…","ErrorCode":2151350319}`. The message text is localized on
// non-English hosts (research sample kubelet-log-k0s-wrapped-hns-error-zh-TW, containernetworking/
// plugins#1004: the same line carries the English Win32 text and the zh-TW HNS text), so errors are
// recognised by their code, never by their words.
//
// Names and descriptions: Microsoft's HCN API reference, "HCN Error Code" (computenetwork.dll,
// MicrosoftDocs Virtualization-Documentation, ms.date 06/09/2021), the HCN_E_* values of winerror.h.
// Win32 codes: winerror.h (ERROR_INVALID_PARAMETER 87 = 0x57, ERROR_NOT_FOUND 1168 = 0x490, …);
// an HRESULT 0x8007XXXX carries Win32 error XXXX. What each means for a Kubernetes node (`hint`) is
// ours, from the corpus lines where they appear.

export interface HnsErrorInfo {
  /** Canonical code, lower-case hex: `0x803b002f`, or a Win32 code as `0x57`. */
  code: string;
  name: string;
  /** The description Windows gives. */
  description: string;
  /** What it usually means on a Kubernetes node. */
  hint?: string;
  /** What to do about it. */
  fix?: string;
  /** Every spelling of the code a log may use: hex HRESULT, decimal ErrorCode, short Win32 hex. */
  spellings: string[];
}

const FIXES: Record<string, string> = {
  HCN_E_NETWORK_NOT_FOUND: 'Check Get-HnsNetwork for the network the CNI config names (its "name" / the agent\'s network name); restart the network agent (flanneld, calico-node, azure-cns) so it recreates the network, then the pod.',
  HCN_E_ENDPOINT_NOT_FOUND: 'Restart kube-proxy (it rebuilds its endpoint cache from HNS); if pods fail, delete them so the runtime creates new endpoints.',
  HCN_E_SWITCH_NOT_FOUND: 'Check Get-VMSwitch and Get-HnsNetwork; remove the broken network (Remove-HnsNetwork) and let the agent recreate it.',
  HCN_E_SUBNET_NOT_FOUND: 'Compare the node\'s pod CIDR (kubectl get node -o jsonpath={.spec.podCIDR}) and the CNI ipam subnet with the HNS network\'s AddressPrefix; fix the config or recreate the network.',
  HCN_E_ADAPTER_NOT_FOUND: 'Check Get-NetAdapter for the adapter name the network agent uses (--iface, NetworkAdapterName, InterfaceName) and fix it there.',
  HCN_E_INVALID_POLICY: 'Find the policy in the line (or the CNI config\'s AdditionalArgs/policies) and correct it: valid CIDRs in ExceptionList, IPv6 entries only on a dual-stack capable build, flags the build supports.',
  HCN_E_NETWORK_ALREADY_EXISTS: 'Remove the stale network (Get-HnsNetwork | ? Name -eq <name> | Remove-HnsNetwork) or let the agent reuse it, then restart the agent.',
  HCN_E_POLICY_ALREADY_EXISTS: 'Remove stale policy lists (Get-HnsPolicyList | Remove-HnsPolicyList) and restart kube-proxy.',
  HCN_E_REQUEST_UNSUPPORTED: 'Check the Windows build against what the feature needs (DSR, IPv6, v2 schema), or turn the feature off in kube-proxy/the CNI config.',
  HCN_E_INVALID_IP: 'Compare the pod CIDR and the CNI ipam subnet with the HNS network\'s AddressPrefix.',
  HCN_E_SWITCH_EXTENSION_NOT_FOUND: 'Enable the VFP extension on the switch (Get-VMSwitchExtension / Enable-VMSwitchExtension) or recreate the network.',
  HCN_E_MANAGER_STOPPED: 'Check that HNS (hns service) is running and stable (its event log), then retry; the agent retries on its own.',
  GCN_E_NETADAPTER_TIMEOUT: 'Look at the host load and the containerd/CNI timings around the line (the CNI ADD timeline); retry the pod.',
  GCN_E_NETCOMPARTMENT_NOT_FOUND: 'Usually a race with a sandbox being torn down: check the sandbox\'s CNI ADD/DEL order in the timeline; retry the pod.',
  HCN_E_ICS_DISABLED: 'Set the SharedAccess (Internet Connection Sharing) service to Manual and start it, or use a network type that does not need ICS.',
  HCN_E_ADDR_INVALID_OR_RESERVED: 'Check kube-proxy\'s --source-vip: it must be an unused address inside this node\'s pod subnet; remove orphaned endpoints holding the address (Get-HnsEndpoint | ? IPAddress -eq <ip> | Remove-HnsEndpoint).',
  ERROR_INVALID_PARAMETER: 'Read which call failed in the line and check the value it was given (addresses, prefixes, policy fields) against the HNS network.',
  ERROR_ALREADY_EXISTS: 'Remove the leftover object (Get-HnsEndpoint / Get-HnsNetwork / Get-HnsPolicyList) and retry.',
  ERROR_NOT_FOUND: 'Check that the HNS network and endpoint still exist (Get-HnsNetwork, Get-HnsEndpoint); restart the agent that owns them.',
};

const HCN: [number, string, string, string?][] = [
  [0x01, 'HCN_E_NETWORK_NOT_FOUND', 'The network was not found', 'The HNS network the CNI plugin or kube-proxy names does not exist (yet): the network agent (flannel, Calico, Azure CNI) has not created it, or HNS was restarted and lost it. Check Get-HnsNetwork and the agent\'s log.'],
  [0x02, 'HCN_E_ENDPOINT_NOT_FOUND', 'The endpoint was not found', 'A stale endpoint ID: the endpoint was deleted (pod deleted, HNS restarted) while kube-proxy or the runtime still refers to it. Restarting kube-proxy resyncs its cache.'],
  [0x03, 'HCN_E_LAYER_NOT_FOUND', "The network's underlying layer was not found"],
  [0x04, 'HCN_E_SWITCH_NOT_FOUND', 'The virtual switch was not found', 'The vSwitch behind the HNS network is gone (Hyper-V switch removed or recreated). Recreate the network.'],
  [0x05, 'HCN_E_SUBNET_NOT_FOUND', 'The network does not have a subnet for this endpoint', 'The pod IP from IPAM is outside every subnet of the HNS network: the CNI config and the network (created by the agent) disagree on the pod CIDR.'],
  [0x06, 'HCN_E_ADAPTER_NOT_FOUND', 'An adapter was not found', 'The network adapter named for the HNS network (NetworkAdapterName / -InterfaceName) does not exist on this node, e.g. after a NIC rename.'],
  [0x07, 'HCN_E_PORT_NOT_FOUND', 'The switch-port was not found'],
  [0x08, 'HCN_E_POLICY_NOT_FOUND', 'An expected policy was not found'],
  [0x09, 'HCN_E_VFP_PORTSETTING_NOT_FOUND', 'A required VFP port setting was not found'],
  [0x0a, 'HCN_E_INVALID_NETWORK', 'The provided network configuration is invalid or missing parameters'],
  [0x0b, 'HCN_E_INVALID_NETWORK_TYPE', 'Invalid network type'],
  [0x0c, 'HCN_E_INVALID_ENDPOINT', 'The provided endpoint configuration is invalid or missing parameters'],
  [0x0d, 'HCN_E_INVALID_POLICY', 'The provided policy configuration is invalid or missing parameters', 'HNS rejected a policy the CNI plugin or kube-proxy sent: typically an OutBoundNAT ExceptionList or ACL entry this Windows build does not accept (an IPv6 prefix on a build without dual-stack, a malformed CIDR), or a load-balancer flag the build lacks. Compare the policy in the CNI config with what the build supports.'],
  [0x0e, 'HCN_E_INVALID_POLICY_TYPE', 'Invalid policy type'],
  [0x0f, 'HCN_E_INVALID_REMOTE_ENDPOINT_OPERATION', 'This requested operation is invalid for a remote endpoint'],
  [0x10, 'HCN_E_NETWORK_ALREADY_EXISTS', 'A network with this name already exists', 'A network of the same name survived from an earlier run (or another agent created it). Remove the stale network or let the agent reuse it.'],
  [0x11, 'HCN_E_LAYER_ALREADY_EXISTS', 'A network with this name already exists'],
  [0x12, 'HCN_E_POLICY_ALREADY_EXISTS', 'Policy information already exists on this object', 'A load balancer or policy with the same VIP, ports and protocol is already programmed (a stale policy list). kube-proxy deletes and recreates it; if it repeats, remove stale ones with Get-HnsPolicyList | Remove-HnsPolicyList and restart kube-proxy.'],
  [0x13, 'HCN_E_PORT_ALREADY_EXISTS', 'The specified port already exists'],
  [0x14, 'HCN_E_ENDPOINT_ALREADY_ATTACHED', 'This endpoint is already attached to the switch'],
  [0x15, 'HCN_E_REQUEST_UNSUPPORTED', 'The specified request is unsupported', 'The call needs a newer Windows build (e.g. DSR, IPv6 or a v2 schema feature on an older host).'],
  [0x16, 'HCN_E_MAPPING_NOT_SUPPORTED', 'Port mapping is not supported on the given network'],
  [0x17, 'HCN_E_DEGRADED_OPERATION', 'There was an operation attempted on a degraded object'],
  [0x18, 'HCN_E_SHARED_SWITCH_MODIFICATION', 'Cannot modify a switch shared by multiple networks'],
  [0x19, 'HCN_E_GUID_CONVERSION_FAILURE', 'Failed to interpret a parameter as a GUID'],
  [0x1a, 'HCN_E_REGKEY_FAILURE', 'Failed to process registry key'],
  [0x1b, 'HCN_E_INVALID_JSON', 'Invalid JSON document string'],
  [0x1c, 'HCN_E_INVALID_JSON_REFERENCE', 'The reference is invalid in the JSON document'],
  [0x1d, 'HCN_E_ENDPOINT_SHARING_DISABLED', 'Endpoint sharing is disabled'],
  [0x1e, 'HCN_E_INVALID_IP', 'IP address is either invalid or not part of any configured subnet(s)', 'The address is outside the HNS network\'s subnets: check the pod CIDR of the node against the network\'s AddressPrefix.'],
  [0x1f, 'HCN_E_SWITCH_EXTENSION_NOT_FOUND', 'The specified switch extension does not exist on this switch', 'The VFP switch extension is missing or disabled on the vSwitch.'],
  [0x20, 'HCN_E_MANAGER_STOPPED', 'Operation cannot be performed while service is stopping', 'HNS was stopping or restarting during the call; retry once HNS is up.'],
  [0x21, 'GCN_E_MODULE_NOT_FOUND', 'Operation cannot be performed while service module not found'],
  [0x22, 'GCN_E_NO_REQUEST_HANDLERS', 'Request Handlers not present to handle the JSON request'],
  [0x23, 'GCN_E_REQUEST_UNSUPPORTED', 'The specified request is unsupported'],
  [0x24, 'GCN_E_RUNTIMEKEYS_FAILED', 'Add runtime keys to container failed'],
  [0x25, 'GCN_E_NETADAPTER_TIMEOUT', 'Timeout while waiting for network adapter with the given instance id', 'The container vNIC did not appear in time (a loaded or slow host; the containerd/Windows asynchronous vNIC case).'],
  [0x26, 'GCN_E_NETADAPTER_NOT_FOUND', 'Network adapter not found for the given instance id'],
  [0x27, 'GCN_E_NETCOMPARTMENT_NOT_FOUND', 'Network compartment not found for the given id', 'The pod\'s network compartment is gone (sandbox already torn down) or not created yet.'],
  [0x28, 'GCN_E_NETINTERFACE_NOT_FOUND', 'Network interface not found for the given id'],
  [0x29, 'GCN_E_DEFAULTNAMESPACE_EXISTS', 'Default Namespace already exists'],
  [0x2a, 'HCN_E_ICS_DISABLED', 'Internet Connection Sharing service (SharedAccess) is disabled and cannot be started', 'The "nat"/ICS network needs the SharedAccess service; it is disabled on this host (a hardening baseline).'],
  [0x2b, 'HCN_E_ENDPOINT_NAMESPACE_ALREADY_EXISTS', 'This requested operation is invalid as endpoint is already part of a network namespace'],
  [0x2c, 'HCN_E_ENTITY_HAS_REFERENCES', 'The specified entity cannot be removed while it still has references'],
  [0x2d, 'HCN_E_INVALID_INTERNAL_PORT', 'The internal port must exist and cannot be zero'],
  [0x2e, 'HCN_E_NAMESPACE_ATTACH_FAILED', 'The requested operation for attach namespace failed'],
  [0x2f, 'HCN_E_ADDR_INVALID_OR_RESERVED', 'An address provided is invalid or reserved', 'HNS refused an address: kube-proxy\'s --source-vip outside the node\'s pod subnet or already taken, or a pod IP still held by an orphaned endpoint. Check the source VIP against the network\'s subnet and look for stale endpoints (Get-HnsEndpoint).'],
  [0x30, 'HCN_E_INVALID_PREFIX', 'The prefix provided is invalid'],
  [0x31, 'HCN_E_OBJECT_USED_AFTER_UNLOAD', 'A call was performed against an object that was torn down'],
  [0x32, 'HCN_E_INVALID_SUBNET', 'The provided subnet configuration is invalid or missing parameters'],
  [0x33, 'HCN_E_INVALID_IP_SUBNET', 'The provided IP subnet configuration is invalid or missing parameters'],
  [0x34, 'HCN_E_ENDPOINT_NOT_ATTACHED', 'The endpoint must be attached to complete the operation'],
  [0x35, 'HCN_E_ENDPOINT_NOT_LOCAL', 'The endpoint must be local to complete the operation'],
  [0x36, 'HCN_INTERFACEPARAMETERS_ALREADY_APPLIED', 'Cannot apply more than one InterfaceParameters policy'],
  [0x37, 'HCN_E_VFP_NOT_ALLOWED', 'A network of this type can not be created because VFP is not available'],
];

const WIN32: [number, string, string, string?][] = [
  [0x2, 'ERROR_FILE_NOT_FOUND', 'The system cannot find the file specified'],
  [0x5, 'ERROR_ACCESS_DENIED', 'Access is denied'],
  [0x57, 'ERROR_INVALID_PARAMETER', 'The parameter is incorrect', 'HNS or the network stack rejected a parameter of the call (an address, prefix or policy value); the rest of the line says which call.'],
  [0xb7, 'ERROR_ALREADY_EXISTS', 'Cannot create a file when that file already exists', 'An object of that name/ID already exists (a leftover from an earlier run).'],
  [0x490, 'ERROR_NOT_FOUND', 'Element not found', 'The object the call names is gone: a network removed under a running agent, an endpoint deleted by an HNS restart.'],
  [0x4c7, 'ERROR_CANCELLED', 'The operation was canceled by the user'],
  [0x5b4, 'ERROR_TIMEOUT', 'This operation returned because the timeout period expired'],
];

const TABLE = new Map<string, HnsErrorInfo>();
for (const [n, name, description, hint] of HCN) {
  const v = 0x803b0000 + n;
  const code = `0x${v.toString(16)}`;
  TABLE.set(code, { code, name, description, hint, fix: FIXES[name], spellings: [code, String(v)] });
}
for (const [n, name, description, hint] of WIN32) {
  const code = `0x${n.toString(16)}`;
  const hr = 0x80070000 + n;
  TABLE.set(code, { code, name, description, hint, fix: FIXES[name], spellings: [`(${code})`, `0x${hr.toString(16)}`, String(hr)] });
}

/** Canonical form of a code: `0x803B002F`, `2151350319`, `0x80070057` (Win32 87) → `0x803b002f`, `0x57`. */
export function canonicalErrorCode(raw: string | number): string | undefined {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else {
    const t = raw.trim().toLowerCase();
    if (/^0x[0-9a-f]{1,8}$/.test(t)) n = parseInt(t.slice(2), 16);
    else if (/^-?\d{1,10}$/.test(t)) n = Number(t);
    else return undefined;
  }
  if (!Number.isFinite(n)) return undefined;
  if (n < 0) n += 0x1_0000_0000;
  // HRESULT_FROM_WIN32: 0x8007XXXX carries Win32 error XXXX.
  if (n >>> 16 === 0x8007) n &= 0xffff;
  return `0x${n.toString(16)}`;
}

/** What Windows says about a code, when hnsight knows it. */
export function explainHnsError(raw: string | number): HnsErrorInfo | undefined {
  const c = canonicalErrorCode(raw);
  return c ? TABLE.get(c) : undefined;
}

export interface HnsErrorHit extends HnsErrorInfo {
  /** The code as the text printed it. */
  text: string;
}

const HEX_IN_TEXT = /\((0x[0-9a-f]{1,8})\)|\b(?:hresult|hr|error code|errorcode)\s*[=:]?\s*(0x[0-9a-f]{1,8})\b|\b(0x803b[0-9a-f]{4})\b/gi;
const DECIMAL_IN_JSON = /ErrorCode\\*"?\s*[:=]\s*(\d{7,10})/gi;

/** Every known HNS / Win32 error code a line mentions (hex in parentheses, `ErrorCode: <decimal>`). */
export function findHnsErrors(line: string): HnsErrorHit[] {
  const out: HnsErrorHit[] = [];
  const seen = new Set<string>();
  const take = (text: string): void => {
    const info = explainHnsError(text);
    if (!info || seen.has(info.code)) return;
    seen.add(info.code);
    out.push({ ...info, text });
  };
  const s = line.length > 20_000 ? line.slice(0, 20_000) : line;
  // One of the three alternatives matched, so one of their groups holds the code.
  for (const [, paren, labelled, bare] of s.matchAll(HEX_IN_TEXT)) take(paren ?? labelled ?? bare ?? '');
  for (const [, code = ''] of s.matchAll(DECIMAL_IN_JSON)) take(code);
  return out;
}

/** Every code hnsight can explain (for the finding catalogue). */
export function knownHnsErrors(): HnsErrorInfo[] {
  return [...TABLE.values()];
}
