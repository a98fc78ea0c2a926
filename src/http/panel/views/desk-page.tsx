import type { Account, PanelUser, Policy } from '../../../store';
import type { Messages } from '../i18n';
import { deskWords } from '../i18n/desk-words';
import { Layout } from './layout';
import { CopyValue, CsrfField, Notice, PostButton } from './parts';

export interface DeskPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  account: Account;
  enabled: boolean;
  hasPin: boolean;
  policy: Policy | null;
  policies: Policy[];
  /** Right after "make a new PIN": the PIN, shown only now. */
  pin?: string;
  notice?: string;
  error?: string;
}

/** An account's voice desk (docs/telephony.md "Voice desk: calls in"): a new PIN (shown once), the policy keypad 0 follows. */
export function DeskPage(p: DeskPageProps) {
  const { t, csrf } = p;
  const w = deskWords(t);
  const base = `/panel/a/${p.account.id}/desk`;
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={csrf} account={p.account} active="desk">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      {p.pin ? (
        <section class="notice secret" aria-labelledby="pin-title" data-testid="new-pin">
          <h2 id="pin-title">{w.pinShown}</h2>
          <CopyValue t={t} id="desk-pin" label={w.pin} value={p.pin} />
          <p>{w.pinHint}</p>
        </section>
      ) : (
        ''
      )}
      <p>{w.intro}</p>
      {p.enabled ? '' : <p class="hint">{w.off}</p>}
      <section class="card" aria-labelledby="desk-pin-card">
        <h2 id="desk-pin-card">{w.pin}</h2>
        <p data-testid="pin-state">{p.hasPin ? w.pinSet : w.pinNone}</p>
        <PostButton action={`${base}/pin`} csrf={csrf} label={w.newPin} kind="secondary" />
      </section>
      <section class="card" aria-labelledby="desk-policy">
        <h2 id="desk-policy">{w.policy}</h2>
        {p.policies.length === 0 ? (
          <p>{w.noPolicies}</p>
        ) : (
          <form class="inline" method="post" action={`${base}/policy`}>
            <CsrfField csrf={csrf} />
            <label for="desk-policy-select" class="visually-hidden">
              {w.policy}
            </label>
            <select id="desk-policy-select" name="policy">
              {p.policy ? '' : <option value="">{w.policyDefault}</option>}
              {p.policies.map((x) => (
                <option value={x.id} selected={p.policy?.id === x.id} safe>
                  {x.name}
                </option>
              ))}
            </select>
            <button type="submit">{w.policySave}</button>
          </form>
        )}
      </section>
    </Layout>
  );
}
