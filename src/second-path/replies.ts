import type { AlertActions } from '../alerts';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { Store } from '../store';
import { parseReply, senderNumber, type ReplyCommand } from './reply';
import type { IncomingText } from './second-path';

/**
 * Texts back from people (docs/second-path.md "Answering by text"): a text from a person's
 * `--sms` number that reads as an answer (reply.ts) acknowledges or resolves the alert it
 * names, among the alerts texted to that number: by short code, or the newest when none is
 * given; `acknowledged_by` is `sms:<number>`. Who it came from is only what the network says:
 * a number nobody has as `--sms`, or a text that is no answer, changes nothing and is logged.
 */
export type ReplyOutcome =
  | { kind: 'unknown_sender'; number: string | null }
  | { kind: 'not_an_answer'; number: string }
  | { kind: 'no_alert'; number: string; command: ReplyCommand }
  | { kind: 'done'; number: string; command: ReplyCommand; alertId: string; changed: boolean; cancelledCallIds: string[] };

export interface ReplyDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  alerts: Pick<AlertActions, 'acknowledge' | 'resolve'>;
}

/** Alerts looked at per person: a reply names one of the last texted to them. */
const RECENT = 50;

export function createReplyHandler(d: ReplyDeps): (t: IncomingText) => Promise<ReplyOutcome> {
  const log = d.log.child({ component: 'text-replies' });
  return async (t) => {
    const number = senderNumber(t.from);
    const people = number ? await d.store.textNotices.peopleWithSms(number) : [];
    if (!number || people.length === 0) {
      log.warn({ from: t.from, via: t.via, length: t.body.length }, 'text from a number no person has: ignored');
      return { kind: 'unknown_sender', number };
    }
    const command = parseReply(t.body);
    if (!command) {
      log.info({ from: number, via: t.via, length: t.body.length }, 'text from a person is not an answer: ignored');
      return { kind: 'not_an_answer', number };
    }
    // Every alert texted to this number, newest first, over the people who have it (one, usually).
    // A code given twice (an old alert's, reused once it was resolved) names the newest.
    const texted = (await Promise.all(people.map(async (p) => (await d.store.textNotices.textedTo(p.personId, number, RECENT)).map((a) => ({ ...a, ...p })))))
      .flat()
      .sort((a, b) => b.newest - a.newest);
    // No code: the newest the answer still changes (an acknowledgement skips alerts already
    // acknowledged or resolved, a resolve those resolved), else simply the newest.
    const open = (a: { state: string }) => (command.action === 'acknowledge' ? a.state === 'open' : a.state !== 'resolved');
    const target = command.code === null ? (texted.find(open) ?? texted[0]) : texted.find((a) => a.shortCode === command.code);
    if (!target) {
      log.warn({ from: number, code: command.code, action: command.action }, 'text answer names no alert texted to that number: ignored');
      return { kind: 'no_alert', number, command };
    }
    const by = `sms:${number}`;
    const at = d.clock();
    await d.store.transaction((tx) =>
      tx.textNotices.record({ alertId: target.alertId, accountId: target.accountId, personId: target.personId, type: 'sms.received', address: number, detail: t.body.trim(), at }),
    );
    const r = command.action === 'acknowledge' ? await d.alerts.acknowledge(target.accountId, target.alertId, by) : await d.alerts.resolve(target.accountId, target.alertId, by);
    const changed = r.ok && r.changed;
    log.info({ from: number, alertId: target.alertId, action: command.action, changed }, `alert ${command.action === 'acknowledge' ? 'acknowledged' : 'resolved'} by text`);
    return { kind: 'done', number, command, alertId: target.alertId, changed, cancelledCallIds: r.ok ? r.cancelledCallIds : [] };
  };
}
