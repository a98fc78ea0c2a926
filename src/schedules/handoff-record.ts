import type { ScheduleRecord, Tx } from '../store';
import { rulesOf } from './rules';
import { onCallAt } from './timeline';

/**
 * docs/on-call.md "Hand-off calls": a hand-off not confirmed within this long raises its
 * alert (src/handoff/loop.ts); one older than this when first seen is not called at all.
 */
export const HANDOFF_CONFIRM_WITHIN_MS = 600_000;

/**
 * docs/on-call.md "Hand-off calls": the change at `at` as a hand-off for the hand-off loop
 * (src/handoff/loop.ts), in the watch's transaction, so it is written once across appliances.
 * Only a real hand-off (someone else comes on call: not a person's new number, not an edit
 * that rewrites who was on call already) and only a recent one: after a long outage the
 * hand-offs missed are not called now (a call about a shift begun hours ago helps nobody).
 */
export async function recordHandoff(tx: Tx, s: ScheduleRecord, at: number, now: number): Promise<void> {
  if (now - at >= HANDOFF_CONFIRM_WITHIN_MS) return;
  // Its own rules, with the overrides still running a moment before `at`: the watch's leave
  // out an override that ended at `at`, and who was on call then is its person.
  const rules = await rulesOf(tx, s, at - 1);
  const to = onCallAt(rules, at);
  const before = onCallAt(rules, at - 1);
  if (to.number === null) return;
  const same = to.person !== undefined ? to.person === before.person : before.person === undefined && to.number === before.number && to.name === before.name;
  if (same) return;
  await tx.handoffs.add(
    {
      accountId: s.accountId,
      scheduleId: s.id,
      scheduleName: s.name,
      timeZone: s.timeZone,
      at,
      until: to.until,
      incoming: { name: to.name, number: to.number, person: to.person ?? null },
      outgoing: before.number === null ? null : { name: before.name, number: before.number, person: before.person ?? null },
    },
    now,
  );
}
