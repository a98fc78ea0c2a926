import * as z from 'zod';
import { objectName } from '../names';
import { resolveOpenAlertByKey } from '../alerts';
import type { Clock } from '../clock';
import { isMessageTooLong } from '../intake/message';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import { randomToken } from '../ids';
import { digest } from '../digest';
import { claimUse, type Heartbeat, type Store, type Tx } from '../store';

/** The alert a late heartbeat raises, and its next ping resolves (docs/on-call.md "Heartbeats"). */
export const heartbeatAlertKey = (id: string) => `heartbeat:${id}`;

/** The path a pinger calls; the token in it is the only credential. */
export const pingPath = (token: string) => `/heartbeat/${token}`;

/** What a person gives for a heartbeat (CLI); numbers in any form the API accepts. */
export const heartbeatInput = z
  .object({
    name: objectName,
    interval_s: z.number().int().min(1).max(31 * 86_400),
    grace_s: z.number().int().min(0).max(31 * 86_400).default(60),
    policy: z.string().trim().min(1).nullish(),
    to: z.array(z.string()).max(10).default([]),
    message: z.string().trim().min(1).nullish(),
  })
  .refine((h) => h.policy || h.to.length > 0, { message: 'give --policy or --to: someone must be called', path: ['to'] });
export type HeartbeatInput = z.input<typeof heartbeatInput>;

export type HeartbeatProblem =
  | { ok: false; code: 'invalid_heartbeat'; problem: string }
  | { ok: false; code: 'heartbeat_name_taken' | 'heartbeat_not_found' | 'account_not_found' | 'unknown_policy' };

export type Created = { ok: true; heartbeat: Heartbeat; token: string; pingUrl: string } | HeartbeatProblem;
export type Changed = { ok: true; heartbeat: Heartbeat; changed: boolean } | HeartbeatProblem;

export interface PingResult {
  heartbeat: Heartbeat;
  /** It was late: the alert it raised is resolved now (null when none was open any more). */
  resolvedAlertId: string | null;
  cancelledCallIds: string[];
}

/**
 * Heartbeats of an account (docs/on-call.md "Heartbeats"): the rules live here once, for the CLI
 * and HTTP alike. The deadline checker that raises the alerts is checker.ts.
 */
export interface HeartbeatService {
  create(accountId: string, input: HeartbeatInput): Promise<Created>;
  /** The account's heartbeats, by name (the panel's page). */
  list(accountId: string): Promise<Heartbeat[]>;
  pause(accountId: string, idOrName: string): Promise<Changed>;
  resume(accountId: string, idOrName: string): Promise<Changed>;
  /** Deletes it; an alert it raised that is still open is resolved (its waiting calls end). */
  remove(accountId: string, idOrName: string): Promise<Changed>;
  /**
   * A ping with this token: one transaction, one statement when the heartbeat was up. Null:
   * no heartbeat has this token. A late heartbeat's open alert is resolved in the same
   * transaction (docs/http-api.md "Alerts: dedupe and resolve": its waiting calls end `cancelled`).
   */
  ping(token: string): Promise<PingResult | null>;
  /** `ping` by the account's heartbeat name (the Opsgenie Heartbeat API's ping). Null: the account has no such heartbeat. */
  pingNamed(accountId: string, name: string): Promise<PingResult | null>;
}

export interface HeartbeatServiceDeps {
  store: Store;
  clock: Clock;
  /** credit.timezone: a cancelled call's credit goes back to its period. */
  timeZone: string;
  /** numbers.accept: the forms `--to` may use (default: the API's). */
  numberForms?: readonly NumberForm[];
}

function problemOf(error: z.ZodError): HeartbeatProblem {
  const issue = error.issues[0]!;
  return { ok: false, code: 'invalid_heartbeat', problem: `${issue.path.join('.') || 'heartbeat'}: ${issue.message}` };
}

