// One topology node: icon and label, detail lines in monospace, a short GUID that copies the full
// one, and flag badges. Memoized: React Flow re-renders nodes only when their props change.
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { ChevronRight } from 'lucide-react';
import type { FlowNode } from './to-flow.ts';
import { kindInfo } from './kinds.ts';
import { MAX_DETAILS } from './sizes.ts';
import { CopyChip } from '../components/CopyChip.tsx';
import { FlagBadges, flagSeverity } from '../components/FlagBadges.tsx';
import { shortGuid } from '../lib/format.ts';
import { groupToggles } from './group-toggles.ts';
import { hopLabel } from '../walk/model.ts';

export const TopoNodeView = memo(function TopoNodeView({ id, data, selected, width, height }: NodeProps<FlowNode>) {
  const n = data.topo;
  const k = kindInfo(n.kind);
  const Icon = k.icon;
  const worst = n.flags.some((f) => flagSeverity(f) === 'error') ? 'sev-error' : n.flags.some((f) => flagSeverity(f) === 'warning') ? 'sev-warning' : '';
  const details = n.details.slice(0, MAX_DETAILS);
  return (
    <>
    {data.walk && <HopBadge hops={data.walk.hops} current={data.walk.current} />}
    <div
      className={`tnode ${worst} ${selected ? 'is-selected' : ''}`}
      style={{ width, height, ['--kind' as string]: k.color }}
      data-testid={`node-${id}`}
      title={`${k.label}: ${n.label}${n.details.length ? '\n' + n.details.join('\n') : ''}`}
    >
      <NodeHandles />
      <div className="tnode-head">
        <Icon size={15} aria-hidden className="tnode-icon" />
        <span className="tnode-label ellipsis">{n.label}</span>
      </div>
      {details.length > 0 && (
        <div className="tnode-details mono">
          {details.map((d, i) => (
            <div key={i} className="ellipsis">
              {d}
            </div>
          ))}
        </div>
      )}
      <div className="tnode-foot">
        {n.guid && <CopyChip text={shortGuid(n.guid)} value={n.guid} label="GUID" />}
        <FlagBadges flags={n.flags} max={3} />
        <span className="tnode-kind">{n.kind === 'lb-group' && n.count !== undefined ? `${n.count} load balancers` : k.label}</span>
      </div>
      {data.hiddenChildren !== undefined && (
        <button type="button" className="tnode-expand nodrag" onClick={(e) => (e.stopPropagation(), groupToggles.toggle?.(id))} title="Show what this group holds">
          <ChevronRight size={12} aria-hidden /> {data.hiddenChildren} inside
        </button>
      )}
    </div>
    </>
  );
});

export function HopBadge({ hops, current }: { hops: number[]; current: boolean }) {
  const text = hopLabel(hops);
  return (
    <span className={`hop-badge ${current ? 'current' : ''} ${text ? '' : 'path-only'}`} data-testid="hop-badge" title={text ? `hop ${text} of the walk` : 'on the walked path'}>
      {text || '•'}
    </span>
  );
}

/** Four handles: edges normally run left to right (out → in); an edge pointing back to a column on
 *  its left (a load balancer to its DIP endpoint) leaves from the left and enters on the right, so
 *  it does not loop around both nodes. to-flow.ts picks the pair. */
export function NodeHandles() {
  return (
    <>
      <Handle id="in" type="target" position={Position.Left} isConnectable={false} />
      <Handle id="out" type="source" position={Position.Right} isConnectable={false} />
      <Handle id="back-out" type="source" position={Position.Left} isConnectable={false} />
      <Handle id="back-in" type="target" position={Position.Right} isConnectable={false} />
    </>
  );
}
