// A compound group drawn open (a compartment around its adapter and endpoint, an lb-group around
// its load balancers). Its header collapses it.
import { memo } from 'react';
import type { NodeProps } from '@xyflow/react';
import { HopBadge, NodeHandles } from './TopoNodeView.tsx';
import { ChevronDown } from 'lucide-react';
import type { FlowNode } from './to-flow.ts';
import { kindInfo } from './kinds.ts';
import { FlagBadges } from '../components/FlagBadges.tsx';
import { groupToggles } from './group-toggles.ts';

export const TopoGroupView = memo(function TopoGroupView({ id, data, selected, width, height }: NodeProps<FlowNode>) {
  const n = data.topo;
  const k = kindInfo(n.kind);
  const Icon = k.icon;
  return (
    <>
    {data.walk && <HopBadge hops={data.walk.hops} current={data.walk.current} />}
    <div className={`tgroup ${selected ? 'is-selected' : ''}`} style={{ width, height, ['--kind' as string]: k.color }} data-testid={`node-${id}`}>
      <NodeHandles />
      <button type="button" className="tgroup-head nodrag" onClick={(e) => (e.stopPropagation(), groupToggles.toggle?.(id))} aria-expanded title={`Collapse ${n.label}`}>
        <ChevronDown size={13} aria-hidden />
        <Icon size={14} aria-hidden className="tnode-icon" />
        <span className="tgroup-label ellipsis">{n.label}</span>
        {n.details[0] && <span className="tgroup-detail ellipsis">{n.details[0]}</span>}
        <FlagBadges flags={n.flags} max={2} />
      </button>
    </div>
    </>
  );
});
