// Object flags as badges, coloured by how bad they are. The words are the model's own flags, with
// a plain-language tooltip for the ones a first-time reader would not guess.
import { memo } from 'react';

const SEVERITY: Record<string, 'error' | 'warning' | 'info'> = {
  blocked: 'error',
  dangling: 'error',
  degraded: 'error',
  'no-port': 'warning',
  'no-adapter': 'warning',
  'no-endpoint': 'warning',
  unresolved: 'warning',
  apipa: 'warning',
  stale: 'warning',
  remote: 'info',
  host: 'info',
  local: 'info',
};

const EXPLAIN: Record<string, string> = {
  blocked: 'The VFP port is blocked: no traffic passes',
  dangling: 'Referenced, but the object it points to is not in the bundle',
  degraded: 'HNS reports this object as degraded',
  'no-port': 'No VFP port found for this endpoint',
  'no-adapter': 'No vNIC in any compartment for this endpoint',
  'no-endpoint': 'No HNS endpoint owns this port or adapter',
  unresolved: 'The endpoint list this refers to is not in the bundle',
  apipa: 'APIPA address (169.254.x.x): DHCP or static configuration failed',
  remote: 'Lives on another node',
  host: 'The host compartment',
  local: 'A provider address of this node',
};

export function flagSeverity(flag: string): 'error' | 'warning' | 'info' {
  return SEVERITY[flag] ?? 'warning';
}

export const FlagBadges = memo(function FlagBadges({ flags, max = 4 }: { flags: string[] | undefined; max?: number }) {
  if (!flags?.length) return null;
  const shown = flags.slice(0, max);
  return (
    <span className="flag-badges">
      {shown.map((f) => (
        <span key={f} className={`badge ${flagSeverity(f)}`} title={EXPLAIN[f] ?? f}>
          {f}
        </span>
      ))}
      {flags.length > max && <span className="badge">+{flags.length - max}</span>}
    </span>
  );
});
