import { claimParams, leasedRows, type Lease } from './lease';
import { createKeyLock } from './key-lock';
import type { SqlConnection } from './sql/connection';

/**
 * The second path's durable outbox and record (docs/second-path.md "When texts and e-mails
 * are sent"): `text_notices` holds what a person is owed for an alert (written beside their
 * first call, in the same transaction, once per alert and person), `alert_texts` every text
 * and e-mail sent or received for an alert. Short codes live on `alerts.short_code`.
 */
export interface TextNotice {
  alertId: string;
  personId: string;
  accountId: string;
  createdAt: number;
  /**
   * reached: owed at the person's first call for the alert (texts and e-mails); no_trunk: a
   * call of theirs no trunk could place (texts only, docs/second-path.md "When no trunk is up").
   */
  kind?: TextNoticeKind;
  /** Its row's id as claimed (`<alert>/<person>`, or `…/step<ordinal>` for a no_trunk notice). */
  id?: string;
}

export type TextNoticeKind = 'reached' | 'no_trunk';

export type AlertTextType = 'sms.sent' | 'sms.failed' | 'email.sent' | 'email.failed' | 'sms.received';

export interface AlertText {
  alertId: string;
  accountId: string;
  personId: string | null;
  type: AlertTextType;
  address: string;
  detail: string | null;
  at: number;
}

export interface TextNoticesStore {
  /**
   * Owes the person a notice for the alert unless one is already owed or given (once per
   * alert and person). Sent, not waited for: run inside the transaction queuing their call.
   */
  owe(n: TextNotice): void;
  /**
   * A call of the person's in escalation step `ordinal` (0: no escalation) could not be placed
   * (no trunk up): they are owed a text in its place, once per alert, person and step (their
   * other phones and the retries in that step are the same ringing), unless a notice for this
   * alert and person was owed since the step first called them: the one owed with their
   * first call, when this step is it. One text per step that would have rung them, never two
   * at one moment. Inside the transaction that ends or re-queues the call. True when owed.
   */
  oweInstead(n: Omit<TextNotice, 'kind' | 'id'> & { ordinal: number }): Promise<boolean>;
  /**
   * Leases up to `limit` pending notices (oldest first) nobody holds to `lease.owner`
   * (store/lease.ts): a notifier that dies leaves them to the next once the lease ran out.
   * Inside a transaction.
   */
  claim(now: number, limit: number, lease: Lease): Promise<TextNotice[]>;
  /** The notice was handled (each text and e-mail recorded on its own): never handed out again. False: `owner` no longer held it. */
  finish(n: Pick<TextNotice, 'alertId' | 'personId' | 'id'>, owner: string, now: number): Promise<boolean>;
  /** Lets go of what `owner` holds (a clean stop): another appliance, or this one restarted, sends it at once. */
  release(owner: string): Promise<number>;
  /**
   * Gives the alert a short code when it has none: `candidates` tried in order, the first
   * not used by another of the account's alerts not resolved. Returns the alert's code (its
   * old one when it had one), or null when every candidate was taken. Only on a
   * transaction: two appliances (or two notices of one) choosing at once take turns per
   * account, or both would see a code free and both take it (key-lock.ts).
   */
  assignShortCode(alertId: string, accountId: string, candidates: readonly string[]): Promise<string | null>;
  record(t: AlertText): Promise<void>;
  /** The alert's texts and e-mails, oldest first. */
  ofAlert(alertId: string): Promise<AlertText[]>;
  /**
   * Alerts texted (sms.sent) to `number` for this person, newest first, with their short
   * codes and states: whom a reply from that number may name.
   */
  textedTo(personId: string, number: string, limit: number): Promise<{ alertId: string; shortCode: string | null; state: string; newest: number }[]>;
  /** The people (any account) with `number` (stored form) among their `--sms` numbers. */
  peopleWithSms(number: string): Promise<{ personId: string; accountId: string }[]>;
}

const noticeKey = (n: Pick<TextNotice, 'alertId' | 'personId'>) => `${n.alertId}/${n.personId}`;

interface NoticeRow {
  id: string;
  alert_id: string;
  person_id: string;
  account_id: string;
  created_at: number;
  kind: TextNoticeKind;
}

interface TextRow {
  alert_id: string;
  account_id: string;
  person_id: string | null;
  type: AlertTextType;
  address: string;
  detail: string | null;
  at: number;
}

