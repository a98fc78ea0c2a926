/** The panel's languages (panel.language), which people's languages are one of. */
export type HandoffLanguage = 'tr' | 'en';

/**
 * docs/on-call.md "Hand-off calls": the text of the `handoff:<schedule>` alert, spoken to the
 * person going off call (in their language; a bare number hears panel.language's).
 * `incoming`: the incoming person's name, or their number when they have none.
 */
const ALERT_TEXT: Record<HandoffLanguage, (schedule: string, incoming: string, minutes: number) => string> = {
  en: (s, who, n) => `Hand-off of schedule ${s} not confirmed: ${who} did not press 1 within ${n} minutes. You may still be on call.`,
  tr: (s, who, n) => `${s} çizelgesinde nöbet devri onaylanmadı: ${who} ${n} dakika içinde 1'e basmadı. Nöbet hâlâ sizde olabilir.`,
};

export function handoffAlertMessage(language: HandoffLanguage, schedule: string, incoming: string, minutes: number): string {
  return ALERT_TEXT[language](schedule, incoming, minutes);
}

/** The alert key of a schedule's unconfirmed hand-off (docs/on-call.md "Hand-off calls"). */
export const handoffAlertKey = (scheduleName: string) => `handoff:${scheduleName}`;
