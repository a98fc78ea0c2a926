import type { Account, CallEvent, CallRecord, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { answeredByText, answeredByWords } from '../i18n/answered-by-words';
import { CallEvents } from './call-events';
import { Layout } from './layout';
import { CallAlertFacts } from './call-links';
import { CsrfField, Notice, StateBadge } from './parts';

/** States after which nothing more will happen to a call: polling stops there. */
import { isFinal } from '../../../call-model';

/**
 * The live part: while the call can still change, htmx fetches this fragment again every
 * 2 s and swaps it in place; the final version carries no trigger, so polling ends.
 */
export function TestCallStatus({ t, fmt, accountId, call, events = [] }: { t: Messages; fmt: Formatter; accountId: string; call: CallRecord; events?: CallEvent[] }) {
  const final = isFinal(call.state);
  const poll = final
    ? {}
    : { 'hx-get': `/panel/a/${accountId}/test-call/${call.id}`, 'hx-trigger': 'every 2s', 'hx-swap': 'outerHTML' };
  return (
    <section id="test-call-status" class="card" aria-live="polite" aria-labelledby="test-call-status-title" data-state={call.state} {...poll}>
      <h2 id="test-call-status-title" safe>{fill(t.testCallState, { id: call.id })}</h2>
      <p>
        <StateBadge t={t} state={call.state} />
      </p>
      <dl class="facts">
        <dt>{t.number}</dt>
        <dd>
          <code safe>{call.phoneNumber}</code>
        </dd>
        <dt>{t.attempts}</dt>
        <dd>{String(call.attempts)}</dd>
        <dt>{t.sipCode}</dt>
        <dd>{call.lastSipCode === null ? '—' : String(call.lastSipCode)}</dd>
        <dt>{t.updated}</dt>
        <dd>{fmt.dateTime(call.updatedAt)}</dd>
        {call.answeredBy ? (
          <>
            <dt>{answeredByWords(t).answeredBy}</dt>
            <dd data-answered-by={call.answeredBy} safe>
              {answeredByText(t, call.answeredBy, call.amdReason)}
            </dd>
          </>
        ) : (
          ''
        )}
        <CallAlertFacts t={t} accountId={accountId} call={call} />
      </dl>
      <CallEvents t={t} fmt={fmt} events={events} />
      <p class="hint">{final ? t.testCallEnded : t.testCallWatching}</p>
    </section>
  );
}

export interface TestCallPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  call?: CallRecord | null;
  events?: CallEvent[];
  error?: string;
  draft?: Record<string, string>;
}

export function TestCallPage(p: TestCallPageProps) {
  const { t } = p;
  const path = `/panel/a/${p.account.id}/test-call`;
  return (
    <Layout t={t} title={t.testCallTitle} user={p.user} csrf={p.csrf} account={p.account} active="test-call">
      <p>{p.user.role === 'admin' ? t.testCallIntro : t.testCallIntroOwner}</p>
      <Notice kind="error" text={p.error} />
      <form method="post" action={path}>
        <CsrfField csrf={p.csrf} />
        <div class="field">
          <label for="tc-number">{t.number}</label>
          <input id="tc-number" name="phone_number" type="tel" inputmode="tel" autocomplete="tel" required placeholder="05XX XXX XX XX" value={p.draft?.phone_number ?? ''} />
        </div>
        <div class="field">
          <label for="tc-text">{t.testText}</label>
          <textarea id="tc-text" name="message" required maxlength="500" safe>
            {p.draft?.message ?? ''}
          </textarea>
        </div>
        <button type="submit">{t.placeCall}</button>
      </form>
      {p.call ? <TestCallStatus t={t} fmt={p.fmt} accountId={p.account.id} call={p.call} events={p.events} /> : ''}
    </Layout>
  );
}
