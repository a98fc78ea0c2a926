import type { Language } from '../tts/language';

/** The monitoring tools whose own webhook bodies /webhook/receive reads (docs/integrations.md "Integration recipes"). */
export const SOURCE_NAMES = ['alertmanager', 'grafana', 'sns', 'azure', 'uptime-kuma'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** What an adapter is given: a request header by its lower-case name, the decoded body, the spoken language. */
export interface SourceInput {
  header(name: string): string | undefined;
  body: Record<string, unknown>;
  language: Language;
}

/**
 * What an adapter read from a payload, in the plain terms of the generic webhook path.
 * `texts` holds one entry per firing alert (or one); an empty list means the payload had
 * nothing to say, which the intake refuses as `Missing fields` rather than placing a silent call.
 */
export type AdapterResult =
  | {
      kind: 'alert';
      source: SourceName;
      key: string | null;
      texts: string[];
      numbers?: string[];
      resolved: boolean;
      /** The labels the alert carries (maintenance windows match them: labels.ts); absent: the source has none. */
      labels?: Record<string, string>;
    }
  /** SNS asks the endpoint to prove it wants the topic's messages before it sends any. */
  | { kind: 'sns_confirmation'; source: 'sns'; subscribeUrl: string; topicArn: string };

/** One source: `matches` says whether a body has this tool's shape; `read` is pure. */
export interface SourceAdapter {
  name: SourceName;
  matches(input: SourceInput): boolean;
  read(input: SourceInput): AdapterResult;
}
