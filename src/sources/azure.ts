import { STATE_WORDS, record, sentences, str } from './speech';
import type { SourceAdapter } from './types';

/** Azure Monitor's common alert schema (learn.microsoft.com "Common alert schema"): what matters is in `data.essentials`. */
export const azure: SourceAdapter = {
  name: 'azure',
  matches: ({ body }) => body.schemaId === 'azureMonitorCommonAlertSchema',
  read: ({ body, language }) => {
    const e = record(record(body.data).essentials);
    const targets = Array.isArray(e.configurationItems) ? e.configurationItems.map(str).filter(Boolean) : [];
    // The resource's short name ("wcus-r2-gen2") reads better than its full ARM id.
    const target = targets.length > 0 ? targets.join(', ') : lastSegment(Array.isArray(e.alertTargetIDs) ? str(e.alertTargetIDs[0]) : null);
    const words = STATE_WORDS[language];
    const severity = str(e.severity);
    const sev = severity && /^Sev(\d)$/i.test(severity) ? words.severity(severity.slice(3)) : severity;
    const condition = e.monitorCondition === 'Fired' ? words.fired : e.monitorCondition === 'Resolved' ? words.resolved : str(e.monitorCondition);
    const text = sentences([str(e.alertRule), sev, condition, target, str(e.description)]);
    return {
      kind: 'alert',
      source: 'azure',
      key: str(e.alertId),
      texts: str(e.alertRule) ? [text] : [],
      resolved: e.monitorCondition === 'Resolved',
    };
  },
};

function lastSegment(id: string | null): string | null {
  return id ? (id.split('/').filter(Boolean).pop() ?? null) : null;
}
