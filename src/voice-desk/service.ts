import type { AlertActionResult, AlertActions } from '../alerts';
import type { Clock } from '../clock';
import { stepNumbers } from '../schedules';
import { claimUse, type AlertRecord, type Policy, type Store } from '../store';
import { hashPin, newPin, pinMatches } from './pin';

/** Who acts when the desk acknowledges or resolves (the alert's `acknowledged_by`, events, history). */
export const DESK_ACTOR = 'voice-desk';
/** The most alerts one desk call walks through (newest first); the count said is exact up to this. */
export const MAX_DESK_ALERTS = 100;

export type DeskPinResult = { ok: true; accountId: string; pin: string } | { ok: false; code: 'account_not_found' };
export type DeskPolicyResult = { ok: true; accountId: string; policy: Policy } | { ok: false; code: 'account_not_found' | 'policy_not_found' };

/**
 * The voice desk's rules (docs/telephony.md "Voice desk"), used by the CLI and by desk calls: PINs
 * (made here, shown once, stored hashed, one account each), the policy keypad 0 follows,
 * the alerts a call reads, and the actions it takes, through the same alert actions as the
 * API (src/alerts/actions.ts) so events, callbacks and history record them alike.
 */
export interface DeskService {
  /** A new PIN for the account (the old one stops working); the PIN is returned only here. */
  newPin(accountId: string): Promise<DeskPinResult>;
  /** The policy (id or name) whose first step keypad 0 connects to. */
  setPolicy(accountId: string, policy: string): Promise<DeskPolicyResult>;
  /** Whether the account has a PIN, and the policy keypad 0 follows (null: the oldest API key's default). */
  setup(accountId: string): Promise<{ hasPin: boolean; policy: Policy | null }>;
  /** The account whose PIN this is (not disabled), or null. */
  accountByPin(entry: string): Promise<string | null>;
  pending(accountId: string): Promise<AlertRecord[]>;
  acknowledge(accountId: string, alertId: string): Promise<AlertActionResult>;
  resolve(accountId: string, alertId: string): Promise<AlertActionResult>;
  /**
   * Who is on call first: the first number of the first step of the desk's policy, else of
   * the default policy of the account's oldest active API key (a schedule named in that
   * step gives its on-call number now: schedules/step-numbers.ts). Null: nobody.
   */
  onCallNumber(accountId: string): Promise<string | null>;
}

export interface DeskServiceDeps {
  store: Store;
  clock: Clock;
  /** The API's own alert actions (src/services.ts hands the registry's). */
  alerts: AlertActions;
}

export function createDeskService(d: DeskServiceDeps): DeskService {
  const accountExists = async (accountId: string) => (await d.store.accounts.get(accountId)) !== null;
  return {
    async newPin(accountId) {
      if (!(await accountExists(accountId))) return { ok: false, code: 'account_not_found' };
      // A PIN names its account: one already in use by another account is drawn again.
      let pin = newPin();
      while ((await this.accountByPin(pin)) !== null) pin = newPin();
      const hash = await hashPin(pin);
      await d.store.transaction((tx) => tx.voiceDesk.setPin(accountId, hash, d.clock()));
      return { ok: true, accountId, pin };
    },
    async setPolicy(accountId, name) {
      return d.store.transaction(async (tx): Promise<DeskPolicyResult> => {
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        await claimUse(tx, accountId, 'policy');
        const policy = await tx.policies.find(accountId, name);
        if (!policy) return { ok: false, code: 'policy_not_found' };
        await tx.voiceDesk.setPolicy(accountId, policy.id, d.clock());
        return { ok: true, accountId, policy };
      });
    },
    async setup(accountId) {
      const row = await d.store.voiceDesk.get(accountId);
      const policy = row?.policyId ? await d.store.policies.get(row.policyId) : null;
      return { hasPin: Boolean(row?.pinHash), policy: policy && policy.accountId === accountId ? policy : null };
    },
    async accountByPin(entry) {
      for (const { accountId, pinHash } of await d.store.voiceDesk.pins()) if (await pinMatches(entry, pinHash)) return accountId;
      return null;
    },
    pending: (accountId) => d.store.voiceDesk.pendingAlerts(accountId, MAX_DESK_ALERTS),
    acknowledge: (accountId, alertId) => d.alerts.acknowledge(accountId, alertId, DESK_ACTOR),
    resolve: (accountId, alertId) => d.alerts.resolve(accountId, alertId, DESK_ACTOR),
    async onCallNumber(accountId) {
      const setup = await d.store.voiceDesk.get(accountId);
      let policy = setup?.policyId ? await d.store.policies.get(setup.policyId) : null;
      if (!policy) {
        const oldest = (await d.store.credentials.listForAccount(accountId)).find((c) => c.revokedAt === null);
        policy = oldest?.defaultPolicyId ? await d.store.policies.get(oldest.defaultPolicyId) : null;
      }
      const first = policy?.steps[0];
      if (!first) return null;
      return (await stepNumbers(d.store, accountId, first, d.clock()))[0] ?? null;
    },
  };
}
