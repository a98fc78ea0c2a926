import type { Account, HistoryEntry, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import type { Messages } from '../i18n';
import { Layout } from './layout';
import { DateRangeAndApply, Notice, Pager } from './parts';

export const HISTORY_ENDPOINTS = ['/api/call', '/webhook/receive'] as const;

export interface HistoryPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  entries: HistoryEntry[];
  total: number;
  page: number;
  pageSize: number;
  filter: Record<string, string>;
  /** A filter day that is not one, said above the filters (docs/panel.md "Typing dates"). */
  error?: string | null;
}

export function HistoryPage(p: HistoryPageProps) {
  const { t, fmt, filter } = p;
  const path = `/panel/a/${p.account.id}/history`;
  return (
    <Layout t={t} title={t.historyTitle} user={p.user} csrf={p.csrf} account={p.account} active="history">
      <Notice kind="error" text={p.error} />
      <form class="filters" method="get" action={path} aria-label={t.filter}>
        <div class="field">
          <label for="f-endpoint">{t.endpoint}</label>
          <select id="f-endpoint" name="endpoint">
            <option value="">{t.allEndpoints}</option>
            {HISTORY_ENDPOINTS.map((e) => (
              <option value={e} selected={filter.endpoint === e}>
                {e}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-status">{t.status}</label>
          <select id="f-status" name="status">
            <option value="">{t.allStatuses}</option>
            {[2, 4, 5].map((s) => (
              <option value={String(s)} selected={filter.status === String(s)}>
                {t.statusClass[s]}
              </option>
            ))}
          </select>
        </div>
        <DateRangeAndApply t={t} from={filter.from} to={filter.to} />
      </form>
      {p.entries.length === 0 ? (
        <p>{t.noHistory}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="history-table">
            <thead>
              <tr>
                <th scope="col">{t.time}</th>
                <th scope="col">{t.endpoint}</th>
                <th scope="col">{t.sourceIp}</th>
                <th scope="col" class="num">{t.status}</th>
                <th scope="col">{t.message}</th>
              </tr>
            </thead>
            <tbody>
              {p.entries.map((e) => (
                <tr>
                  <td data-label={t.time}>{fmt.dateTime(e.at)}</td>
                  <td data-label={t.endpoint}>
                    <code safe>{e.endpoint}</code>
                  </td>
                  <td data-label={t.sourceIp}>
                    <code safe>{e.sourceIp}</code>
                  </td>
                  <td data-label={t.status} class="num">{String(e.status)}</td>
                  <td data-label={t.message} safe>
                    {e.message}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager t={t} path={path} query={filter} page={p.page} pageSize={p.pageSize} total={p.total} />
    </Layout>
  );
}