export function createTextNoticesStore(db: SqlConnection): TextNoticesStore {
  const oweQuery = db.query(
    `INSERT INTO text_notices (id, alert_id, person_id, account_id, state, created_at)
     VALUES ($id, $alert, $person, $account, 'pending', $now) ON CONFLICT DO NOTHING`,
  );
  const oweInsteadQuery = db.query(
    `INSERT INTO text_notices (id, alert_id, person_id, account_id, state, created_at, kind)
     VALUES ($id, $alert, $person, $account, 'pending', $now, 'no_trunk') ON CONFLICT DO NOTHING`,
  );
  // A notice owed since the step first called the person (text_notices_alert_person, calls_alert).
  const owedSinceStep = db.query(
    `SELECT 1 AS owed FROM text_notices WHERE alert_id = $alert AND person_id = $person
       AND created_at >= (SELECT min(created_at) FROM calls WHERE alert_id = $alert AND person_id = $person AND escalation_ordinal = $ordinal)
     LIMIT 1`,
  );
  const leases = leasedRows(db, { table: 'text_notices', key: 'id' });
  const claimQuery = db.query(leases.sql.claim({ due: "state = 'pending'", order: 'created_at, id', returning: 'id, alert_id, person_id, account_id, created_at, kind' }));
  const finishQuery = db.query(leases.sql.finish({ set: "state = 'done', finished_at = $at", where: "state = 'pending'" }));
  const keyLock = createKeyLock(db);
  const codeOf = db.query('SELECT short_code FROM alerts WHERE id = $id');
  const setCode = db.query(
    `UPDATE alerts SET short_code = $code WHERE id = $id AND short_code IS NULL
       AND NOT EXISTS (SELECT 1 FROM alerts o WHERE o.account_id = $account AND o.short_code = $code AND o.state <> 'resolved')
     RETURNING short_code`,
  );
  const insertText = db.query(
    `INSERT INTO alert_texts (alert_id, account_id, person_id, type, address, detail, at)
     VALUES ($alert, $account, $person, $type, $address, $detail, $at)`,
  );
  const ofAlertQuery = db.query('SELECT * FROM alert_texts WHERE alert_id = $alert ORDER BY id');
  const textedQuery = db.query(
    `SELECT a.id AS alert_id, a.short_code, a.state, max(t.id) AS newest FROM alert_texts t JOIN alerts a ON a.id = t.alert_id
     WHERE t.person_id = $person AND t.address = $number AND t.type = 'sms.sent'
     GROUP BY a.id, a.short_code, a.state ORDER BY newest DESC LIMIT $limit`,
  );
  // people.sms is a JSON array of stored numbers (digits and +), so the quoted number matches exactly.
  const bySms = db.query(`SELECT id, account_id FROM people WHERE sms LIKE $pattern ORDER BY id`);
  return {
    async peopleWithSms(number) {
      if (!/^\+?\d+$/.test(number)) return [];
      const rows = (await bySms.all({ pattern: `%"${number}"%` })) as { id: string; account_id: string }[];
      return rows.map((r) => ({ personId: r.id, accountId: r.account_id }));
    },
    owe(n) {
      oweQuery.send({ id: noticeKey(n), alert: n.alertId, person: n.personId, account: n.accountId, now: n.createdAt });
    },
    async oweInstead(n) {
      const id = `${noticeKey(n)}/step${n.ordinal}`;
      if (await owedSinceStep.get({ alert: n.alertId, person: n.personId, ordinal: n.ordinal })) return false;
      return (await oweInsteadQuery.run({ id, alert: n.alertId, person: n.personId, account: n.accountId, now: n.createdAt })).changes === 1;
    },
    async claim(now, limit, lease) {
      const rows = (await claimQuery.all(claimParams(now, limit, lease))) as NoticeRow[];
      return rows.map((r) => ({ alertId: r.alert_id, personId: r.person_id, accountId: r.account_id, createdAt: Number(r.created_at), kind: r.kind, id: r.id }));
    },
    release: (owner) => leases.release(owner),
    async finish(n, owner, now) {
      return (await finishQuery.run({ key: n.id ?? noticeKey(n), owner, at: now, now })).changes === 1;
    },
    async assignShortCode(alertId, accountId, candidates) {
      await keyLock(`short code ${accountId}`);
      for (const code of candidates) {
        const current = (await codeOf.get({ id: alertId })) as { short_code: string | null } | null;
        if (!current) return null;
        if (current.short_code) return current.short_code;
        const set = (await setCode.get({ id: alertId, account: accountId, code })) as { short_code: string } | null;
        if (set) return set.short_code;
      }
      return null;
    },
    async record(t) {
      await insertText.run({ alert: t.alertId, account: t.accountId, person: t.personId, type: t.type, address: t.address, detail: t.detail, at: t.at });
    },
    async ofAlert(alertId) {
      return ((await ofAlertQuery.all({ alert: alertId })) as TextRow[]).map((r) => ({
        alertId: r.alert_id,
        accountId: r.account_id,
        personId: r.person_id,
        type: r.type,
        address: r.address,
        detail: r.detail,
        at: Number(r.at),
      }));
    },
    async textedTo(personId, number, limit) {
      const rows = (await textedQuery.all({ person: personId, number, limit })) as { alert_id: string; short_code: string | null; state: string; newest: number }[];
      return rows.map((r) => ({ alertId: r.alert_id, shortCode: r.short_code, state: r.state, newest: Number(r.newest) }));
    },
  };
}
