import { IN_ACCOUNT, type AccountScope } from './account-scope';
import type { SqlConnection } from './sql/connection';
import { dialectOf } from './sql/dialect';
import type { Clock } from '../clock';
import { randomToken } from '../ids';

export type PanelRole = 'admin' | 'owner';

/** Someone who may log in to the web panel. An owner sees only `accountId`. */
export interface PanelUser {
  id: string;
  login: string;
  role: PanelRole;
  /** Set for owners, null for administrators. */
  accountId: string | null;
  passwordHash: string;
  createdAt: number;
  /** The panel language this person chose; null: the appliance's panel.language. */
  language: string | null;
}

interface Row {
  id: string;
  login: string;
  role: PanelRole;
  account_id: string | null;
  password_hash: string;
  created_at: number;
  language: string | null;
}

const toUser = (r: Row): PanelUser => ({
  id: r.id,
  login: r.login,
  role: r.role,
  accountId: r.account_id,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  language: r.language ?? null,
});

export interface PanelUsersStore {
  /** Throws on a login already taken (UNIQUE, case-insensitive). */
  create(input: { login: string; role: PanelRole; accountId: string | null; passwordHash: string }): Promise<PanelUser>;
  get(id: string): Promise<PanelUser | null>;
  /** The user if they belong to the account (account-scope.ts); the administrator belongs to none. */
  getInAccount(account: AccountScope, id: string): Promise<PanelUser | null>;
  /** Case-insensitive. */
  findByLogin(login: string): Promise<PanelUser | null>;
  listForAccount(accountId: string): Promise<PanelUser[]>;
  /** Every administrator, oldest first (the panel's Administrators page, `admin list`). */
  listAdmins(): Promise<PanelUser[]>;
  setPasswordHash(id: string, passwordHash: string): Promise<boolean>;
  /** Remembers the panel language this person chose; false when there is no such user. */
  setLanguage(id: string, language: string): Promise<boolean>;
  /** Whether any administrator exists: the start banner tells how to make the first one until then. */
  hasAdmin(): Promise<boolean>;
}

export function createPanelUsersStore(db: SqlConnection, clock: Clock): PanelUsersStore {
  const get = async (id: string) => {
    const r = (await db.query('SELECT * FROM panel_users WHERE id = $id').get({ id })) as Row | null;
    return r ? toUser(r) : null;
  };
  return {
    async getInAccount(account, id) {
      const r = (await db.query(`SELECT * FROM panel_users WHERE id = $id AND ${IN_ACCOUNT}`).get({ id, account })) as Row | null;
      return r ? toUser(r) : null;
    },
    async create({ login, role, accountId, passwordHash }) {
      const id = `usr_${randomToken(20)}`;
      await db.query(
        `INSERT INTO panel_users (id, login, role, account_id, password_hash, created_at)
         VALUES ($id, $login, $role, $account, $hash, $now)`,
      ).run({ id, login, role, account: accountId, hash: passwordHash, now: clock() });
      return (await get(id))!;
    },
    get,
    async findByLogin(login) {
      const r = (await db.query(`SELECT * FROM panel_users WHERE ${dialectOf(db.dialect).equalsNoCase('login', '$login')}`).get({ login })) as Row | null;
      return r ? toUser(r) : null;
    },
    async listForAccount(accountId) {
      return ((await db.query('SELECT * FROM panel_users WHERE account_id = $a ORDER BY created_at').all({ a: accountId })) as Row[]).map(
        toUser,
      );
    },
    async listAdmins() {
      return ((await db.query("SELECT * FROM panel_users WHERE role = 'admin' ORDER BY created_at, id").all()) as Row[]).map(toUser);
    },
    async setLanguage(id, language) {
      return (await db.query('UPDATE panel_users SET language = $language WHERE id = $id').run({ id, language })).changes === 1;
    },
    async hasAdmin() {
      return (await db.query("SELECT 1 AS one FROM panel_users WHERE role = 'admin' LIMIT 1").get()) != null;
    },
    async setPasswordHash(id, passwordHash) {
      return (await db.query('UPDATE panel_users SET password_hash = $h WHERE id = $id').run({ id, h: passwordHash })).changes === 1;
    },
  };
}
