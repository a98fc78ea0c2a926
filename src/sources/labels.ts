import { record, str } from './speech';

/**
 * The labels every alert of a group carries, with the same value (docs/on-call.md "Maintenance
 * windows": `label:<name>=<value>` matches a native alert). A group is one alert here (one
 * key, one call), so it carries a label only when all its members do; for Alertmanager and
 * Grafana that is the payload's own `commonLabels` when its alerts are those read.
 */
export function commonLabels(alerts: Record<string, unknown>[]): Record<string, string> {
  if (alerts.length === 0) return {};
  const [first, ...rest] = alerts.map((a) => record(a.labels));
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(first!)) {
    const value = str(raw);
    if (value !== null && rest.every((l) => str(l[name]) === value)) out[name] = value;
  }
  return out;
}
