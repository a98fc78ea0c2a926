import { nameAsWords, record, sentences, str } from './speech';
import { commonLabels } from './labels';
import type { SourceAdapter } from './types';

/**
 * Grafana Alerting's default webhook body (docs "Configure the webhook notifier"): Alertmanager's
 * shape plus `orgId`, `state`, `title`, `message`. Checked before Alertmanager's adapter is not
 * needed: Grafana sends `version` "1", never "4".
 */
export const grafana: SourceAdapter = {
  name: 'grafana',
  matches: ({ body }) =>
    (body.orgId !== undefined || typeof body.groupKey === 'string') &&
    Array.isArray(body.alerts) &&
    (typeof body.state === 'string' || typeof body.title === 'string'),
  read: ({ body }) => {
    const alerts = Array.isArray(body.alerts) ? body.alerts.map(record) : [];
    const resolved = body.status === 'resolved';
    const firing = alerts.filter((a) => a.status !== 'resolved');
    const texts = (resolved ? alerts : firing).map(alertText).filter((t) => t !== '');
    // Grafana's `title` ("[FIRING:2]  (High memory usage blue)") repeats the alerts in a form made
    // for reading; it is spoken only when no alert says anything itself.
    const title = str(body.title)?.replace(/^\[[A-Z]+(?::\d+)?\]\s*/, '');
    if (texts.length === 0 && title) texts.push(sentences([title]));
    const key = str(body.groupKey) ?? str(record(alerts[0]?.labels).__alert_rule_uid__) ?? str(body.title);
    return { kind: 'alert', source: 'grafana', key, texts, resolved, labels: commonLabels(resolved ? alerts : firing) };
  },
};

/** The summary annotation, else the labels read as words ("alertname High CPU, zone eu-1"). */
function alertText(alert: Record<string, unknown>): string {
  const labels = record(alert.labels);
  const annotations = record(alert.annotations);
  const summary = str(annotations.summary);
  if (summary) return sentences([nameAsWords(str(labels.alertname)), summary]);
  const words = Object.entries(labels)
    .filter(([k]) => !k.startsWith('__'))
    .map(([k, v]) => `${k} ${str(v) ?? ''}`.trim());
  return sentences([words.join(', ')]);
}
