// A node's foot row laid out by badge-layout.ts: flags worst first ("+N" for those that do not fit),
// the kind in words when there is room, and the control that opens what is folded inside. Nothing
// is drawn over anything else: every item keeps its width and what does not fit is left out.
import { memo } from 'react';
import { ChevronRight, ChevronDown } from 'lucide-react';
import { flagSeverity } from '../components/FlagBadges.tsx';
import { layoutBadges } from './badge-layout.ts';
import { NODE_WIDTH } from './sizes.ts';

/** The foot's width inside a node (graph.css .tnode padding and border). */
const FOOT_WIDTH = NODE_WIDTH - 16 - 5;

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

export interface FootBadgesProps {
  flags: string[];
  kind: string;
  expander?: { text: string; open: boolean; title: string; onClick(): void };
}

export const FootBadges = memo(function FootBadges({ flags, kind, expander }: FootBadgesProps) {
  const l = layoutBadges({ flags: flags.map((f) => ({ flag: f, severity: flagSeverity(f) })), kind, expander: expander?.text }, FOOT_WIDTH);
  const left = flags.filter((f) => !l.flags.some((x) => x.flag === f));
  return (
    <div className="tnode-foot">
      {l.flags.map((f) => (
        <span key={f.flag} className={`badge ${f.severity}`} title={EXPLAIN[f.flag] ?? f.flag}>
          {f.flag}
        </span>
      ))}
      {l.more > 0 && (
        <span className="badge" title={left.join(', ')}>
          +{l.more}
        </span>
      )}
      {l.kind && <span className="tnode-kind">{l.kind}</span>}
      {expander && l.expander && (
        <button
          type="button"
          className="tnode-expand nodrag"
          data-testid="node-expand"
          onClick={(e) => (e.stopPropagation(), expander.onClick())}
          title={expander.title}
          aria-expanded={expander.open}
          tabIndex={-1}
        >
          {expander.open ? <ChevronDown size={12} aria-hidden /> : <ChevronRight size={12} aria-hidden />} {expander.text}
        </button>
      )}
    </div>
  );
});
