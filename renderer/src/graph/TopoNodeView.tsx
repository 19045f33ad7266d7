// One topology node: icon and label, up to two detail lines in monospace, and a foot row with its
// flags, its kind and the control that opens what is folded inside it (a group's children, a pod's
// VFP port); a pod is drawn without the compartment around it (named in its tooltip). The findings about
// a node are a marker on its corner (click: the finding), the walk's hop numbers a badge on the
// other. How much is drawn follows the zoom (graph.css, lod.ts): the label alone, enlarged, when the
// details would be too small to read. Memoized: React Flow re-renders a node only when its props change.
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { FlowNode, TopoNodeData } from './to-flow.ts';
import { kindInfo } from './kinds.ts';
import { MAX_DETAILS } from './sizes.ts';
import { labelChars } from './lod.ts';
import { breakable } from './breakable.tsx';
import { flagSeverity } from '../components/FlagBadges.tsx';
import { groupToggles } from './group-toggles.ts';
import { hopLabel } from '../walk/model.ts';
import { FootBadges, type FootBadgesProps } from './FootBadges.tsx';
import { appStore } from '../store/app-store.ts';
import type { FaultMark } from './fault-marks.ts';

/** The control opening (or folding) what this node holds, if anything. */
export function expanderOf(id: string, d: TopoNodeData): FootBadgesProps['expander'] {
  if (d.hiddenChildren !== undefined) return { text: `${d.hiddenChildren} inside`, open: false, title: 'Show what this group holds', onClick: () => groupToggles.toggle?.(id) };
  if (d.folded?.length) return { text: d.folded.length === 1 ? 'port' : `${d.folded.length} ports`, open: false, title: 'Show the VFP port as a node', onClick: () => groupToggles.toggle?.(id) };
  if (d.unfolded) return { text: 'port', open: true, title: 'Fold the VFP port into this node', onClick: () => groupToggles.toggle?.(id) };
  return undefined;
}

export const TopoNodeView = memo(function TopoNodeView({ id, data, selected, width, height }: NodeProps<FlowNode>) {
  const n = data.topo;
  const k = kindInfo(n.kind);
  const Icon = k.icon;
  const flags = n.flags;
  const worst = flags.some((f) => flagSeverity(f) === 'error') || data.fault?.severity === 'error' ? 'sev-error' : flags.some((f) => flagSeverity(f) === 'warning') || data.fault ? 'sev-warning' : '';
  const details = n.details.slice(0, MAX_DETAILS);
  const kindText = n.kind === 'lb-group' && n.count !== undefined ? `${n.count} load balancers` : k.label;
  const where = data.frame ? `\nin ${data.frame.label}` : '';
  const expander = expanderOf(id, data);
  return (
    <>
      {data.walk && <HopBadge hops={data.walk.hops} current={data.walk.current} />}
      {data.fault && <FaultMarker mark={data.fault} />}
      {expander && (
        // The foot is not drawn at the compact level: its control hangs on the node's right edge instead (graph.css).
        <button type="button" className="node-chip nodrag" data-testid="node-expand" tabIndex={-1} aria-expanded={expander.open} title={`${expander.title} (${expander.text})`} onClick={(e) => (e.stopPropagation(), expander.onClick())}>
          {expander.open ? <ChevronLeft size={12} aria-hidden /> : <ChevronRight size={12} aria-hidden />}
        </button>
      )}
      <div
        className={`tnode ${worst} ${selected ? 'is-selected' : ''}`}
        style={{ width, height, ['--kind' as string]: k.color }}
        data-testid={`node-${id}`}
        title={`${k.label}: ${n.label}${where}${n.details.length ? '\n' + n.details.join('\n') : ''}${flags.length ? `\n${flags.join(', ')}` : ''}`}
      >
        <NodeHandles />
        <div className="tnode-head">
          <Icon size={15} aria-hidden className="tnode-icon" />
          <span className="tnode-title">
            <span className="tnode-label" style={{ ['--chars' as string]: labelChars(n.label) }}>
              {breakable(n.label)}
            </span>
            {/* The compact level's second line, when the label leaves room for it (graph.css). */}
            {details[0] && <span className="tnode-sub">{details[0]}</span>}
          </span>
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
        <FootBadges flags={flags} kind={kindText} expander={expander} />
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

/** The findings about a node, on its top-right corner: how many, coloured by the worst; a click opens the first. */
export function FaultMarker({ mark }: { mark: FaultMark }) {
  const n = mark.findings.length;
  return (
    <button
      type="button"
      className={`fault-marker nodrag ${mark.severity}`}
      data-testid="fault-marker"
      tabIndex={-1}
      title={mark.findings.map((f) => `${f.severity === 'error' ? 'Error' : 'Warning'}: ${f.title}`).join('\n')}
      aria-label={`${n} ${n === 1 ? 'finding' : 'findings'}: ${mark.findings[0].title}`}
      onClick={(e) => {
        e.stopPropagation();
        appStore.getState().showFinding(mark.findings[0].key);
      }}
    >
      {n}
    </button>
  );
}

/** The handles edges attach to (to-flow.ts handlesFor picks the pair): left in, right out; back to
 *  a column on the left from the left side into the right; straight down (or up) between neighbours
 *  of one column; around the left side between two nodes of a column that others separate. */
export function NodeHandles() {
  return (
    <>
      <Handle id="in" type="target" position={Position.Left} isConnectable={false} />
      <Handle id="out" type="source" position={Position.Right} isConnectable={false} />
      <Handle id="back-out" type="source" position={Position.Left} isConnectable={false} />
      <Handle id="back-in" type="target" position={Position.Right} isConnectable={false} />
      <Handle id="down-out" type="source" position={Position.Bottom} isConnectable={false} />
      <Handle id="down-in" type="target" position={Position.Top} isConnectable={false} />
      <Handle id="up-out" type="source" position={Position.Top} isConnectable={false} />
      <Handle id="up-in" type="target" position={Position.Bottom} isConnectable={false} />
      <Handle id="side-out" type="source" position={Position.Left} isConnectable={false} />
      <Handle id="side-in" type="target" position={Position.Left} isConnectable={false} />
    </>
  );
}
