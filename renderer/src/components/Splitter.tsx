// The side panel's resize handle (the WAI-ARIA window splitter): drag it with the mouse, or focus it
// and use ←/→ (Shift for bigger steps), Home/End for the narrowest/widest, Enter to hide the panel.
import { useRef } from 'react';

interface Props {
  width: number;
  min: number;
  max: number;
  onResize(px: number): void;
  onCollapse(): void;
}

export function Splitter({ width, min, max, onResize, onCollapse }: Props) {
  const start = useRef<{ x: number; w: number } | null>(null);
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the side panel"
      aria-controls="side-panel"
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={`side panel ${width} pixels wide`}
      title="Drag, or focus and press ← → to resize; Enter hides the panel"
      tabIndex={0}
      data-testid="panel-splitter"
      onPointerDown={(e) => {
        start.current = { x: e.clientX, w: width };
        (e.target as HTMLElement).setPointerCapture(e.pointerId);
      }}
      onPointerMove={(e) => {
        if (start.current) onResize(start.current.w + (start.current.x - e.clientX));
      }}
      onPointerUp={() => (start.current = null)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 80 : 20;
        // The panel is on the right: ← widens it, → narrows it.
        const next = e.key === 'ArrowLeft' ? width + step : e.key === 'ArrowRight' ? width - step : e.key === 'Home' ? min : e.key === 'End' ? max : undefined;
        if (next !== undefined) {
          e.preventDefault();
          onResize(next);
        } else if (e.key === 'Enter') {
          e.preventDefault();
          onCollapse();
        }
      }}
    />
  );
}
