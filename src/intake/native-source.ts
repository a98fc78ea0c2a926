import { asWebhookFields, recogniseSource, withQueryNumbers } from '../sources';
import type { IntakeDeps, IntakeRequest } from './deps';
import type { Outcome } from './outcome';

/** Where a native alert came from: its source's name and labels, stored with the alert (maintenance windows match them). */
export interface AlertOrigin {
  source: string;
  labels: Record<string, string> | null;
}

export type NativeReading =
  | { kind: 'fields'; fields: Record<string, unknown>; origin: AlertOrigin | null }
  | { kind: 'sns_confirmation'; outcome: Extract<Outcome, { code: 'SNS_CONFIRMATION' }> };

/**
 * The one step /webhook/receive takes for native sources (docs/integrations.md "Integration
 * recipes"): a payload a source adapter recognises is replaced by the plain fields it means
 * (`alert_key`,
 * `error_message`, `status`, `phone_number`), so keys, resolve, credit and numbers all go
 * through the generic path. Anything else passes unchanged. Numbers missing from the body
 * come from the query (`to=`, `phone_number=`) either way.
 */
export function readNativeSource(deps: IntakeDeps, req: IntakeRequest, fields: Record<string, unknown>): NativeReading {
  const query = req.query ?? {};
  const language = deps.language ?? 'tr';
  const result = recogniseSource({ headers: req.headers ?? new Headers(), fields, query, language });
  if (result?.kind === 'sns_confirmation') {
    const decision = deps.snsConfirmer?.confirm(result.subscribeUrl, result.topicArn).decision ?? 'auto_confirm_off';
    return { kind: 'sns_confirmation', outcome: { code: 'SNS_CONFIRMATION', subscribeUrl: result.subscribeUrl, decision } };
  }
  const plain = result ? asWebhookFields(result, fields, language) : fields;
  const origin = result ? { source: result.source, labels: result.labels ?? null } : null;
  return { kind: 'fields', fields: withQueryNumbers(plain, query), origin };
}
