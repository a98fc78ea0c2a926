import * as z from 'zod';
import { objectName } from '../names';
import type { Clock } from '../clock';
import { normalizePhoneNumber } from '../phone';
import { personIdsOf } from '../people';
import { claimUse, whoUses, type Policy, type PolicyStep, type Store, type Tx, type UsedBy } from '../store';

/** What a person gives for a policy (CLI, panel); numbers in any form the API accepts. */
export const policyInput = z.object({
  name: objectName,
  steps: z
    .array(
      z
        .object({
          numbers: z.array(z.string()).max(10).default([]),
          /** On-call schedules of the account (docs/on-call.md "On-call schedules"): whoever is on call when the step starts. */
          schedules: z.array(z.string().trim().min(1).max(60)).max(10).optional(),
          /** People of the account, by name (any case) or id (docs/on-call.md "People"): their phones in order. Kept as ids. */
          people: z.array(z.string().trim().min(1).max(60)).max(10).optional(),
          wait_s: z.number().int().min(0).max(86_400).default(300),
        })
        .refine((s) => s.numbers.length + (s.schedules?.length ?? 0) + (s.people?.length ?? 0) > 0, {
          message: 'a step calls at least one number, person or schedule',
          path: ['numbers'],
        }),
    )
    .min(1)
    .max(10),
  rounds: z.number().int().min(1).max(10).default(2),
});
export type PolicyInput = z.input<typeof policyInput>;

/** A delete refused: what still uses the policy (src/store/usage-of.ts). */
export type PolicyInUse = { ok: false; code: 'policy_in_use'; usedBy: UsedBy[] };

export type PolicyResult =
  | { ok: true; policy: Policy }
  | { ok: false; code: 'invalid_policy'; problem: string }
  | { ok: false; code: 'policy_name_taken' | 'policy_not_found' | 'account_not_found' | 'credential_not_found' };

/**
 * Escalation policies of an account (docs/on-call.md "Escalation: call until someone presses 1"):
 * the rules live here once, for the CLI and the panel alike.
 */
export interface PoliciesService {
  create(accountId: string, input: PolicyInput): Promise<PolicyResult>;
  update(accountId: string, idOrName: string, input: PolicyInput): Promise<PolicyResult>;
  /** Refused (policy_in_use) while a heartbeat, an active key's default or the voice desk uses it. */
  remove(accountId: string, idOrName: string): Promise<PolicyResult | PolicyInUse>;
  /** The policy and who uses it now (the panel's delete page asks before it deletes); null: no such policy. */
  usersOf(accountId: string, idOrName: string): Promise<{ policy: Policy; usedBy: UsedBy[] } | null>;
  /** The policy a credential's requests use when they name none (null clears it). */
  setDefault(accountId: string, apiKey: string, idOrName: string | null): Promise<{ ok: true } | Extract<PolicyResult, { ok: false }>>;
}

function validate(input: PolicyInput): { ok: true; value: z.output<typeof policyInput> } | { ok: false; code: 'invalid_policy'; problem: string } {
  const parsed = policyInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, code: 'invalid_policy', problem: `${issue.path.join('.') || 'policy'}: ${issue.message}` };
  }
  const steps = [];
  for (const [i, step] of parsed.data.steps.entries()) {
    const numbers: string[] = [];
    for (const raw of step.numbers) {
      const n = normalizePhoneNumber(raw.trim());
      if (!n) return { ok: false, code: 'invalid_policy', problem: `steps.${i}.numbers: invalid phone number: ${raw}` };
      if (!numbers.includes(n)) numbers.push(n);
    }
    const schedules = [...new Set(step.schedules ?? [])];
    const people = [...new Set(step.people ?? [])];
    steps.push({ numbers, ...(people.length ? { people } : {}), ...(schedules.length ? { schedules } : {}), wait_s: step.wait_s });
  }
  return { ok: true, value: { ...parsed.data, steps } };
}

/**
 * A step naming a schedule or a person the account does not have: refused as the policy is
 * written, naming it. The people named are replaced by their ids in `steps` (src/people/refs.ts).
 */
