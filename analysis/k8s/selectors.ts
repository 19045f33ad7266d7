// metav1.LabelSelector semantics (k8s.io/apimachinery pkg/apis/meta/v1 LabelSelector): every
// matchLabels pair and every expression must hold; an empty selector selects everything.
import type { K8sLabelSelector } from '../../parsers/k8s/index.ts';

export function selects(sel: K8sLabelSelector, labels: Record<string, string>): boolean {
  if (!Object.entries(sel.matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return sel.matchExpressions.every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const v = has ? labels[e.key] : undefined;
    switch (e.operator) {
      case 'In': return v !== undefined && e.values.includes(v);
      case 'NotIn': return v === undefined || !e.values.includes(v);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
}
