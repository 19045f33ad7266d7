// A compound group drawn open (a compartment around its endpoints and ports, an lb-group around its
// load balancers). Its header folds it; its flags, the findings about it and the walk's hop numbers
// sit where they never cover the label.
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { ChevronDown } from 'lucide-react';
import { FaultMarker, HopBadge, NodeHandles } from './TopoNodeView.tsx';
import type { FlowNode } from './to-flow.ts';
import { kindInfo } from './kinds.ts';
import { groupToggles } from './group-toggles.ts';
import { flagSeverity } from '../components/FlagBadges.tsx';

export const TopoGroupView = memo(function TopoGroupView({ id, data, selected, width, height }: NodeProps<FlowNode>) {
  const n = data.topo;
  const k = kindInfo(n.kind);
  const Icon = k.icon;
  const worst = n.flags.find((f) => flagSeverity(f) === 'error') ?? n.flags.find((f) => flagSeverity(f) === 'warning');
  return (
    <>
      {data.walk && <HopBadge hops={data.walk.hops} current={data.walk.current} />}
      {data.fault && <FaultMarker mark={data.fault} />}
      <div className={`tgroup ${selected ? 'is-selected' : ''}`} style={{ width, height, ['--kind' as string]: k.color }} data-testid={`node-${id}`}>
        <NodeHandles />
        <button
          type="button"
          className="tgroup-head nodrag"
          tabIndex={-1}
          onClick={(e) => (e.stopPropagation(), groupToggles.toggle?.(id))}
          aria-expanded
          title={`Fold ${n.label}${n.details.length ? '\n' + n.details.join('\n') : ''}${n.flags.length ? `\n${n.flags.join(', ')}` : ''}`}
        >
          <ChevronDown size={13} aria-hidden />
          <Icon size={14} aria-hidden className="tnode-icon" />
          <span className="tgroup-label ellipsis">{n.label}</span>
          {n.details[0] && <span className="tgroup-detail ellipsis">{n.details[0]}</span>}
          {worst && <span className={`badge ${flagSeverity(worst)}`}>{n.flags.length > 1 ? `${worst} +${n.flags.length - 1}` : worst}</span>}
        </button>
      </div>
    </>
  );
});
