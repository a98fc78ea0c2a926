import type { Account, Credential, Fallback, PanelUser, Policy, UsedBy } from '../../../store';
import { inUseWords } from '../i18n/in-use-words';
import { FallbackCard } from './fallback-card';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { stepsToText } from '../policy-form';
import { Layout } from './layout';
import { CsrfField, Notice, PostButton } from './parts';

export interface PoliciesPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  policies: Policy[];
  credentials: (Credential & { defaultPolicyId: string | null })[];
  /** The form as typed, shown again with the error (edit: its policy id). */
  draft?: { id?: string; name: string; steps: string; rounds: string };
  notice?: string;
  error?: string;
  /** What follows each policy (by policy id): heartbeats, keys' defaults, the voice desk. */
  usedBy?: Record<string, UsedBy[]>;
  /** The account's fallback (fallback-card.tsx); absent: the card is not shown. */
  fallback?: { current: Fallback | null; draft?: string; personName?: string | null };
}

function PolicyForm({ t, csrf, action, values, submit }: { t: Messages; csrf: string; action: string; values: { name: string; steps: string; rounds: string }; submit: string }) {
  const id = action.replace(/\W+/g, '-');
  return (
    <form method="post" action={action}>
      <CsrfField csrf={csrf} />
      <div class="field">
        <label for={`${id}-name`}>{t.policies.name}</label>
        <input id={`${id}-name`} name="name" required maxlength="60" value={values.name} />
      </div>
      <div class="field">
        <label for={`${id}-steps`}>{t.policies.steps}</label>
        <textarea id={`${id}-steps`} name="steps" rows="4" required aria-describedby={`${id}-steps-hint`} safe>
          {values.steps}
        </textarea>
        <p class="hint" id={`${id}-steps-hint`}>{t.policies.stepsHint}</p>
      </div>
      <div class="field">
        <label for={`${id}-rounds`}>{t.policies.rounds}</label>
        <input id={`${id}-rounds`} name="rounds" type="number" min="1" max="10" value={values.rounds} />
      </div>
      <button type="submit">{submit}</button>
    </form>
  );
}

/** Who follows the policy: an edit changes what they call (docs/on-call.md "Nothing silently calls nobody"). */
function UsedByLine({ t, usedBy }: { t: Messages; usedBy: UsedBy[] | undefined }) {
  if (!usedBy) return '';
  const w = inUseWords(t);
  if (usedBy.length === 0) return <p class="hint" data-testid="used-by">{w.unused}</p>;
  return (
    <p data-testid="used-by">
      {w.usedBy}{' '}
      <span safe>{usedBy.map((u) => `${w.kinds[u.kind]} ${u.name}`).join(', ')}</span>
    </p>
  );
}

/** An account's escalation policies: create, edit (steps as lines: reorder by moving them), delete, defaults. */
export function PoliciesPage(p: PoliciesPageProps) {
  const { t, csrf, account } = p;
  const base = `/panel/a/${account.id}/policies`;
  const draftFor = (id?: string) => (p.draft && p.draft.id === id ? p.draft : undefined);
  return (
    <Layout t={t} title={t.policies.title} user={p.user} csrf={csrf} account={account} active="policies">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      <p>{t.policies.intro}</p>
      {p.policies.length === 0 ? <p>{t.policies.none}</p> : ''}
      {p.policies.map((policy) => {
        const values = draftFor(policy.id) ?? { name: policy.name, steps: stepsToText(policy.steps), rounds: String(policy.rounds) };
        return (
          <section class="card" aria-labelledby={`policy-${policy.id}`} data-policy={policy.name}>
            <h2 id={`policy-${policy.id}`} safe>
              {policy.name}
            </h2>
            <ol>
              {policy.steps.map((s) => (
                <li>
                  <span safe>{[...(s.schedules ?? []).map((n) => `@${n}`), ...s.numbers].join(', ')}</span> — {fill(t.policies.waitThen, { s: s.wait_s })}
                </li>
              ))}
            </ol>
            <p>{fill(t.policies.roundsText, { n: policy.rounds })}</p>
            <UsedByLine t={t} usedBy={p.usedBy?.[policy.id]} />
            <details open={draftFor(policy.id) !== undefined}>
              <summary>{t.policies.edit}</summary>
              <PolicyForm t={t} csrf={csrf} action={`${base}/${policy.id}`} values={values} submit={t.policies.save} />
            </details>
            <PostButton action={`${base}/${policy.id}/delete`} csrf={csrf} label={t.policies.delete} kind="danger" />
          </section>
        );
      })}
      <section class="card" aria-labelledby="new-policy">
        <h2 id="new-policy">{t.policies.create}</h2>
        <PolicyForm t={t} csrf={csrf} action={base} values={draftFor(undefined) ?? { name: '', steps: '', rounds: '2' }} submit={t.create} />
      </section>
      {p.credentials.length > 0 && p.policies.length > 0 ? (
        <section class="card" aria-labelledby="defaults">
          <h2 id="defaults">{t.policies.defaults}</h2>
          <p class="hint">{t.policies.defaultsHint}</p>
          {p.credentials.map((c) => (
            <form class="inline" method="post" action={`${base}/default/${c.apiKey}`}>
              <CsrfField csrf={csrf} />
              <label for={`default-${c.apiKey}`}>
                <code safe>{c.apiKey}</code>
              </label>
              <select id={`default-${c.apiKey}`} name="policy">
                <option value="">{t.policies.noDefault}</option>
                {p.policies.map((policy) => (
                  <option value={policy.id} selected={c.defaultPolicyId === policy.id} safe>
                    {policy.name}
                  </option>
                ))}
              </select>
              <button type="submit" class="secondary">{t.policies.setDefault}</button>
            </form>
          ))}
        </section>
      ) : (
        ''
      )}
      {p.fallback ? <FallbackCard t={t} csrf={csrf} accountId={account.id} fallback={p.fallback.current} draft={p.fallback.draft} personName={p.fallback.personName} /> : ''}
    </Layout>
  );
}
