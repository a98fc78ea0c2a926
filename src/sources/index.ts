import { createHash } from 'node:crypto';
import type { Language } from '../tts/language';
import { alertmanager } from './alertmanager';
import { azure } from './azure';
import { grafana } from './grafana';
import { sns } from './sns';
import { spokenMessage } from './speech';
import type { AdapterResult, SourceAdapter, SourceInput, SourceName } from './types';
import { uptimeKuma } from './uptime-kuma';

export type { AdapterResult, SourceName } from './types';
export { SOURCE_NAMES } from './types';
export { createSnsConfirmer, type SnsConfirmer, type SnsConfirmerOptions } from './sns-confirm';

/** The answer SNS gets for a SubscriptionConfirmation (docs/integrations.md "Integration recipes", SNS). */
export const SNS_CONFIRMATION_MESSAGE = 'Subscription confirmation received';

/** Checked in this order: the SNS header is certain; shapes from the most to the least specific. */
const ADAPTERS: readonly SourceAdapter[] = [sns, azure, alertmanager, grafana, uptimeKuma];

/** Contract: an alert key is at most 200 characters; longer native identities are hashed. */
const MAX_KEY_CHARS = 200;

export interface RecogniseInput {
  /** Request headers; names are matched case-insensitively. */
  headers: Headers | Record<string, string>;
  /** The decoded body fields. */
  fields: Record<string, unknown>;
  query: Record<string, string | undefined>;
  language: Language;
}

/**
 * The native source a webhook body comes from (by `?source=NAME`, else by its shape or
 * headers) and what it says, or null for the plain fields. Pure: no I/O, no clock.
 */
export function recogniseSource(input: RecogniseInput): AdapterResult | null {
  const sourceInput: SourceInput = { header: headerReader(input.headers), body: input.fields, language: input.language };
  const forced = input.query.source?.trim().toLowerCase();
  const adapter = forced ? ADAPTERS.find((a) => a.name === forced) : ADAPTERS.find((a) => a.matches(sourceInput));
  return adapter ? adapter.read(sourceInput) : null;
}

/**
 * An alert read from a native payload, as the plain webhook fields the generic path reads
 * (`alert_key`, `error_message`, `status`, `phone_number`, `policy`). Numbers the payload
 * itself names win; otherwise those the request gave (body, then query) are kept.
 */
export function asWebhookFields(
  result: Extract<AdapterResult, { kind: 'alert' }>,
  fields: Record<string, unknown>,
  language: Language,
): Record<string, unknown> {
  const out: Record<string, unknown> = { source: result.source };
  if (result.key !== null) out.alert_key = boundedKey(result.source, result.key);
  if (result.texts.length > 0) out.error_message = spokenMessage(result.texts, language);
  if (result.resolved) out.status = 'resolved';
  const numbers = result.numbers?.length ? result.numbers : fields.phone_number;
  if (numbers !== undefined) out.phone_number = numbers;
  if (fields.policy !== undefined) out.policy = fields.policy;
  return out;
}

/**
 * Contract: numbers come from the body's `phone_number`, else the query's `to=` or
 * `phone_number=`. Returns the fields with that fallback applied (the input is not changed).
 */
export function withQueryNumbers(fields: Record<string, unknown>, query: Record<string, string | undefined>): Record<string, unknown> {
  if (hasValue(fields.phone_number)) return fields;
  const fromQuery = query.to ?? query.phone_number;
  return hasValue(fromQuery) ? { ...fields, phone_number: fromQuery } : fields;
}

function hasValue(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  return !Array.isArray(v) || v.length > 0;
}

function boundedKey(source: SourceName, key: string): string {
  // A string has at least as many UTF-16 units as characters: only a long one is counted.
  if (key.length <= MAX_KEY_CHARS || Array.from(key).length <= MAX_KEY_CHARS) return key;
  const digest = createHash('sha256').update(key).digest('hex');
  return `${source}:sha256:${digest}`;
}

/** A header by its lower-case name; a request's Headers answer that themselves, with no copy made. */
function headerReader(h: Headers | Record<string, string>): (name: string) => string | undefined {
  if (h instanceof Headers) return (name) => h.get(name) ?? undefined;
  const byName = new Map(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => byName.get(name);
}
