// The shapes redaction recognises besides IPv4, MACs and GUIDs: IPv6 addresses, e-mail addresses, DNS
// names, GUIDs written without dashes. Each scan is linear (bounded quantifiers, no nested ambiguity):
// the text comes from a bundle and may be hostile.

/**
 * A run that may be an IPv6 address: hex digits, colons and dots with at least two colons, not inside
 * a word or a dotted/colon run (so `std::string` and `[Dns]::GetHostName` stay); after `_` (rule names
 * glue values with underscores) or a label's colon (`Address:fe80::1`) it may start. Validated by
 * parsers/net's ipv6ToHex afterwards: times (`10:30:00.123`) and MACs are not valid IPv6 text.
 */
export const IPV6_CANDIDATE = /(?<![0-9a-z.-])(?=[0-9a-f.]{0,39}:[0-9a-f.]{0,39}:)[0-9a-f:.]{2,45}(?![0-9a-z:-])/gi;

/** Addresses that identify nothing (`ipv6ToHex` form, 32 hex digits): `::`, `::1`, multicast (ff00::/8),
 *  and a bare link-local prefix `fe80::`. */
export function isMeaninglessIpv6(hex: string): boolean {
  if (/^0{32}$/.test(hex) || /^0{31}1$/.test(hex)) return true;
  if (hex.startsWith('ff')) return true;
  return hex === `fe80${'0'.repeat(28)}`;
}

/** An e-mail address (RFC 5321's common form: a dotted domain). Redacted whole, before host names. */
export const EMAIL = /(?<![a-z0-9.%+-])[a-z0-9._%+-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?){1,16}(?![a-z0-9-]|\.[a-z0-9])/gi;

/** 32 hex digits alone: a GUID written without dashes (HNS and vfpctrl print some that way). */
export const DASHLESS_GUID = /(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/gi;

export function dashGuid(hex32: string): string {
  const h = hex32.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * A DNS name: two or more labels (RFC 1035 letters, digits, hyphens), the last one letters only — so
 * version numbers (`10.0.20348.2340`, `v1.27.3`) and addresses are never names. Not inside a longer
 * dotted or hyphenated word (but right after a placeholder: `[host-1].contoso.local`), nor right after
 * `@` (e-mail addresses are their own kind). The last label has two letters or more (`e.g.` is no name).
 */
export const DNS_NAME = /(?<![0-9a-z@-])(?<!(?<!\])\.)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,126}[a-z][a-z-]{0,61}[a-z](?![0-9a-z-]|\.[a-z0-9])/gi;

/**
 * Names with a DNS name's shape that are not names: file names, by extension (`vfpOutput.txt`,
 * `10-azure.conflist`). A real host under a top-level domain spelled like one of these (.sh, .md, .py)
 * is kept — the rare loss, documented in README.md.
 */
const FILE_EXTENSIONS = new Set(
  'txt json log logs exe dll sys conf conflist config cfg ini yaml yml toml xml csv tsv htm html md pdf png svg jpg etl evtx cab zip tar gz tgz ps1 psm1 psd1 cmd bat out err old bak tmp pcap pcapng wprp reg dmp ts js go py sh crt pem key cer pfx kubeconfig sock pid lock'.split(' '),
);

/**
 * Last labels that make a dotted word a DNS name even in mixed case: the common generic top-level
 * domains and the private suffixes Active Directory domains use. `System.Net` is redacted too — the
 * safe side.
 */
const NAME_SUFFIXES = new Set('com net org edu gov mil int biz info io cloud local lan corp internal intranet home localdomain private ad'.split(' '));

/** Public names that identify no customer and carry meaning (label keys, registries, the SVG namespace). */
const PUBLIC_NAMES = new Set(['kubernetes.io', 'k8s.io', 'registry.k8s.io', 'k8s.gcr.io', 'gcr.io', 'mcr.microsoft.com', 'microsoft.com', 'docker.io', 'quay.io', 'ghcr.io', 'github.com', 'www.w3.org', 'w3.org', 'cluster.local', 'svc.cluster.local', 'projectcalico.org', 'flannel.alpha.coreos.com', 'coreos.com', 'antrea.io', 'azure.com', 'amazonaws.com', 'learn.microsoft.com']);

/**
 * Whether a DNS_NAME match is a name to redact. Kept: file names; public names and label keys under
 * them (`node.kubernetes.io/os`); names inside the cluster (`shop.svc.cluster.local`: the namespace
 * is in the report anyway, and the suffix list is what a DNS fault is read from); and identifiers of
 * code that have a name's shape — a last label in mixed case (`json.RawMessage`, `winkernel.endpointsInfo`,
 * `System.Object`: DNS names are written in one case) or a reverse-DNS package (`io.containerd.grpc`).
 */
export function isPrivateDnsName(name: string): boolean {
  const low = name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const last = name.slice(dot + 1);
  if (FILE_EXTENSIONS.has(last.toLowerCase())) return false;
  // A mixed-case last label is a code identifier's, unless it is a domain suffix a Windows DNS suffix
  // is often typed with (`corp.Contoso.Local`, `WEB01.Contoso.Com`): then it is a name (review of #28).
  if (last !== last.toLowerCase() && last !== last.toUpperCase() && !NAME_SUFFIXES.has(last.toLowerCase())) return false;
  if (/^(io|com|org|net)\./.test(low)) return false;
  if (PUBLIC_NAMES.has(low) || low.endsWith('.cluster.local')) return false;
  return !/(^|\.)(kubernetes\.io|k8s\.io|projectcalico\.org|coreos\.com|antrea\.io|kubernetes\.azure\.com)$/.test(low);
}
