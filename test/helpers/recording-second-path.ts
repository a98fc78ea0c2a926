import type { SecondPath, TextResult } from '../../src/second-path/second-path';

/**
 * A second path (src/second-path) that records what it was asked to send: every text sent
 * through the modem `via`, each e-mail accepted; a number in `failing` is refused with a modem
 * error (+CMS ERROR: 500, 3GPP TS 27.005 §3.2.5), as the real modem path reports one.
 */
export function recordingSecondPath(o: { failing?: string[]; via?: string } = {}) {
  const failing = o.failing ?? [];
  const texts: { number: string; text: string }[] = [];
  const emails: { to: string; subject: string; body: string }[] = [];
  const path: Pick<SecondPath, 'sendText' | 'sendEmail'> = {
    async sendText(number, text): Promise<TextResult> {
      texts.push({ number, text });
      return failing.includes(number)
        ? { ok: false, path: 'modem', reason: '+CMS ERROR: 500', failures: ['+CMS ERROR: 500'] }
        : { ok: true, path: 'modem', via: o.via ?? 'gsm0', parts: 1, failures: [] };
    },
    async sendEmail(to, subject, body) {
      emails.push({ to, subject, body });
      return { ok: true, messageId: '<m@x>', response: '250 OK' };
    },
  };
  return { path, texts, emails };
}
