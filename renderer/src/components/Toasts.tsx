// Errors and notices, bottom right. Errors stay until dismissed (the user may need to read them);
// notices leave by themselves.
import { useEffect } from 'react';
import { AlertTriangle, Info, CheckCircle2, X } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import type { Toast } from '../store/ui.ts';

function ToastItem({ t }: { t: Toast }) {
  const dismiss = useApp((s) => s.dismissToast);
  useEffect(() => {
    if (t.kind === 'error') return;
    const id = window.setTimeout(() => dismiss(t.id), 6000);
    return () => window.clearTimeout(id);
  }, [t, dismiss]);
  const Icon = t.kind === 'error' ? AlertTriangle : t.kind === 'success' ? CheckCircle2 : Info;
  return (
    <div className={`toast ${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
      <Icon size={16} aria-hidden className="toast-icon" />
      <div className="toast-msg">{t.message}</div>
      <button type="button" className="btn ghost small icon" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
        <X size={14} aria-hidden />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useApp((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} t={t} />
      ))}
    </div>
  );
}
