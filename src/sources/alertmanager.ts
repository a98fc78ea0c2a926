import { nameAsWords, record, sentences, str } from './speech';
import { commonLabels } from './labels';
import type { SourceAdapter } from './types';

/**
 * Prometheus Alertmanager's webhook_config body (notify/webhook/webhook.go, `Message` with
 * version "4"): one POST per group, `status` firing|resolved for the group, `groupKey` naming it.
 * Alertmanager retries only 5xx answers, so a 4xx here drops the alert for good: read leniently.
 */
export const alertmanager: SourceAdapter = {
  name: 'alertmanager',
  matches: ({ body }) => body.version === '4' && typeof body.groupKey === 'string' && Array.isArray(body.alerts),
  read: ({ body }) => {
    const alerts = Array.isArray(body.alerts) ? body.alerts.map(record) : [];
    const resolved = body.status === 'resolved';
    // A firing group also lists its members that already resolved (send_resolved); only the firing ones are news.
    const firing = alerts.filter((a) => a.status !== 'resolved');
    const texts = (resolved ? alerts : firing).map((a) => alertText(record(a.labels), record(a.annotations))).filter((t) => t !== '');
    return { kind: 'alert', source: 'alertmanager', key: str(body.groupKey), texts, resolved, labels: commonLabels(resolved ? alerts : firing) };
  },
};

/** `alertname`, then the summary (else description) annotation, then `instance`. */
export function alertText(labels: Record<string, unknown>, annotations: Record<string, unknown>): string {
  return sentences([nameAsWords(str(labels.alertname)), str(annotations.summary) ?? str(annotations.description), str(labels.instance)]);
}
