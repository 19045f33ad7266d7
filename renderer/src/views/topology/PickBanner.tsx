// Shown while the walk's pick mode is on: which field the next clicked node fills, and a way out.
import { Panel } from '@xyflow/react';
import { Crosshair, X } from 'lucide-react';
import { useApp } from '../../store/app-store.ts';

export function PickBanner() {
  const picking = useApp((s) => s.picking);
  const setPicking = useApp((s) => s.setPicking);
  if (!picking) return null;
  return (
    <Panel position="bottom-center" className="pick-banner" data-testid="pick-banner">
      <Crosshair size={14} aria-hidden /> Click the <strong>{picking === 'src' ? 'source' : 'destination'}</strong> node of the walk
      <span className="muted">(Alt+click works any time)</span>
      <button type="button" className="btn ghost small icon" onClick={() => setPicking(undefined)} aria-label="Stop picking">
        <X size={13} aria-hidden />
      </button>
    </Panel>
  );
}
