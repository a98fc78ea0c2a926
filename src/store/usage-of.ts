import type { Tx } from './tables';

/**
 * What may not be deleted while something else names it (docs/on-call.md "Nothing silently calls
 * nobody"): a schedule that a policy's step names, a policy that a heartbeat, a key's default
 * or the voice desk follows. Deleting it anyway left the user calling nobody (issue 49: a
 * webhook answered `0 call(s) queued`, a heartbeat went late and raised nothing).
 * A person that a schedule (a layer, an override still to come) or a policy's step names, or
 * that is the account's fallback (`person_in_use`, docs/on-call.md "People").
 */
export type UsedKind = 'schedule' | 'policy' | 'person';

/** One user of a thing, as the API, the CLI and the panel name it. */
export interface UsedBy {
  kind: 'policy' | 'heartbeat' | 'key' | 'voice_desk' | 'schedule' | 'fallback';
  id: string;
  name: string;
}

/**
 * Both sides of the rule serialize on this key: the delete (whoUses, then the DELETE, in one
 * transaction) and every write that starts naming a thing of that kind (claimUse, before it
 * reads the thing). On PostgreSQL, under READ COMMITTED, a heartbeat created naming a policy
 * while the policy is deleted would otherwise see the policy, and the delete would not see the
 * heartbeat; both would commit. SQLite has one writer at a time and needs nothing (key-lock.ts).
 */
const usageLock = (accountId: string, kind: UsedKind) => `uses ${kind} ${accountId}`;

/** Taken by a write that is about to name a thing of `kind` (a policy naming a schedule, a heartbeat a policy…), before it reads it. */
export function claimUse(tx: Tx, accountId: string, kind: UsedKind): Promise<void> {
  return tx.serializeOn(usageLock(accountId, kind));
}

/**
 * Who uses the account's schedule or policy, in the caller's transaction; empty when nothing
 * does. The caller deletes in the same transaction, so nothing can start using it meanwhile.
 */
export async function whoUses(tx: Tx, accountId: string, target: { kind: UsedKind; id: string; name: string; /** A person: overrides ended before this do not count. */ now?: number }): Promise<UsedBy[]> {
  await tx.serializeOn(usageLock(accountId, target.kind));
  switch (target.kind) {
    case 'schedule':
      return usersOfSchedule(tx, accountId, target);
    case 'policy':
      return usersOfPolicy(tx, accountId, target.id);
    case 'person':
      return usersOfPerson(tx, accountId, target.id, target.now ?? 0);
  }
}

/**
 * Schedules whose layers or overrides still to come name the person, policies whose steps do,
 * and the account's fallback. Layers, overrides and steps keep the person's id (src/people/refs.ts),
 * so a renamed person is still found.
 */
async function usersOfPerson(tx: Tx, accountId: string, personId: string, now: number): Promise<UsedBy[]> {
  const [schedules, policies, fallback] = await Promise.all([tx.schedules.list(accountId), tx.policies.list(accountId), tx.fallbacks.get(accountId)]);
  const scheduleUsers: UsedBy[] = [];
  for (const s of schedules) {
    const inLayers = s.layers.some((l) => l.participants.some((p) => 'person' in p && p.person === personId));
    const inOverrides = !inLayers && (await tx.schedules.overrides(s.id, now)).some((o) => o.personId === personId);
    if (inLayers || inOverrides) scheduleUsers.push({ kind: 'schedule', id: s.id, name: s.name });
  }
  return [
    ...scheduleUsers,
    ...policies.filter((p) => p.steps.some((st) => (st.people ?? []).includes(personId))).map((p) => ({ kind: 'policy' as const, id: p.id, name: p.name })),
    ...(fallback?.personId === personId ? [{ kind: 'fallback' as const, id: accountId, name: 'account fallback' }] : []),
  ];
}

/** Policies whose steps name the schedule (steps keep what was written: its name, or its id). */
async function usersOfSchedule(tx: Tx, accountId: string, schedule: { id: string; name: string }): Promise<UsedBy[]> {
  const named = (n: string) => n === schedule.name || n === schedule.id;
  return (await tx.policies.list(accountId))
    .filter((p) => p.steps.some((s) => (s.schedules ?? []).some(named)))
    .map((p) => ({ kind: 'policy' as const, id: p.id, name: p.name }));
}

/** Heartbeats raising alerts under it, active keys whose default it is, the voice desk's keypad 0. */
async function usersOfPolicy(tx: Tx, accountId: string, policyId: string): Promise<UsedBy[]> {
  const [heartbeats, keys, desk] = await Promise.all([tx.heartbeats.list(accountId), tx.credentials.listForAccount(accountId), tx.voiceDesk.get(accountId)]);
  return [
    ...heartbeats.filter((h) => h.policyId === policyId).map((h) => ({ kind: 'heartbeat' as const, id: h.id, name: h.name })),
    // A revoked key's default leads nowhere (the store clears it with the policy).
    ...keys.filter((k) => k.revokedAt === null && k.defaultPolicyId === policyId).map((k) => ({ kind: 'key' as const, id: k.id, name: k.apiKey })),
    ...(desk?.policyId === policyId ? [{ kind: 'voice_desk' as const, id: accountId, name: 'voice desk' }] : []),
  ];
}

/** "heartbeat nightly (hb_…), key ak_… (default policy)": the users in one line, for the CLI and logs. */
export function describeUsers(users: readonly UsedBy[]): string {
  const one = (u: UsedBy) => (u.kind === 'voice_desk' ? 'the voice desk' : u.kind === 'fallback' ? "the account's fallback" : `${u.kind} ${u.name}${u.name === u.id ? '' : ` (${u.id})`}`);
  return users.map(one).join(', ');
}
