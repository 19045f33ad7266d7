// The keyboard map (?): every key the app answers to, grouped by where it works (hooks/shortcuts.ts).
import { Keyboard, X } from 'lucide-react';
import { Dialog } from './Dialog.tsx';
import { useApp } from '../store/app-store.ts';
import { SHORTCUTS } from '../hooks/shortcuts.ts';

export function KeyboardMapDialog() {
  const open = useApp((s) => s.keymapOpen);
  const setOpen = useApp((s) => s.setKeymapOpen);
  if (!open) return null;
  const isMac = typeof navigator !== 'undefined' && navigator.platform.toLowerCase().includes('mac');
  const key = (k: string) => (isMac && k === 'Ctrl' ? '⌘' : isMac && k === 'Alt' ? '⌥' : k);
  return (
    <Dialog label="Keyboard shortcuts" onClose={() => setOpen(false)} className="keymap-dialog" testId="keymap-dialog">
      <div className="dialog-head">
        <Keyboard size={16} aria-hidden />
        <h2>Keyboard shortcuts</h2>
        <span className="muted" />
        <button type="button" className="btn ghost small icon" onClick={() => setOpen(false)} aria-label="Close the keyboard map" data-autofocus="">
          <X size={15} aria-hidden />
        </button>
      </div>
      <div className="keymap-body">
        {SHORTCUTS.map((g) => (
          <section key={g.title} className="keymap-group">
            <h3>{g.title}</h3>
            <dl>
              {g.items.map((it, i) => (
                <div key={i} className="keymap-row" data-testid="keymap-row">
                  <dt>
                    {it.keys.map((combo, j) => (
                      <span key={j} className="keymap-combo">
                        {j > 0 && <span className="muted"> or </span>}
                        {combo.map((k, n) => (
                          <span key={n}>
                            {n > 0 && '+'}
                            <kbd>{key(k)}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </dt>
                  <dd>{it.what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
