import type { Account, OutboxEvent, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { Layout } from './layout';
import { CopyValue, CsrfField, Notice, PostButton } from './parts';

export interface CallbacksPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  url: string | null;
  /** Newest first. */
  recent: OutboxEvent[];
  /** Just set: the only time the signing secret is shown. */
  secret?: string;
  /** What was typed, shown again after a refusal. */
  draft?: string;
  notice?: string;
  error?: string;
}

/** `200`, `HTTP 500`, `no answer in 10 s`: the last answer in one cell. */
const lastAnswer = (e: OutboxEvent) => (e.lastError ?? (e.lastStatus !== null ? String(e.lastStatus) : '—'));

/** The account's outcome callback URL (set, clear; the secret once) and its recent deliveries. */
export function CallbacksPage(p: CallbacksPageProps) {
  const { t, fmt, csrf, account } = p;
  const c = t.callbacks;
  const base = `/panel/a/${account.id}/callbacks`;
  return (
    <Layout t={t} title={c.title} user={p.user} csrf={csrf} account={account} active="callbacks">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      {p.secret ? (
        <section class="notice secret" aria-labelledby="secret-title">
          <h2 id="secret-title">{c.secretOnce}</h2>
          <CopyValue t={t} id="callback-secret" label={c.secretOnce} value={p.secret} />
          <p class="hint">{c.secretHint}</p>
        </section>
      ) : (
        ''
      )}
      <section class="card" aria-labelledby="callback-url-title">
        <h2 id="callback-url-title">{c.url}</h2>
        <p class="hint">{c.intro}</p>
        <p id="callback-current" safe>
          {p.url ? fill(c.current, { url: p.url }) : c.none}
        </p>
        <form method="post" action={base}>
          <CsrfField csrf={csrf} />
          <div class="field">
            <label for="callback_url">{c.url}</label>
            <input id="callback_url" name="url" type="url" required value={p.draft ?? p.url ?? ''} aria-describedby="callback_url_hint" />
            <p class="hint" id="callback_url_hint">{c.urlHint}</p>
          </div>
          <button type="submit">{c.save}</button>
        </form>
        {p.url ? (
          <PostButton action={`${base}/clear`} csrf={csrf} label={c.clear} kind="danger" confirm={`${c.clear}?`} />
        ) : (
          ''
        )}
      </section>
      <section aria-labelledby="recent-title">
        <h2 id="recent-title">{c.recent}</h2>
        <div class="table-wrap">
          {p.recent.length === 0 ? (
            <p>{c.noEvents}</p>
          ) : (
            <table class="stack" id="callback-deliveries">
              <thead>
                <tr>
                  <th scope="col">{c.type}</th>
                  <th scope="col">{c.at}</th>
                  <th scope="col">{c.state}</th>
                  <th scope="col">{c.attempts}</th>
                  <th scope="col">{c.answer}</th>
                </tr>
              </thead>
              <tbody>
                {p.recent.map((e) => (
                  <tr data-event-id={e.eventId}>
                    <td data-label={c.type}>
                      <code safe>{e.type}</code>
                    </td>
                    <td data-label={c.at}>{fmt.dateTime(e.createdAt)}</td>
                    <td data-label={c.state}>
                      <span class={`badge ${e.state === 'delivered' ? 'ok' : e.state === 'given_up' ? 'bad' : ''}`}>{c[e.state]}</span>
                    </td>
                    <td data-label={c.attempts}>{e.attempts}</td>
                    <td data-label={c.answer} safe>
                      {lastAnswer(e)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </section>
    </Layout>
  );
}
