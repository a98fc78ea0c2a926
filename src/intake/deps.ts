import type { AlertActions } from '../alerts';
import type { Clock } from '../clock';
import type { NumberForm } from '../phone';
import type { SnsConfirmer } from '../sources';
import type { Language } from '../tts/language';
import type { Store } from '../store';
import type { SignatureHeaders } from '../signing';

export interface IntakeDeps {
  store: Store;
  clock: Clock;
  /** credit.timezone: where the month, and so the credit period, begins. */
  timeZone: string;
  /** Acknowledge and resolve by id (the compatible APIs): the registry's own (src/services.ts). */
  alerts: AlertActions;
  /** alerts.dedupe_window_s (0: no dedupe); absent: the config's default. */
  dedupeWindowS?: number;
  /** Told the ids of freshly committed calls, so the dialer need not wait for a poll. */
  onQueued?: (callIds: string[]) => void;
  /** numbers.accept; absent: tr-mobile only (the first round's rule). */
  numberForms?: readonly NumberForm[];
  /** The spoken language, for text built from native payloads (src/sources); absent: tr. */
  language?: Language;
  /** Confirms SNS subscriptions (integrations.sns_*); absent: the URL is only answered and recorded. */
  snsConfirmer?: SnsConfirmer;
  /** Why a call queued now would wait (no SIP trunk configured): stored with it at once. */
  waitReason?: () => string | null;
}

/** An alert request as the intake sees it: no framework types. */
export interface IntakeRequest {
  body: Uint8Array;
  contentType: string | null;
  /** Webhook only: header X-Webhook-Key, else query `key`. */
  webhookKey?: string | null;
  signature: SignatureHeaders;
  idempotencyKey: string | null;
  /** Query `?policy=` (the body's `policy` field wins). */
  policy?: string | null;
  /** Webhook only: the query (`to=`, `phone_number=`, `source=`, `policy=`) and the headers, for native sources. */
  query?: Record<string, string | undefined>;
  headers?: Headers;
}
