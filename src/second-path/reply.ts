import { NUMBER_FORMS, normalizePhoneNumber } from '../phone';

/**
 * How a text back is read (docs/second-path.md "Answering by text"): `1`, `ack`, `ack <code>`
 * acknowledge, `resolve <code>` (or `resolve`) resolves; no code: the newest alert texted to
 * that number that the answer still changes (replies.ts). Case and surrounding blanks do not
 * matter; anything else is not an answer (null) and changes nothing. A long text is never an
 * answer: a reply is a few characters.
 */
export type ReplyCommand = { action: 'acknowledge' | 'resolve'; code: string | null };

export const REPLY_MAX_CHARS = 64;

export function parseReply(body: string): ReplyCommand | null {
  if (body.length > REPLY_MAX_CHARS) return null;
  const words = body.trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
  const [verb, code, ...rest] = words;
  if (verb === undefined || rest.length > 0) return null;
  if (code !== undefined && !/^\d{4,6}$/.test(code)) return null;
  if (verb === '1' || verb === 'ack') return { action: 'acknowledge', code: code ?? null };
  if (verb === 'resolve') return { action: 'resolve', code: code ?? null };
  return null;
}

/**
 * The stored form of a sender's number as the network or the PBX wrote it: `+905321234567`,
 * `05321234567`, `sip:05321234567@pbx.lan`, `<sip:+90532…@…>`, `"Ayşe" <sip:…>` (every form of
 * src/phone, tr-mobile first, as people's `--sms` numbers are stored). Null: not a number.
 */
export function senderNumber(from: string): string | null {
  const sip = /<?sips?:([^@;>]+)/i.exec(from);
  const user = (sip ? sip[1]! : from).trim();
  let decoded = user;
  try {
    decoded = decodeURIComponent(user);
  } catch {
    // A stray % in a user part: read as written.
  }
  return normalizePhoneNumber(decoded, NUMBER_FORMS);
}
