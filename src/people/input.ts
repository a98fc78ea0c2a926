import * as z from 'zod';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import type { PersonFields, PersonLanguage, PersonPhone } from '../store';

/**
 * A person's name: 1–60 letters (any script: "Ayşe", "Gülşen"), digits, spaces, `.`, `_`, `'`
 * and `-`. Unlike objectName (src/names.ts) not ASCII only: people are named as they are. No
 * comma, `+` or `@`, which a CLI step (`--step "+Ayşe,@noc,5321111111:300"`) reads as separators.
 */
export const personName = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[\p{L}\p{M}\p{N}._' -]+$/u, "letters, digits, spaces, . _ ' - only");

/**
 * In a step written as text (`--step "+Ayşe,@noc,5321111111:300"`, the panel's step lines),
 * whether an entry names a person: `+` then a name with a letter in it. `+905321111111` (and
 * `+90 532 …`) stays an E.164 number, as it always was (a person named by digits alone is
 * named by their id there, `+per_…`).
 */
export const namesPerson = (entry: string) => /^\+.*\p{L}/u.test(entry.trim());

export const LANGUAGES = ['tr', 'en'] as const satisfies readonly PersonLanguage[];

/** A phone as given: a number, or `{"number": …}` (the shape the API answers with). */
const phoneGiven = z.union([z.string(), z.object({ number: z.string() })]).transform((p) => (typeof p === 'string' ? p : p.number));

/** What a person gives (CLI options, the API's JSON); absent fields: on create the default, on update unchanged. */
export const personInput = z.object({
  name: z.string().optional(),
  phones: z.array(phoneGiven).max(10).optional(),
  sms: z.array(z.string()).max(10).optional(),
  emails: z.array(z.string()).max(10).optional(),
  language: z.string().optional(),
  time_zone: z.string().nullable().optional(),
});
export type PersonInput = z.input<typeof personInput>;

const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/** An IANA zone name, as schedules take (a fixed offset is refused: it does not follow DST). */
function isZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export type FieldsResult = { ok: true; fields: PersonFields } | { ok: false; code: 'invalid_person'; problem: string } | { ok: false; code: 'invalid_phone_number'; value: string };

/**
 * The fields a person will have: `given` over `base` (update: the person as stored; create:
 * the defaults). Numbers in their stored form under numbers.accept, like every number the
 * appliance takes; a phone kept unchanged keeps its verification, a changed one loses it.
 */
export function personFields(value: unknown, base: PersonFields, accept: readonly NumberForm[] | undefined): FieldsResult {
  const parsed = personInput.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, code: 'invalid_person', problem: `${issue.path.join('.') || 'body'}: ${issue.message}` };
  }
  const given = parsed.data;
  let name = base.name;
  if (given.name !== undefined) {
    const n = personName.safeParse(given.name);
    if (!n.success) return { ok: false, code: 'invalid_person', problem: `name: ${n.error.issues[0]!.message}` };
    name = n.data;
  }
  let phones: PersonPhone[] = base.phones;
  if (given.phones !== undefined) {
    phones = [];
    for (const raw of given.phones) {
      const number = normalizePhoneNumber(raw.trim(), accept);
      if (!number) return { ok: false, code: 'invalid_phone_number', value: raw };
      if (phones.some((p) => p.number === number)) continue;
      const kept = base.phones.find((p) => p.number === number);
      phones.push({ number, verifiedAt: kept?.verifiedAt ?? null, lastCheck: kept?.lastCheck ?? null });
    }
  }
  let sms = base.sms;
  if (given.sms !== undefined) {
    sms = [];
    for (const raw of given.sms) {
      const number = normalizePhoneNumber(raw.trim(), accept);
      if (!number) return { ok: false, code: 'invalid_phone_number', value: raw };
      if (!sms.includes(number)) sms.push(number);
    }
  }
  let emails = base.emails;
  if (given.emails !== undefined) {
    emails = [];
    for (const raw of given.emails) {
      const e = raw.trim();
      if (!EMAIL.test(e) || e.length > 254) return { ok: false, code: 'invalid_person', problem: `emails: not an e-mail address: ${raw}` };
      if (!emails.includes(e)) emails.push(e);
    }
  }
  let language = base.language;
  if (given.language !== undefined) {
    const l = given.language.trim().toLowerCase();
    if (!(LANGUAGES as readonly string[]).includes(l)) return { ok: false, code: 'invalid_person', problem: `language: tr or en, got ${given.language}` };
    language = l as PersonLanguage;
  }
  let timeZone = base.timeZone;
  if (given.time_zone !== undefined) {
    const tz = given.time_zone?.trim() || null;
    if (tz !== null && !isZone(tz)) return { ok: false, code: 'invalid_person', problem: `time_zone: not an IANA time zone: ${tz}` };
    timeZone = tz;
  }
  return { ok: true, fields: { name, phones, sms, emails, language, timeZone } };
}
