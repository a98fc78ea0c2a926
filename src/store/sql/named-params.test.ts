import { describe, expect, it } from 'vitest';
import { bindOrder, toPositional } from './named-params';
import { quoteCamelAliases } from './postgres/connection';

describe('named parameters for PostgreSQL', () => {
  it('numbers each name once, in order of first use, and binds values in that order', () => {
    const p = toPositional('SELECT * FROM calls WHERE account_id = $a AND (created_at > $since OR $a IS NULL) LIMIT $limit');
    expect(p.sql).toBe('SELECT * FROM calls WHERE account_id = $1 AND (created_at > $2 OR $1 IS NULL) LIMIT $3');
    expect(p.names).toEqual(['a', 'since', 'limit']);
    expect(bindOrder(p.names, { limit: 5, a: 'acc_1', since: 10 })).toEqual(['acc_1', 10, 5]);
  });

  it('leaves quoted text, quoted names, comments and positional $1 alone', () => {
    const p = toPositional(`SELECT '$a' || 'it''s $b' AS "$c", $d -- $e\nFROM t WHERE x = $1`);
    expect(p.sql).toBe(`SELECT '$a' || 'it''s $b' AS "$c", $1 -- $e\nFROM t WHERE x = $1`);
    expect(p.names).toEqual(['d']);
  });

  it('refuses a parameter that was not given (bun:sqlite strict mode does too), and binds booleans as 1/0', () => {
    expect(() => bindOrder(['a', 'b'], { a: 1 })).toThrow('SQL parameter $b was not given');
    expect(bindOrder(['t', 'f'], { t: true, f: false })).toEqual([1, 0]);
  });

  it('quotes camelCase aliases, which PostgreSQL would fold to lower case', () => {
    expect(quoteCamelAliases('SELECT request_id AS requestId, count(*) AS n, x AS "done"')).toBe('SELECT request_id AS "requestId", count(*) AS n, x AS "done"');
  });
});