async function missingSchedule(tx: Tx, accountId: string, steps: PolicyStep[]): Promise<{ ok: false; code: 'invalid_policy'; problem: string } | null> {
  await claimUse(tx, accountId, 'schedule');
  await claimUse(tx, accountId, 'person');
  for (const [i, step] of steps.entries()) {
    for (const name of step.schedules ?? []) {
      if (!(await tx.schedules.find(accountId, name))) return { ok: false, code: 'invalid_policy', problem: `steps.${i}.schedules: no such schedule: ${name}` };
    }
    if (step.people?.length) {
      const ids = await personIdsOf(tx, accountId, step.people);
      if (!ids.ok) return { ok: false, code: 'invalid_policy', problem: `steps.${i}.people: unknown person: ${ids.unknown}` };
      step.people = ids.ids;
    }
  }
  return null;
}

/**
 * An account's policies change one transaction at a time: a name is checked free and then
 * taken, a policy is found and then named as a default. On PostgreSQL transactions run side
 * by side, so a racing one waits for this one's COMMIT and then sees its change
 * (policy_name_taken or policy_not_found, not a constraint violation).
 */
const policiesLock = (accountId: string) => `policies/${accountId}`;

export function createPoliciesService({ store, clock }: { store: Store; clock: Clock }): PoliciesService {
  return {
    create: (accountId, input) =>
      store.transaction(async (tx): Promise<PolicyResult> => {
        const v = validate(input);
        if (!v.ok) return v;
        await tx.serializeOn(policiesLock(accountId));
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        if (await tx.policies.find(accountId, v.value.name)) return { ok: false, code: 'policy_name_taken' };
        const missing = await missingSchedule(tx, accountId, v.value.steps);
        if (missing) return missing;
        return { ok: true, policy: await tx.policies.create({ accountId, ...v.value }, clock()) };
      }),
    update: (accountId, idOrName, input) =>
      store.transaction(async (tx): Promise<PolicyResult> => {
        const v = validate(input);
        if (!v.ok) return v;
        await tx.serializeOn(policiesLock(accountId));
        const p = await tx.policies.find(accountId, idOrName);
        if (!p) return { ok: false, code: 'policy_not_found' };
        const clash = await tx.policies.find(accountId, v.value.name);
        if (clash && clash.id !== p.id) return { ok: false, code: 'policy_name_taken' };
        const missing = await missingSchedule(tx, accountId, v.value.steps);
        if (missing) return missing;
        await tx.policies.update(p.id, v.value, clock());
        return { ok: true, policy: (await tx.policies.get(p.id))! };
      }),
    remove: (accountId, idOrName) =>
      store.transaction(async (tx): Promise<PolicyResult | PolicyInUse> => {
        await tx.serializeOn(policiesLock(accountId));
        const p = await tx.policies.find(accountId, idOrName);
        if (!p) return { ok: false, code: 'policy_not_found' };
        const usedBy = await whoUses(tx, accountId, { kind: 'policy', id: p.id, name: p.name });
        if (usedBy.length > 0) return { ok: false, code: 'policy_in_use', usedBy };
        await tx.policies.delete(p.id);
        return { ok: true, policy: p };
      }),
    usersOf: (accountId, idOrName) =>
      store.transaction(async (tx) => {
        const policy = await tx.policies.find(accountId, idOrName);
        return policy ? { policy, usedBy: await whoUses(tx, accountId, { kind: 'policy', id: policy.id, name: policy.name }) } : null;
      }),
    setDefault: (accountId, apiKey, idOrName) =>
      store.transaction(async (tx) => {
        await tx.serializeOn(policiesLock(accountId));
        const cred = await tx.credentials.findByApiKeyInAccount(accountId, apiKey);
        if (!cred) return { ok: false as const, code: 'credential_not_found' as const };
        let policyId: string | null = null;
        if (idOrName !== null) {
          await claimUse(tx, accountId, 'policy');
          const p = await tx.policies.find(accountId, idOrName);
          if (!p) return { ok: false as const, code: 'policy_not_found' as const };
          policyId = p.id;
        }
        await tx.policies.setDefault(cred.id, policyId);
        return { ok: true as const };
      }),
  };
}
