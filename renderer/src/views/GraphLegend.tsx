// What the graph's lines and marks mean, for someone who has never seen this graph before. A popover:
// Esc or a click outside it closes it, and Esc gives the focus back to its button.
import { useEffect, useRef, useState } from 'react';
import { Info } from 'lucide-react';

const LINES: { cls: string; label: string }[] = [
  { cls: 'attach', label: 'attached / uplink' },
  { cls: 'lb-dip', label: 'load balancer → DIP' },
  { cls: 'route', label: 'route' },
  { cls: 'encap', label: 'encap (VXLAN)' },
  { cls: 'broken', label: 'dangling reference' },
  { cls: 'fault', label: 'between objects of a finding' },
  { cls: 'walk', label: 'the walked path' },
];

export function GraphLegend() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    // Capture: the legend's Esc is not also the walk's (leave the walk) or anyone else's.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onDown, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onDown, true);
    };
  }, [open]);
  return (
    <div className="legend" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="btn small icon"
        aria-expanded={open}
        aria-controls={open ? 'graph-legend' : undefined}
        onClick={() => setOpen((o) => !o)}
        aria-label="Legend"
        title="What the lines and marks mean"
        data-testid="legend-button"
      >
        <Info size={14} aria-hidden />
      </button>
      {open && (
        <ul className="legend-list" id="graph-legend" data-testid="legend" aria-label="What the lines and marks mean">
          {LINES.map((i) => (
            <li key={i.cls}>
              <svg width="36" height="10" aria-hidden>
                <line x1="2" y1="5" x2="34" y2="5" className={`legend-line legend-${i.cls}`} />
              </svg>
              {i.label}
            </li>
          ))}
          <li>
            <span className="legend-marker" aria-hidden>
              <span className="fault-marker error">2</span>
            </span>
            findings about the object (click: the first)
          </li>
          <li>
            <span className="legend-marker" aria-hidden>
              <span className="hop-badge current" style={{ position: 'static' }}>3</span>
            </span>
            hop of the walk
          </li>
        </ul>
      )}
    </div>
  );
}
