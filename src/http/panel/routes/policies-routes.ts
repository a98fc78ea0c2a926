import { Elysia } from 'elysia';
import type { PolicyResult } from '../../../escalation';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { policyFromForm } from '../policy-form';
import { PoliciesPage, type PoliciesPageProps } from '../views/policies-page';

/** Escalation policies of one account: read → service (src/escalation) → render. */
export function policiesRoutes(env: PanelEnv) {
  const { policies } = env;
  const path = '/panel/a/:accountId/policies';
  const render = async (c: PanelCtx, status: number, extra: Partial<PoliciesPageProps> = {}) => {
    const { list, keys: credentials } = await env.reads.policies(c.account.id);
    return htmlResponse(
      PoliciesPage({
        t: c.t,
        fmt: c.fmt,
        user: c.user,
        csrf: c.csrf,
        account: c.account,
        policies: list,
        credentials,
        ...extra,
      }),
      status,
    );
  };
  const problem = (c: PanelCtx, r: Exclude<PolicyResult, { ok: true }>) =>
    r.code === 'invalid_policy' ? `${c.t.policies.invalid} ${r.problem}` : (c.t.policies.errors[r.code] ?? c.t.notFound);
  const done = (c: PanelCtx) => redirect(`/panel/a/${c.account.id}/policies?ok`);
  const draft = (c: PanelCtx, id?: string) => ({ id, name: c.form.name ?? '', steps: c.form.steps ?? '', rounds: c.form.rounds ?? '' });

  return new Elysia({ name: 'panel-policies' })
    .get(path, guarded(env, { account: true }, (c) => render(c, 200, { notice: c.query.ok !== undefined ? c.t.policies.saved : undefined })))
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const r = await policies.create(c.account.id, policyFromForm(c.form));
        return r.ok ? done(c) : render(c, 400, { error: problem(c, r), draft: draft(c) });
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
        const r = await policies.remove(c.account.id, c.params.policyId ?? '');
        return r.ok ? done(c) : render(c, 404, { error: problem(c, r) });
      }),
    );
}
