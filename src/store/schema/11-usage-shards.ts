import { postgresDdl } from '../sql/postgres/ddl';
import { USAGE_SHARDS } from '../usage';
import type { MigrationStep } from './migration-step';

/** Usage per account, period and shard (usage.ts). */
const USAGE_SHARDS_SCHEMA = `
      CREATE TABLE usage_shards (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        period     TEXT NOT NULL,                    -- YYYY-MM in credit.timezone
        shard      INTEGER NOT NULL,                 -- 0 … USAGE_SHARDS-1
        used       INTEGER NOT NULL,
        exact      INTEGER NOT NULL,                 -- 1: every charge of the period checks the total
        PRIMARY KEY (account_id, period, shard)
      ) STRICT, WITHOUT ROWID;
`;
const OTHER_SHARDS = Array.from({ length: USAGE_SHARDS - 1 }, (_, i) => i + 1);

/** Schema step 11: usage in shards: charges far from the credit limit do not wait for each other. Released: never edit, add a step (migration-step.ts). */
export const usageShardsStep: MigrationStep = {
  version: 11,
  name: 'usage in shards: charges far from the credit limit do not wait for each other',
  sql: USAGE_SHARDS_SCHEMA + `
    -- Periods charged before: exact from the start (usage.ts), as every charge was.
    INSERT INTO usage_shards (account_id, period, shard, used, exact) SELECT account_id, period, 0, used, 1 FROM usage;
    INSERT INTO usage_shards (account_id, period, shard, used, exact)
      SELECT u.account_id, u.period, s.value, 0, 1 FROM usage u, json_each('${JSON.stringify(OTHER_SHARDS)}') s;
    DROP TABLE usage;
  `,
  postgres: postgresDdl(USAGE_SHARDS_SCHEMA) + `
    INSERT INTO usage_shards (account_id, period, shard, used, exact) SELECT account_id, period, 0, used, 1 FROM usage;
    INSERT INTO usage_shards (account_id, period, shard, used, exact)
      SELECT u.account_id, u.period, s, 0, 1 FROM usage u, generate_series(1, ${OTHER_SHARDS.length}) s;
    DROP TABLE usage;
  `,
};
