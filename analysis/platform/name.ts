// The plugin and the cloud in one name, said once: "Azure CNI Overlay on AKS", but "EKS vpc-bridge"
// and not "EKS vpc-bridge on EKS", "Azure CNI (VNet pod IPs)" and not "… on Azure" — a label that
// already names the cloud gets no " on <cloud>" (issue #25: the summary read "EKS vpc-bridge on EKS").
// No imports: the renderer uses it too.

/** " on <cloud>", or "" when there is no cloud or the label already names it. */
export function cloudSuffix(label: string, cloud: string | undefined): string {
  if (!cloud) return '';
  const word = cloud.split(/[\s/(]/)[0] ?? '';
  if (word && new RegExp(`(^|[^A-Za-z])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z]|$)`).test(label)) return '';
  return ` on ${cloud}`;
}

/** `Azure CNI Overlay on AKS`, `EKS vpc-bridge`. */
export const platformName = (p: { label: string; cloud?: string }): string => `${p.label}${cloudSuffix(p.label, p.cloud)}`;
