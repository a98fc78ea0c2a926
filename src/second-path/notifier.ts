import type { Clock } from '../clock';
import { emitTextEvent } from '../callbacks';
import type { LoopSpec } from '../engine';
import type { Logger } from '../log';
import { newLease, type AlertRecord, type AlertTextType, type Store, type TextNotice } from '../store';
import { emailFor, textFor } from './notice-text';
import type { SecondPath } from './second-path';

/**
 * Texts and e-mails to the people an alert reaches (docs/second-path.md "When texts and
 * e-mails are sent"). The notice is owed in the transaction that queues the person's first call
 * for the alert (store/calls.ts enqueue, the one place calls for people are made: intake,
 * escalation steps, a person's next phone), so the intake never waits for a modem or a relay,
 * and a notice owed is never lost: this loop leases it after COMMIT (woken with the dialer,
 * and every `everyMs` besides), sends, records each text and e-mail on the alert with its
 * callback, and marks it done. At least once: an appliance that dies between a send and
 * `finish` sends that person's notice again once the lease runs out.
 */
export interface TextNotifierDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  secondPath: Pick<SecondPath, 'sendText' | 'sendEmail'>;
  /** How long a claimed notice is this appliance's (then another may take it over), on the database's clock (store/lease.ts). */
  leaseMs: number;
  /** Between looks at the table when nothing woke it. */
  everyMs?: number;
  /** Notices handled per tick. */
  batch?: number;
  /** Short code candidates (tests pass their own); default: random 4 digits, then 6. */
  codes?: () => string[];
}

export const TEXT_NOTICES_LOOP = 'text-notices';

/** 4-digit codes first (easy to type back), 6-digit ones when an account has thousands open. */
export function randomShortCodes(random: () => number = Math.random): string[] {
  const four = Array.from({ length: 12 }, () => String(Math.floor(random() * 9000) + 1000));
  const six = Array.from({ length: 12 }, () => String(Math.floor(random() * 900000) + 100000));
  return [...four, ...six];
}

export function createTextNotifier(d: TextNotifierDeps): LoopSpec & { handle(n: TextNotice): Promise<void> } {
  const log = d.log.child({ component: 'text-notices' });
  const codes = d.codes ?? (() => randomShortCodes());
  const lease = newLease(d.leaseMs);
  const finish = (n: TextNotice) => d.store.transaction((tx) => tx.textNotices.finish(n, lease.owner, d.clock()));

  const record = async (alert: AlertRecord, personId: string, type: AlertTextType, address: string, detail: string | null) => {
    const at = d.clock();
    await d.store.transaction(async (tx) => {
      await tx.textNotices.record({ alertId: alert.id, accountId: alert.accountId, personId, type, address, detail, at });
      // Contract "A second path": callbacks sms.sent, sms.failed, email.sent (a failed e-mail is on the alert only).
      if (type === 'sms.sent' || type === 'sms.failed' || type === 'email.sent') {
        const now = (await tx.alerts.get(alert.id)) ?? alert;
        await emitTextEvent(tx, type, now, at, { personId, to: address, detail });
      }
    });
  };

  const handle = async (n: TextNotice): Promise<void> => {
    const [alert, person] = await Promise.all([d.store.alerts.get(n.alertId), d.store.people.get(n.personId)]);
    // An alert someone already took (acknowledged on the first call, resolved) or a person
    // deleted since: nothing to say any more. An alert left unacknowledged (its calls all
    // ended) still is: a call no trunk could place ends so, and its text is what is left.
    const instead = n.kind === 'no_trunk';
    const taken = alert?.state === 'acknowledged' || alert?.state === 'resolved';
    if (!alert || !person || taken || (person.sms.length === 0 && (instead || person.emails.length === 0))) {
      await finish(n);
      return;
    }
    const shortCode = await d.store.transaction((tx) => tx.textNotices.assignShortCode(alert.id, alert.accountId, codes()));
    if (!shortCode) throw new Error(`no free short code for alert ${alert.id}`);
    const text = textFor(person.language, { message: alert.message, shortCode });
    for (const number of person.sms) {
      const r = await d.secondPath.sendText(number, text);
      log.info({ alertId: alert.id, personId: person.id, to: number, ok: r.ok, notice: n.kind ?? 'reached', ...(r.ok ? { via: r.via } : { reason: r.reason }) }, r.ok ? 'alert texted' : 'alert text failed');
      await record(alert, person.id, r.ok ? 'sms.sent' : 'sms.failed', number, r.ok ? `${r.path} ${r.via}` : r.reason);
    }
    // A call replaced by a text (docs/second-path.md "When no trunk is up"): texts only, the
    // e-mail went with the person's first call.
    if (instead) {
      await finish(n);
      return;
    }
    const mail = emailFor(person.language, { message: alert.message, shortCode, alertId: alert.id, hasSms: person.sms.length > 0 });
    for (const to of person.emails) {
      const r = await d.secondPath.sendEmail(to, mail.subject, mail.body);
      log.info({ alertId: alert.id, personId: person.id, to, ok: r.ok, ...(r.ok ? {} : { reason: r.reason }) }, r.ok ? 'alert e-mailed' : 'alert e-mail failed');
      await record(alert, person.id, r.ok ? 'email.sent' : 'email.failed', to, r.ok ? null : r.reason);
    }
    await finish(n);
  };

  return {
    name: TEXT_NOTICES_LOOP,
    everyMs: d.everyMs ?? 1000,
    handle,
    // A notice not finished at stop (its text sent, the record not yet written) is sent again:
    // at least once, never lost.
    end: async () => void (await d.store.transaction((tx) => tx.textNotices.release(lease.owner))),
    async tick() {
      const claimed = await d.store.transaction((tx) => tx.textNotices.claim(d.clock(), d.batch ?? 20, lease));
      // One person's slow relay never holds up another's text.
      const results = await Promise.allSettled(claimed.map(handle));
      for (const [i, r] of results.entries()) {
        if (r.status === 'rejected') log.error({ alertId: claimed[i]!.alertId, personId: claimed[i]!.personId, error: r.reason instanceof Error ? r.reason.message : String(r.reason) }, 'notice not handled; tried again when its lease runs out');
      }
    },
  };
}
