import { Elysia } from 'elysia';
import type { PolicyInUse, PolicyResult } from '../../../escalation';
import { namesPerson } from '../../../people';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { policyFromForm } from '../policy-form';
import type { Policy, UsedBy } from '../../../store';
import { fill } from '../i18n';
import { inUseWords } from '../i18n/in-use-words';
import { unroutableWords } from '../i18n/unroutable-words';
import { fallbackProblem } from '../views/fallback-card';
import { confirmed } from '../views/confirm-page';
import { deletePage } from '../views/delete-page';
import { PoliciesPage, type PoliciesPageProps } from '../views/policies-page';

/** Escalation policies of one account: read → service (src/escalation) → render. */
export function policiesRoutes(env: PanelEnv) {
  const { policies } = env.services;
  const path = '/panel/a/:accountId/policies';
  const { fallbacks } = env.services;
  const render = async (c: PanelCtx, status: number, extra: Partial<PoliciesPageProps> = {}) => {
    const { list, keys: credentials } = await env.services.panelReads.policies(c.account.id);
    const current = await fallbacks.get(c.account.id);
    const users = await Promise.all(list.map((p) => policies.usersOf(c.account.id, p.id)));
    const usedBy = Object.fromEntries(users.flatMap((u) => (u ? [[u.policy.id, u.usedBy]] : [])));
    const personId = current.ok ? current.fallback?.personId : null;
    const person = personId ? await env.services.people.get(c.account.id, personId) : null;
    return htmlResponse(
      PoliciesPage({
        t: c.t,
        fmt: c.fmt,
        user: c.user,
        csrf: c.csrf,
        account: c.account,
        policies: list,
        credentials,
        fallback: { current: current.ok ? current.fallback : null, personName: person?.ok ? person.person.name : null },
        usedBy,
        ...extra,
      }),
      status,
    );
  };
  const problem = (c: PanelCtx, r: Exclude<PolicyResult, { ok: true }> | PolicyInUse) =>
    r.code === 'invalid_policy' ? `${c.t.policies.invalid} ${r.problem}` : (c.t.policies.errors[r.code] ?? c.t.notFound);
  const askDelete = (c: PanelCtx, policy: Policy, usedBy: UsedBy[], status: number) =>
    deletePage({
      t: c.t,
      user: c.user,
      csrf: c.csrf,
      title: fill(inUseWords(c.t).deletePolicy, { name: policy.name }),
      lines: policy.steps.map((s, i) => `${i + 1}. ${[...(s.schedules ?? []).map((n) => `@${n}`), ...s.numbers].join(', ')} — ${fill(c.t.policies.waitThen, { s: s.wait_s })}`),
      usedBy,
      action: `/panel/a/${c.account.id}/policies/${encodeURIComponent(policy.id)}/delete`,
      cancelHref: `/panel/a/${c.account.id}/policies`,
      status,
    });
  const done = (c: PanelCtx) => redirect(`/panel/a/${c.account.id}/policies?ok`);
  const draft = (c: PanelCtx, id?: string) => ({ id, name: c.form.name ?? '', steps: c.form.steps ?? '', rounds: c.form.rounds ?? '' });

  return new Elysia({ name: 'panel-policies' })
    .get(
      path,
      guarded(env, { account: true }, (c) =>
        render(c, 200, { notice: c.query.fallback !== undefined ? unroutableWords(c.t).fallbackSaved : c.query.ok !== undefined ? c.t.policies.saved : undefined }),
      ),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const r = await policies.create(c.account.id, policyFromForm(c.form));
        return r.ok ? done(c) : render(c, 400, { error: problem(c, r), draft: draft(c) });
      }),
    )
    .post(
      '/panel/a/:accountId/fallback',
      guarded(env, { account: true }, async (c) => {
        const phone = (c.form.phone ?? '').trim();
        // `+Ayşe`: a person of the account (docs/on-call.md "People"), as in policy steps.
        const r = await fallbacks.set(c.account.id, namesPerson(phone) ? { person: phone.slice(1).trim() } : { phone: phone || null });
        if (r.ok) return redirect(`/panel/a/${c.account.id}/policies?fallback#fallback`);
        const current = await fallbacks.get(c.account.id);
        const error =
          r.code === 'invalid_phone_number' ? fallbackProblem(c.t, r.value) : r.code === 'person_not_found' ? fill(unroutableWords(c.t).fallbackNoPerson, { value: r.value }) : c.t.notFound;
        return render(c, 400, { error, fallback: { current: current.ok ? current.fallback : null, draft: phone } });
      }),
    )
    .post(
      `${path}/default/:apiKey`,
      guarded(env, { account: true }, async (c) => {
        const r = await policies.setDefault(c.account.id, c.params.apiKey ?? '', c.form.policy ? c.form.policy : null);
        return r.ok ? done(c) : render(c, r.code === 'invalid_policy' ? 400 : 404, { error: problem(c, r) });
      }),
    )
    .post(
      `${path}/:policyId`,
      guarded(env, { account: true }, async (c) => {
        const id = c.params.policyId ?? '';
        const r = await policies.update(c.account.id, id, policyFromForm(c.form));
        return r.ok ? done(c) : render(c, r.code === 'policy_not_found' ? 404 : 400, { error: problem(c, r), draft: draft(c, id) });
      }),
    )
    .post(
      `${path}/:policyId/delete`,
      guarded(env, { account: true }, async (c) => {
        const id = c.params.policyId ?? '';
        // The button asks first: what goes, and who uses it (then no delete at all).
        const ask = async (status: number) => {
          const found = await policies.usersOf(c.account.id, id);
          return found ? askDelete(c, found.policy, found.usedBy, status) : render(c, 404, { error: c.t.policies.errors.policy_not_found ?? c.t.notFound });
        };
        if (!confirmed(c.form)) return ask(200);
        const r = await policies.remove(c.account.id, id);
        if (r.ok) return done(c);
        // Something started using it since the page asked: shown again, with its users.
        if (r.code === 'policy_in_use') return ask(409);
        return render(c, 404, { error: problem(c, r) });
      }),
    );
}
