import { newId } from '../ids';
import { IN_ACCOUNT } from './account-scope';
import type { SqlConnection } from './sql/connection';

/** The outcome of the latest verification call of a phone (docs/on-call.md "Verification"). */
export interface PhoneCheck {
  at: number;
  ok: boolean;
  /** Why it failed: `no answer`, `busy`, `voicemail`, `no key`, `rejected`, `failed`, …; null when ok. */
  reason: string | null;
}

/**
 * A phone of a person, called in the order kept. `verifiedAt`: when 1 was last pressed on a
 * verification call to it; `lastCheck`: that call's latest outcome. A changed number has neither.
 */
export interface PersonPhone {
  /** Stored (normalised) number. */
  number: string;
  verifiedAt: number | null;
  lastCheck?: PhoneCheck | null;
}

interface StoredPhone {
  number: string;
  verified_at: number | null;
  last_check?: { at: number; ok: boolean; reason: string | null } | null;
}

/** The languages a call can speak (src/tts/language.ts has their voices and words). */
export type PersonLanguage = 'tr' | 'en';

/** Who is reached, with the ways to reach them (docs/on-call.md "People"). Validation is the service's (src/people/service.ts). */
export interface Person {
  id: string;
  accountId: string;
  name: string;
  phones: PersonPhone[];
  sms: string[];
  emails: string[];
  language: PersonLanguage;
  /** IANA zone; null: the account's. */
  timeZone: string | null;
  createdAt: number;
  updatedAt: number;
}

export type PersonFields = Pick<Person, 'name' | 'phones' | 'sms' | 'emails' | 'language' | 'timeZone'>;

interface PersonRow {
  id: string;
  account_id: string;
  name: string;
  phones: string;
  sms: string;
  emails: string;
  language: string;
  time_zone: string | null;
  created_at: number;
  updated_at: number;
}

const toPerson = (r: PersonRow): Person => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  phones: (JSON.parse(r.phones) as StoredPhone[]).map((p) => ({
    number: p.number,
    verifiedAt: p.verified_at === null ? null : Number(p.verified_at),
    lastCheck: p.last_check ? { at: Number(p.last_check.at), ok: p.last_check.ok === true, reason: p.last_check.reason ?? null } : null,
  })),
  sms: JSON.parse(r.sms) as string[],
  emails: JSON.parse(r.emails) as string[],
  language: r.language === 'en' ? 'en' : 'tr',
  timeZone: r.time_zone,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/**
 * Names compare case-insensitively ("ayşe" is "Ayşe"): the key kept beside the name, so the
 * UNIQUE constraint and every lookup are the same on SQLite and PostgreSQL.
 */
export const nameKey = (name: string) => name.trim().toLowerCase();

const params = (f: PersonFields) => ({
  name: f.name,
  key: nameKey(f.name),
  phones: JSON.stringify(
    f.phones.map((p): StoredPhone => ({ number: p.number, verified_at: p.verifiedAt, ...(p.lastCheck ? { last_check: { at: p.lastCheck.at, ok: p.lastCheck.ok, reason: p.lastCheck.reason } } : {}) })),
  ),
  sms: JSON.stringify(f.sms),
  emails: JSON.stringify(f.emails),
  language: f.language,
  tz: f.timeZone,
});

export interface PeopleStore {
  create(accountId: string, f: PersonFields, now: number): Promise<Person>;
  /** Replaces the person's fields; false when there is no such person. */
  update(id: string, f: PersonFields, now: number): Promise<boolean>;
  get(id: string): Promise<Person | null>;
  /**
   * By id or by name (any case), within the account (account-scope.ts): another account's
   * person is never found, exactly like one that does not exist.
   */
  find(accountId: string, idOrName: string): Promise<Person | null>;
  /** The account's people, by name. */
  list(accountId: string): Promise<Person[]>;
  delete(id: string): Promise<boolean>;
}

export function createPeopleStore(db: SqlConnection): PeopleStore {
  const byIdOrName = db.query(`SELECT * FROM people WHERE (id = $v OR name_key = $key) AND ${IN_ACCOUNT} LIMIT 1`);
  return {
    async create(accountId, f, now) {
      const id = newId('per', now);
      await db
        .query(
          `INSERT INTO people (id, account_id, name, name_key, phones, sms, emails, language, time_zone, created_at, updated_at)
           VALUES ($id, $account, $name, $key, $phones, $sms, $emails, $language, $tz, $now, $now)`,
        )
        .run({ id, account: accountId, now, ...params(f) });
      return { id, accountId, ...f, createdAt: now, updatedAt: now };
    },
    async update(id, f, now) {
      const { changes } = await db
        .query(
          `UPDATE people SET name = $name, name_key = $key, phones = $phones, sms = $sms, emails = $emails, language = $language,
             time_zone = $tz, updated_at = $now WHERE id = $id`,
        )
        .run({ id, now, ...params(f) });
      return changes === 1;
    },
    async get(id) {
      const row = (await db.query('SELECT * FROM people WHERE id = $id').get({ id })) as PersonRow | null;
      return row ? toPerson(row) : null;
    },
    async find(accountId, idOrName) {
      const row = (await byIdOrName.get({ account: accountId, v: idOrName.trim(), key: nameKey(idOrName) })) as PersonRow | null;
      return row ? toPerson(row) : null;
    },
    async list(accountId) {
      return ((await db.query('SELECT * FROM people WHERE account_id = $a ORDER BY name_key, id').all({ a: accountId })) as PersonRow[]).map(toPerson);
    },
    async delete(id) {
      return (await db.query('DELETE FROM people WHERE id = $id').run({ id })).changes === 1;
    },
  };
}
