// The inspector's resize handle: drag with the mouse, or focus it and use ←/→ (Shift for bigger steps).
import { useRef } from 'react';

interface Props {
  width: number;
  onResize(px: number): void;
}

export function Splitter({ width, onResize }: Props) {
  const start = useRef<{ x: number; w: number } | null>(null);
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the inspector"
      aria-valuenow={width}
      tabIndex={0}
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
        if (e.key === 'ArrowLeft') onResize(width + step);
        else if (e.key === 'ArrowRight') onResize(width - step);
      }}
    />
  );
}