export function createHeartbeatService(d: HeartbeatServiceDeps): HeartbeatService {
  const change = (accountId: string, idOrName: string, act: (h: Heartbeat, now: number, tx: Tx) => Promise<boolean>) =>
    d.store.transaction(async (tx): Promise<Changed> => {
      const h = await tx.heartbeats.find(accountId, idOrName);
      if (!h) return { ok: false, code: 'heartbeat_not_found' };
      const now = d.clock();
      const changed = await act(h, now, tx);
      return { ok: true, heartbeat: (await tx.heartbeats.find(accountId, h.id)) ?? h, changed };
    });

  /** One ping, one transaction: a late heartbeat's open alert is resolved in it. */
  const pingWith = (ping: (tx: Tx, now: number) => Promise<{ heartbeat: Heartbeat; wasLate: boolean } | null>) =>
    d.store.transaction(async (tx): Promise<PingResult | null> => {
      const now = d.clock();
      const r = await ping(tx, now);
      if (!r) return null;
      if (!r.wasLate) return { heartbeat: r.heartbeat, resolvedAlertId: null, cancelledCallIds: [] };
      const closed = await resolveOpenAlertByKey({ store: tx, timeZone: d.timeZone }, r.heartbeat.accountId, heartbeatAlertKey(r.heartbeat.id), now, 'heartbeat ping');
      return { heartbeat: r.heartbeat, resolvedAlertId: closed.alert?.id ?? null, cancelledCallIds: closed.cancelledCallIds };
    });

  return {
    async create(accountId, input) {
      const parsed = heartbeatInput.safeParse(input);
      if (!parsed.success) return problemOf(parsed.error);
      const v = parsed.data;
      if (v.message && isMessageTooLong(v.message)) return { ok: false, code: 'invalid_heartbeat', problem: 'message: too long (max 500 characters)' };
      const numbers: string[] = [];
      for (const raw of v.to) {
        const n = normalizePhoneNumber(raw.trim(), d.numberForms);
        if (!n) return { ok: false, code: 'invalid_heartbeat', problem: `to: invalid phone number: ${raw}` };
        if (!numbers.includes(n)) numbers.push(n);
      }
      // 32 base62 characters, ~190 bits: the ping URL cannot be guessed; only its SHA-256 is kept.
      const token = randomToken(32);
      return d.store.transaction(async (tx): Promise<Created> => {
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        // The policy may not be deleted while this heartbeat is being created (src/store/usage-of.ts).
        if (v.policy) await claimUse(tx, accountId, 'policy');
        const policy = v.policy ? await tx.policies.find(accountId, v.policy) : null;
        if (v.policy && !policy) return { ok: false, code: 'unknown_policy' };
        if (await tx.heartbeats.find(accountId, v.name)) return { ok: false, code: 'heartbeat_name_taken' };
        const heartbeat = await tx.heartbeats.create(
          {
            accountId,
            name: v.name,
            tokenHash: digest(token),
            intervalS: v.interval_s,
            graceS: v.grace_s,
            policyId: policy?.id ?? null,
            numbers,
            message: v.message ?? null,
          },
          d.clock(),
        );
        return { ok: true, heartbeat, token, pingUrl: pingPath(token) };
      });
    },
    list: (accountId) => d.store.heartbeats.list(accountId),
    pause: (accountId, idOrName) => change(accountId, idOrName, (h, now, tx) => tx.heartbeats.pause(h.id, now)),
    resume: (accountId, idOrName) => change(accountId, idOrName, (h, now, tx) => tx.heartbeats.resume(h.id, now)),
    remove: (accountId, idOrName) =>
      change(accountId, idOrName, async (h, now, tx) => {
        await resolveOpenAlertByKey({ store: tx, timeZone: d.timeZone }, accountId, heartbeatAlertKey(h.id), now, 'heartbeat deleted');
        return tx.heartbeats.delete(h.id);
      }),
    async ping(token) {
      // A token of another shape is no token of ours: answered without a database round trip.
      if (!/^[0-9A-Za-z]{32}$/.test(token)) return null;
      const hash = digest(token);
      return pingWith((tx, now) => tx.heartbeats.ping(hash, now));
    },
    pingNamed: (accountId, name) => pingWith((tx, now) => tx.heartbeats.pingByName(accountId, name, now)),
  };
}
