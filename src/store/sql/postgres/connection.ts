import type { RunResult, SqlConnection, SqlParams, SqlStatement } from '../connection';
import { bindOrder, toPositional, type PositionalSql } from '../named-params';
import { createPostgresBridge, RequestTooLargeError, type PostgresBridge } from './bridge';
import type { BridgeAnswer, BridgeStep, QueryMode, StepAnswer } from './protocol';

/** Transaction control that waits for the next statement (see `deferred`). */
const DEFERRABLE = new Set(['BEGIN', 'SAVEPOINT W', 'RELEASE W']);

/**
 * At most this many statements wait for the next round trip: a burst's batch goes in
 * several, each well inside the bridge's buffer and its time limit.
 */
export const HELD_BACK_LIMIT = 400;

/** How long statements fail at once after the server could not be reached. */
export const UNREACHABLE_BACKOFF_MS = 1000;

/** An error PostgreSQL answered, with its SQLSTATE (e.g. 23505 for a unique violation). */
export class PostgresError extends Error {
  override readonly name = 'PostgresError';
  constructor(
    message: string,
    readonly sqlState: string | undefined,
    /** The statement that failed ('' when none was reached: the bridge or the connection failed). */
    readonly failedSql = '',
    /** The server could not be reached, or the connection broke mid-way. */
    readonly lost = false,
  ) {
    super(message);
  }
}

/**
 * A connection that can hold writes back (write-behind): inside a transaction, a write
 * whose answer nobody reads waits for the next statement that is waited for, and travels
 * with it. See `writeBehind`.
 */
export interface WriteBehindConnection extends SqlConnection {
  /**
   * While on, inside a transaction, `run()` of a write is sent with the next statement the
   * main thread waits for (at the latest the COMMIT), unless its `changes` is read first.
   * The group committer turns it on for the batches it runs without savepoints: a
   * write that fails then fails the transaction at a later statement, and the batch is run
   * again carefully (group-commit.ts). Off by default: elsewhere a failure must surface at
   * the statement that caused it.
   */
  writeBehind: boolean;
}

export interface PostgresConnectionOptions {
  url: string;
  /** How long one statement may take before it fails. */
  statementTimeoutMs: number;
}

