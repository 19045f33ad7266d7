// The node's own packet to a Service VIP that no rule of the host vNIC's port translated, on a build
// where that is documented as unsupported (engine/vswitch.ts asks; the words are here so the engine
// changes by a few lines).
// Sources:
// - GUIDE, "Troubleshooting Kubernetes Networking on Windows: Part 1" (D. Schott, Microsoft, 2019):
//   "service VIP resolution from the Windows node itself is not supported on Windows Server 2019, but
//   planned for Windows Server version 1903";
// - kubernetes/website content/en/docs/tasks/debug/debug-cluster/windows.md ("Windows debugging tips"):
//   "My Windows node cannot access my services using the service IP … a known limitation of the
//   networking stack on Windows. However, Windows Pods can access the Service IP."
// Later builds: calico#8569 shows a Windows Server 2022 node reaching Service VIPs, so there a missing
// host-port rule is not "by design" and the engine keeps its inference.

/** Windows Server version 1903 (build 18362) is the first build the guide says would support it. */
const FIRST_SUPPORTED = 18362;

/** The build number of `10.0.17763.5830` (17763), when the bundle says it. */
function buildNumber(windowsBuild: string | undefined): number | undefined {
  const m = /^10\.0\.(\d+)/.exec(windowsBuild ?? '');
  return m?.[1] ? Number(m[1]) : undefined;
}

/** The bundle's build is one where the node itself cannot reach a Service VIP (documented). */
export function hostVipUnsupported(windowsBuild: string | undefined): boolean {
  const n = buildNumber(windowsBuild);
  return n !== undefined && n < FIRST_SUPPORTED;
}

export const HOST_VIP_SOURCE =
  'Microsoft, "Troubleshooting Kubernetes Networking on Windows: Part 1" (2019): "service VIP resolution from the Windows node itself is not supported on Windows Server 2019"; kubernetes.io Windows debugging tips: "My Windows node cannot access my services using the service IP"';

export const hostVipNote = (what: string, build: string) =>
  `no rule of the host vNIC's port translates ${what}: on Windows Server 2019 and earlier (this node: ${build}) the node itself cannot reach a Service VIP, a documented limitation (${HOST_VIP_SOURCE}); pods of this node can`;

export const hostVipReason = (what: string) =>
  `${what} is a Service VIP, and the node itself cannot reach a Service VIP on Windows Server 2019 and earlier (a documented limitation; pods of this node can)`;
