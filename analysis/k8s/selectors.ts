// metav1.LabelSelector semantics (k8s.io/apimachinery pkg/apis/meta/v1 LabelSelector): every
// matchLabels pair and every expression must hold; an empty selector selects everything.
import type { K8sLabelSelector } from '../../parsers/k8s/index.ts';

export function selects(sel: K8sLabelSelector, labels: Record<string, string>): boolean {
  if (!Object.entries(sel.matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return sel.matchExpressions.every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    switch (e.operator) {
      case 'In': return has && e.values.includes(labels[e.key]);
      case 'NotIn': return !has || !e.values.includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
}