/** The PostgreSQL store's connection, with bun:sqlite's shape (connection.ts) over the bridge. */
export function postgresConnection(o: PostgresConnectionOptions): WriteBehindConnection & { totalChanges(): number; roundTrips(): number } {
  const bridge: PostgresBridge = createPostgresBridge({ url: o.url, timeoutMs: o.statementTimeoutMs });
  const translated = new Map<string, PositionalSql>();
  let inTransaction = false;
  let writeBehind = false;
  /** Rows changed through this connection, as SQLite's total_changes() (change-marker.ts). */
  let totalChanges = 0;
  /** Requests the main thread waited for (what write-behind saves; its tests count them). */
  let roundTrips = 0;

  /**
   * After the server could not be reached, statements fail at once for a while instead of
   * each waiting for its own connection attempt: the main thread waits for every round
   * trip, so a database that is gone must not cost every request `statementTimeoutMs`.
   * ROLLBACK always goes through: the worker waits for it after a lost transaction.
   */
  let unreachableUntil = 0;
  let unreachableBecause = '';
  /**
   * Statements that answer nothing anyone waits for travel with the next statement instead
   * of costing a round trip of their own (the main thread waits for every round trip):
   * BEGIN, SAVEPOINT and RELEASE always, writes under `writeBehind`. A failure of one is the
   * failure of the statement it travelled with. COMMIT and the rollbacks go at once: the
   * caller acts on their outcome.
   */
  let pending: Pending[] = [];

  /** Sends what is pending, then `steps`; returns the answers to `steps`. */
  const send = (steps: BridgeStep[]): StepAnswer[] => {
    const sent = checksLast(pending);
    pending = [];
    const all = sent.length === 0 ? steps : [...sent.map((p) => p.step), ...steps];
    const rollback = steps.length === 1 && steps[0]!.mode === 'simple' && steps[0]!.sql.trim().toUpperCase() === 'ROLLBACK';
    if (!rollback && performance.now() < unreachableUntil) throw new PostgresError(`database unreachable: ${unreachableBecause}`, undefined, '', true);
    let answer: BridgeAnswer;
    roundTrips++;
    try {
      answer = bridge.call({ steps: all });
    } catch (e) {
      if (e instanceof RequestTooLargeError) throw new PostgresError(e.message, undefined, all[0]?.sql ?? '');
      // The bridge gave up waiting (bridge.ts): the server did not answer in time.
      unreachable((e as Error).message);
      throw new PostgresError((e as Error).message, undefined, '', true);
    }
    if (!answer.ok) {
      if (answer.lost) unreachable(answer.message);
      throw new PostgresError(answer.message, answer.sqlState, all[answer.failedAt]?.sql ?? '', answer.lost ?? false);
    }
    sent.forEach((p, i) => p.settle?.(answer.answers[i]!));
    return answer.answers.slice(sent.length);
  };
  const unreachable = (why: string) => {
    unreachableBecause = why;
    unreachableUntil = performance.now() + UNREACHABLE_BACKOFF_MS;
  };

  const statement = (text: string): SqlStatement => {
    let positional = translated.get(text);
    if (!positional) {
      positional = toPositional(quoteCamelAliases(text));
      translated.set(text, positional);
    }
    const { sql, names } = positional;
    // Over-counting is harmless (the change marker only moves more often); missing a write is not.
    const writes = !/^\s*SELECT\b/i.test(text);
    const counted = (a: StepAnswer) => {
      if (writes) totalChanges += a.changes ?? 0;
      return a;
    };
    const run = (mode: QueryMode, params: SqlParams) => counted(send([{ sql, params: bindOrder(names, params), mode }])[0]!);
    return {
      run: (params): RunResult => {
        if (!(writeBehind && inTransaction && writes)) return { changes: run('run', params).changes ?? 0 };
        const later = heldBack({ sql, params: bindOrder(names, params), mode: 'run' }, counted);
        return {
          get changes() {
            return later().changes ?? 0;
          },
        };
      },
      runExpecting(params, changes) {
        if (!(writeBehind && inTransaction && writes)) return (run('run', params).changes ?? 0) === changes;
        heldBack({ sql, params: bindOrder(names, params), mode: 'run', expect: changes }, counted);
        return true;
      },
      get: (params) => run('get', params).rows?.[0] ?? null,
      all: (params) => run('all', params).rows ?? [],
      values: (params) => (run('values', params).rows ?? []) as unknown[][],
      finalize: () => undefined,
    };
  };

  /** Holds `step` back; the function returned gives its answer, sending what is pending if need be. */
  const heldBack = (step: BridgeStep, onAnswer: (a: StepAnswer) => void): (() => StepAnswer) => {
    let answer: StepAnswer | null = null;
    const entry: Pending = { step, settle: (a) => onAnswer((answer = a)) };
    pending.push(entry);
    if (pending.length >= HELD_BACK_LIMIT) send([]);
    return () => {
      if (answer === null && pending.includes(entry)) send([]);
      if (answer === null) throw new Error('the statement did not run: its transaction was rolled back');
      return answer;
    };
  };

  return {
    dialect: 'postgres',
    query: statement,
    prepare: statement,
    exec(sql) {
      const word = sql.trim().toUpperCase();
      if (DEFERRABLE.has(word)) {
        pending.push({ step: { sql, mode: 'simple' } });
        if (word === 'BEGIN') inTransaction = true;
        return;
      }
      // Whatever was held back belongs to the transaction being rolled back: never sent.
      if (word === 'ROLLBACK') pending = [];
      try {
        send([{ sql, mode: 'simple' }]);
        if (word.startsWith('BEGIN')) inTransaction = true;
        if (word === 'COMMIT') inTransaction = false;
      } catch (e) {
        // A COMMIT that failed itself still ended the transaction on the server; one whose
        // held-back writes failed first was never run: the transaction waits for ROLLBACK.
        if (word === 'COMMIT' && (e as PostgresError).failedSql === sql) inTransaction = false;
        throw e;
      } finally {
        if (word === 'ROLLBACK') inTransaction = false;
      }
    },
    get inTransaction() {
      return inTransaction;
    },
    get writeBehind() {
      return writeBehind;
    },
    set writeBehind(on: boolean) {
      writeBehind = on;
    },
    totalChanges: () => totalChanges,
    roundTrips: () => roundTrips,
    close: () => bridge.close(),
  };
}

/**
 * Held-back checks (`runExpecting`: the credit charge) go after the other held-back writes,
 * in their own order. The row a check updates is locked until COMMIT, and under load it is
 * the same row for every request of an account (its usage this period): taken last, it is
 * held for the checks and the COMMIT only, not for the whole batch, so another appliance's
 * batch waits that much less for it. Nothing held back reads what a check writes (reads
 * are never held back, and everything held back is sent before them), so answers are
 * unchanged; a refund held back after a check now comes before it, so the check counts
 * credit given back in its own transaction.
 */
function checksLast(held: Pending[]): Pending[] {
  if (!held.some(isCheck)) return held;
  return [...held.filter((p) => !isCheck(p)), ...held.filter(isCheck)];
}

const isCheck = (p: Pending) => p.step.mode !== 'simple' && p.step.expect !== undefined;

interface Pending {
  step: BridgeStep;
  /** Receives the step's answer once it ran (writes held back; transaction control needs none). */
  settle?: (a: StepAnswer) => void;
}

/**
 * PostgreSQL folds unquoted names to lower case, SQLite keeps them: `request_id AS
 * requestId` must come back as `requestId` from both, so camelCase aliases are quoted.
 */
export function quoteCamelAliases(sql: string): string {
  return sql.replace(/\bAS\s+([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b/g, 'AS "$1"');
}
