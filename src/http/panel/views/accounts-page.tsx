import { PLANS } from '../../../credit';
import { MIN_PASSWORD_LENGTH } from '../../../panel';
import type { Account, PanelUser } from '../../../store';
import { fill, type Messages } from '../i18n';
import { Layout } from './layout';
import { CopyValue, CsrfField, Notice, PostButton } from './parts';

export interface AccountsPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  accounts: { account: Account; owners: PanelUser[]; used: number }[];
  notice?: string;
  error?: string;
  /** A generated owner password, shown once. */
  generated?: { login: string; password: string };
  /** Values to put back in the create form after an error. */
  draft?: Record<string, string>;
}

function PlanSelect({ t, id, name, value }: { t: Messages; id: string; name: string; value: string }) {
  return (
    <select id={id} name={name}>
      {PLANS.map((p) => (
        <option value={p} selected={p === value}>
          {t.plans[p]}
        </option>
      ))}
    </select>
  );
}

export function AccountsPage({ t, user, csrf, accounts, notice, error, generated, draft = {} }: AccountsPageProps) {
  return (
    <Layout t={t} title={t.accountsTitle} user={user} csrf={csrf} active="accounts">
      <Notice text={notice} />
      <Notice kind="error" text={error} />
      {generated ? (
        <div class="notice secret" role="status">
          <p safe>{fill(t.ownerCreated, { login: generated.login })}</p>
          <CopyValue t={t} id="generated-password" label={t.generatedPassword} value={generated.password} />
        </div>
      ) : (
        ''
      )}
      <div class="table-wrap">
        {accounts.length === 0 ? (
          <p>{t.noAccounts}</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.plan}</th>
                <th scope="col">{t.credit}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.owners}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map(({ account: a, owners, used }) => (
                <tr data-account-id={a.id}>
                  <td data-label={t.name}>
                    <div>
                      <a href={`/panel/a/${a.id}/keys`} safe>
                        {a.name}
                      </a>
                      <br />
                      <code safe>{a.id}</code>
                    </div>
                  </td>
                  <td data-label={t.plan}>
                    <form class="inline" method="post" action={`/panel/accounts/${a.id}/plan`}>
                      <CsrfField csrf={csrf} />
                      <div class="field">
                        <label for={`plan-${a.id}`} class="visually-hidden" safe>{`${t.plan}: ${a.name}`}</label>
                        <PlanSelect t={t} id={`plan-${a.id}`} name="plan" value={a.plan} />
                      </div>
                      <div class="field">
                        <label for={`credit-${a.id}`} class="visually-hidden" safe>{`${t.monthlyCredit}: ${a.name}`}</label>
                        <input id={`credit-${a.id}`} name="monthly_credit" type="number" min="0" inputmode="numeric" value={a.monthlyCreditOverride === null ? '' : String(a.monthlyCreditOverride)} placeholder={String(a.monthlyCredit)} />
                      </div>
                      <button type="submit" class="secondary">{t.save}</button>
                    </form>
                  </td>
                  <td data-label={t.credit} class="num">{`${Math.max(0, a.monthlyCredit - used)} / ${a.monthlyCredit}`}</td>
                  <td data-label={t.status}>
                    <span class={a.disabled ? 'badge bad' : 'badge ok'}>{a.disabled ? t.disabled : t.active}</span>
                  </td>
                  <td data-label={t.owners}>
                    <div>
                    {owners.map((o) => (
                      <div class="owner">
                        <span safe>{o.login}</span>{' '}
                        <PostButton action={`/panel/accounts/${a.id}/owners/${o.id}/password`} csrf={csrf} label={t.resetPassword} kind="secondary" />
                      </div>
                    ))}
                    <details>
                      <summary>{t.addOwner}</summary>
                      <form method="post" action={`/panel/accounts/${a.id}/owners`}>
                        <CsrfField csrf={csrf} />
                        <div class="field">
                          <label for={`owner-${a.id}`}>{t.ownerEmail}</label>
                          <input id={`owner-${a.id}`} name="email" type="email" required autocomplete="off" />
                        </div>
                        <div class="field">
                          <label for={`owner-pw-${a.id}`}>{t.ownerPassword}</label>
                          <input id={`owner-pw-${a.id}`} name="password" type="password" autocomplete="new-password" minlength={String(MIN_PASSWORD_LENGTH)} />
                          <p class="hint">{fill(t.ownerPasswordHint, { n: MIN_PASSWORD_LENGTH })}</p>
                        </div>
                        <button type="submit" class="secondary">{t.create}</button>
                      </form>
                    </details>
                    </div>
                  </td>
                  <td data-label={t.actions}>
                    <PostButton action={`/panel/accounts/${a.id}/disabled`} csrf={csrf} label={a.disabled ? t.enable : t.disable} kind={a.disabled ? 'secondary' : 'danger'} hidden={{ disabled: a.disabled ? '0' : '1' }} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <section class="card" aria-labelledby="create-account">
        <h2 id="create-account">{t.createAccount}</h2>
        <form method="post" action="/panel/accounts">
          <CsrfField csrf={csrf} />
          <div class="field">
            <label for="name">{t.name}</label>
            <input id="name" name="name" type="text" required maxlength="200" value={draft.name ?? ''} />
          </div>
          <div class="field">
            <label for="plan">{t.plan}</label>
            <PlanSelect t={t} id="plan" name="plan" value={draft.plan ?? 'starter'} />
          </div>
          <div class="field">
            <label for="monthly_credit">{t.monthlyCredit}</label>
            <input id="monthly_credit" name="monthly_credit" type="number" min="0" inputmode="numeric" aria-describedby="monthly_credit_hint" value={draft.monthly_credit ?? ''} />
            <p class="hint" id="monthly_credit_hint">{t.monthlyCreditHint}</p>
          </div>
          <div class="field">
            <label for="owner_email">{t.ownerEmail}</label>
            <input id="owner_email" name="owner_email" type="email" autocomplete="off" aria-describedby="owner_email_hint" value={draft.owner_email ?? ''} />
            <p class="hint" id="owner_email_hint">{t.ownerEmailHint}</p>
          </div>
          <div class="field">
            <label for="owner_password">{t.ownerPassword}</label>
            <input id="owner_password" name="owner_password" type="password" autocomplete="new-password" aria-describedby="owner_password_hint" />
            <p class="hint" id="owner_password_hint">{fill(t.ownerPasswordHint, { n: MIN_PASSWORD_LENGTH })}</p>
          </div>
          <button type="submit">{t.create}</button>
        </form>
      </section>
    </Layout>
  );
}
