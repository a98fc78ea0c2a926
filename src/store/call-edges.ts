import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import type { AmdReason, AnsweredBy, CallState } from '../call-model';

/**
 * A call's edges (call_events): what a move, a claim or a bundle's move records, one row per
 * listed call in one statement (the claim and `moveAll` in calls.ts).
 */

/** Records one edge (from → to) for each listed call, in one statement. */
export type RecordEdge = (
  held: readonly HeldCall[],
  e: { at: number; from: CallState; to: CallState; code?: number | null; reason?: string | null; trunk?: string | null; answeredBy?: AnsweredBy | null; amdReason?: AmdReason | null },
) => Promise<unknown>;

/** A call as its worker holds it: the attempt it was claimed on (CallChange.attempt). */
export interface HeldCall {
  id: string;
  attempt: number;
}

export interface CallEvent {
  at: number;
  attempt: number;
  from: CallState;
  to: CallState;
  sipCode: number | null;
  reason: string | null;
  trunk: string | null;
  answeredBy: AnsweredBy | null;
  amdReason: AmdReason | null;
}

export function createEdgeRecorder(db: SqlConnection): RecordEdge {
  const sql = dialectOf(db.dialect);
  // The edge of every listed call ($held: [{id, attempt}]), one row each, in one statement.
  // The casts give PostgreSQL the parameters' types (a SELECT list does not).
  const insertEvents = db.query(
    `INSERT INTO call_events (call_id, at, attempt, from_state, to_state, sip_code, reason, trunk, answered_by, amd_reason)
     SELECT value ->> 'id', CAST($at AS BIGINT), CAST(value ->> 'attempt' AS INTEGER), CAST($from AS TEXT), CAST($to AS TEXT),
            CAST($code AS INTEGER), CAST($reason AS TEXT), CAST($trunk AS TEXT), CAST($answeredBy AS TEXT), CAST($amdReason AS TEXT)
     FROM ${sql.jsonObjects('$held')}`,
  );
  return (held, e) =>
    insertEvents.run({
      held: JSON.stringify(held),
      at: e.at,
      from: e.from,
      to: e.to,
      code: e.code ?? null,
      reason: e.reason ?? null,
      trunk: e.trunk ?? null,
      answeredBy: e.answeredBy ?? null,
      amdReason: e.amdReason ?? null,
    });
}
