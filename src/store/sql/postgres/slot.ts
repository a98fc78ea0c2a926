import type { ReservedSQL } from 'bun';
import type { SqlConnection } from '../connection';
import { postgresConnection } from './connection';

/** A transaction's connection that outlives the transaction (database.ts slotFor keeps them). */
export interface Slot {
  client: ReservedSQL | null;
  /** Statements sent and not waited for in this transaction (SqlStatement.send). */
  sent: Promise<unknown>[];
  /** Whether this transaction wrote a table the lookup cache keeps (looked-up.ts): the change marker moves once it commits. */
  lookedUp: boolean;
  readonly connection: SqlConnection;
}

export function newSlot(): Slot {
  const slot: Slot = {
    client: null,
    sent: [],
    lookedUp: false,
    connection: postgresConnection(
      () => {
        // A unit's work that goes on after its transaction ended (it MUST NOT: sql/database.ts).
        if (!slot.client) throw new Error('the transaction this statement belonged to has ended');
        return slot.client;
      },
      () => {
        slot.lookedUp = true;
      },
      (sent) => slot.sent.push(sent),
    ),
  };
  return slot;
}

/** The first of `sent` to fail, in the order they were sent, once all have settled; null when none did. */
export async function firstFailure(sent: Promise<unknown>[]): Promise<{ reason: unknown } | null> {
  if (sent.length === 0) return null;
  const settled = await Promise.allSettled(sent);
  const failed = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult | undefined;
  return failed ? { reason: failed.reason } : null;
}
