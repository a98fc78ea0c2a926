import type { PersonLanguage } from '../store';

/**
 * What a person reached by an alert reads (docs/second-path.md "What the text says"): the
 * alert, its short code and how to answer, in the person's language. Kept short: a text of
 * more than 160 GSM characters (70 UCS-2) goes out in parts (src/sms), so the alert's
 * message is cut at MESSAGE_CHARS.
 */
export const MESSAGE_CHARS = 200;

export interface NoticeAlert {
  message: string;
  shortCode: string;
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

export function textFor(language: PersonLanguage, a: NoticeAlert): string {
  const m = clip(a.message.trim(), MESSAGE_CHARS);
  return language === 'en'
    ? `ALERT ${a.shortCode}: ${m}\nReply 1 to acknowledge, or "resolve ${a.shortCode}" to resolve.`
    : `ALARM ${a.shortCode}: ${m}\nOnaylamak için 1, kapatmak için "resolve ${a.shortCode}" yazıp yanıtlayın.`;
}

export function emailFor(language: PersonLanguage, a: NoticeAlert & { alertId: string; hasSms: boolean }): { subject: string; body: string } {
  const m = a.message.trim();
  if (language === 'en') {
    return {
      subject: `Alert ${a.shortCode}: ${clip(m.split('\n')[0] ?? '', 80)}`,
      body: [
        m,
        '',
        `Alert ${a.alertId}, short code ${a.shortCode}.`,
        a.hasSms ? `Answer from your phone: text 1 or "ack ${a.shortCode}" to acknowledge, "resolve ${a.shortCode}" to resolve.` : 'Acknowledge it from the call, the panel or the API.',
      ].join('\n'),
    };
  }
  return {
    subject: `Alarm ${a.shortCode}: ${clip(m.split('\n')[0] ?? '', 80)}`,
    body: [
      m,
      '',
      `Alarm ${a.alertId}, kısa kod ${a.shortCode}.`,
      a.hasSms
        ? `Telefonunuzdan yanıtlayın: onaylamak için 1 ya da "ack ${a.shortCode}", kapatmak için "resolve ${a.shortCode}" yazın.`
        : 'Aramadan, panelden ya da API ile onaylayabilirsiniz.',
    ].join('\n'),
  };
}
