// What a redacted report says about its redaction, in its header: which kinds of value were replaced
// (and how many distinct ones), and what redaction cannot recognise, so whoever attaches the report to a
// public issue knows what is left to read through by hand.
import { REDACTED_KINDS, type RedactedKind } from './redact.ts';

export interface RedactionSummary {
  /** Distinct originals replaced, by kind (kinds with none are left out). */
  replaced: Partial<Record<RedactedKind, number>>;
  /** What redaction leaves as written, in words. */
  notRecognised: string[];
}

const KIND_WORDS: Record<RedactedKind, [string, string]> = {
  ip: ['IPv4 address', 'IPv4 addresses'],
  ip6: ['IPv6 address', 'IPv6 addresses'],
  mac: ['MAC address', 'MAC addresses'],
  guid: ['GUID', 'GUIDs'],
  id: ['container ID', 'container IDs'],
  host: ['host name', 'host names'],
  dns: ['DNS name', 'DNS names'],
  email: ['e-mail address', 'e-mail addresses'],
};

export const NOT_RECOGNISED: readonly string[] = [
  'names written as free text in notes, the title and the summary (customer, cluster, project or person names) unless they are also a host or DNS name of the bundle',
  'names of pods, namespaces, services and HNS networks, and names inside the cluster (*.cluster.local): the walks are read by them',
  'addresses written other than as text (hexadecimal or integer forms, split across lines) and DNS names in non-Latin scripts',
  'file names, and Windows build and software version numbers (such as 10.0.20348.2340), which identify no one',
];

export function redactionSummary(stats: Record<RedactedKind, number>): RedactionSummary {
  const replaced: Partial<Record<RedactedKind, number>> = {};
  for (const k of REDACTED_KINDS) if (stats[k]) replaced[k] = stats[k];
  return { replaced, notRecognised: [...NOT_RECOGNISED] };
}

/** `12 IPv4 addresses ([ip-N]), 3 MAC addresses ([mac-N])`; `nothing` when none was found. */
export function replacedText(s: RedactionSummary): string {
  const parts = REDACTED_KINDS.filter((k) => s.replaced[k]).map((k) => `${s.replaced[k]} ${KIND_WORDS[k][s.replaced[k] === 1 ? 0 : 1]} ([${k}-N])`);
  return parts.length ? parts.join(', ') : 'nothing';
}
