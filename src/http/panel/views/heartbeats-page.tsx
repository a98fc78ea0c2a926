import { heartbeatState } from '../../../outward';
import type { Account, Heartbeat, PanelUser, Policy } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { heartbeatWords } from '../i18n/heartbeat-words';
import { Layout } from './layout';
import { CopyBlock, CopyValue, CsrfField, Notice, PostButton } from './parts';

export interface HeartbeatDraft {
  name: string;
  interval_s: string;
  grace_s: string;
  policy: string;
  to: string;
  message: string;
}

export interface HeartbeatsPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  heartbeats: Heartbeat[];
  policies: Policy[];
  /** Right after create: its name and full ping URL, shown only now. */
  created?: { name: string; pingUrl: string };
  draft?: HeartbeatDraft;
  notice?: string;
  error?: string;
}

/** What to paste where the pings come from (docs/on-call.md "Heartbeat: cron", "Heartbeat: Alertmanager Watchdog"). */
export function pingRecipes(pingUrl: string) {
  return {
    curl: `curl -fsS -m 10 --retry 3 ${pingUrl}`,
    alertmanager: [
      'route:',
      '  routes:',
      "    - matchers: ['alertname = \"Watchdog\"']",
      '      receiver: voice-alert-heartbeat',
      '      group_wait: 0s',
      '      group_interval: 1m',
      '      repeat_interval: 1m',
      'receivers:',
      '  - name: voice-alert-heartbeat',
      '    webhook_configs:',
      `      - url: '${pingUrl}'`,
      '        send_resolved: false',
    ].join('\n'),
  };
}

const EMPTY: HeartbeatDraft = { name: '', interval_s: '300', grace_s: '60', policy: '', to: '', message: '' };

/** An account's heartbeats (docs/on-call.md "Heartbeats"): state and last ping, pause, resume, delete, and a form to create one. */
export function HeartbeatsPage(p: HeartbeatsPageProps) {
  const { t, fmt, csrf, account } = p;
  const w = heartbeatWords(t);
  const base = `/panel/a/${account.id}/heartbeats`;
  const draft = p.draft ?? EMPTY;
  const policyName = (id: string | null) => p.policies.find((x) => x.id === id)?.name ?? id ?? '';
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={csrf} account={account} active="heartbeats">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      {p.created ? (
        <section class="notice secret" aria-labelledby="created-title" data-testid="created">
          <h2 id="created-title" safe>
            {fill(w.createdTitle, { name: p.created.name })}
          </h2>
          <p>{w.createdHint}</p>
          <CopyValue t={t} id="ping-url" label={w.pingUrl} value={p.created.pingUrl} />
          <CopyBlock t={t} id="ping-curl" label={w.curl} text={pingRecipes(p.created.pingUrl).curl} />
          <CopyBlock t={t} id="ping-alertmanager" label={w.alertmanager} text={pingRecipes(p.created.pingUrl).alertmanager} />
        </section>
      ) : (
        ''
      )}
      <p>{w.intro}</p>
      {p.heartbeats.length === 0 ? (
        <p>{w.none}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" data-testid="heartbeats">
            <thead>
              <tr>
                <th scope="col">{w.name}</th>
                <th scope="col">{w.state}</th>
                <th scope="col">{w.every}</th>
                <th scope="col">{w.lastPing}</th>
                <th scope="col">{w.calls}</th>
                <th scope="col">{w.actions}</th>
              </tr>
            </thead>
            <tbody>
              {p.heartbeats.map((h) => {
                const state = heartbeatState(h);
                return (
                  <tr data-heartbeat={h.name} data-state={state}>
                    <td data-label={w.name} safe>
                      {h.name}
                    </td>
                    <td data-label={w.state}>
                      <span class={`badge ${state === 'late' ? 'bad' : state === 'up' ? 'ok' : 'wait'}`} safe>
                        {w.states[state] ?? state}
                      </span>
                    </td>
                    <td data-label={w.every}>{fill(w.everyText, { interval: h.intervalS, grace: h.graceS })}</td>
                    <td data-label={w.lastPing}>{h.lastPingAt === null ? w.never : fmt.dateTime(h.lastPingAt)}</td>
                    <td data-label={w.calls} safe>
                      {h.policyId ? `@${policyName(h.policyId)}` : h.numbers.join(', ')}
                    </td>
                    <td data-label={w.actions}>
                      <PostButton action={`${base}/${h.id}/${h.paused ? 'resume' : 'pause'}`} csrf={csrf} label={h.paused ? w.resume : w.pause} kind="secondary" />{' '}
                      <PostButton action={`${base}/${h.id}/delete`} csrf={csrf} label={w.delete} kind="danger" />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <section class="card" aria-labelledby="new-heartbeat">
        <h2 id="new-heartbeat">{w.create}</h2>
        <form method="post" action={base}>
          <CsrfField csrf={csrf} />
          <div class="field">
            <label for="hb-name">{w.name}</label>
            <input id="hb-name" type="text" name="name" required maxlength="60" value={draft.name} />
          </div>
          <div class="field">
            <label for="hb-interval">{w.intervalS}</label>
            <input id="hb-interval" type="number" name="interval_s" required min="1" value={draft.interval_s} />
          </div>
          <div class="field">
            <label for="hb-grace">{w.graceS}</label>
            <input id="hb-grace" type="number" name="grace_s" min="0" value={draft.grace_s} />
          </div>
          <div class="field">
            <label for="hb-policy">{w.policy}</label>
            <select id="hb-policy" name="policy">
              <option value="">{w.noPolicy}</option>
              {p.policies.map((x) => (
                <option value={x.name} selected={draft.policy === x.name} safe>
                  {x.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="hb-to">{w.to}</label>
            <input id="hb-to" type="text" name="to" maxlength="400" value={draft.to} aria-describedby="hb-to-hint" />
            <p class="hint" id="hb-to-hint">{w.toHint}</p>
          </div>
          <div class="field">
            <label for="hb-message">{w.message}</label>
            <input id="hb-message" type="text" name="message" maxlength="500" value={draft.message} aria-describedby="hb-message-hint" />
            <p class="hint" id="hb-message-hint" safe>
              {w.messageHint}
            </p>
          </div>
          <button type="submit">{w.createButton}</button>
        </form>
      </section>
    </Layout>
  );
}
