/** The panel's languages (panel.language): the default alert text is said in it. */
export type HeartbeatLanguage = 'tr' | 'en';

/**
 * docs/on-call.md "Heartbeats": the text of a late heartbeat's alert when it has no `--message`,
 * spoken to whoever is called. `minutes`: since the last ping, rounded.
 */
const DEFAULT_TEXT: Record<HeartbeatLanguage, (name: string, minutes: number) => string> = {
  en: (name, n) => `Heartbeat ${name} missed. Last signal ${n} minutes ago.`,
  tr: (name, n) => `Heartbeat ${name} kaçırıldı. Son sinyal ${n} dakika önce.`,
};

export function defaultHeartbeatMessage(language: HeartbeatLanguage, name: string, minutes: number): string {
  return DEFAULT_TEXT[language](name, minutes);
}

/** Whole minutes between the last ping and now, as people round them. */
export function minutesSince(lastPingAt: number | null, now: number): number {
  return lastPingAt === null ? 0 : Math.max(0, Math.round((now - lastPingAt) / 60_000));
}
