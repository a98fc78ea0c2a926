import { Elysia } from 'elysia';
import type { HeartbeatProblem } from '../../../heartbeats';
import type { PanelCtx, PanelEnv } from '../env';
import { baseUrlFor } from '../examples';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill } from '../i18n';
import { heartbeatWords } from '../i18n/heartbeat-words';
import { confirmed, confirmPage } from '../views/confirm-page';
import { HeartbeatsPage, type HeartbeatDraft, type HeartbeatsPageProps } from '../views/heartbeats-page';

/**
 * An account's heartbeats (docs/on-call.md "Heartbeats"): read → service (src/heartbeats) →
 * render. Create answers with the page itself (not a redirect): the full ping URL is shown this
 * once, absolute (panel.public_url or the request's own address), with lines to paste.
 */
export function heartbeatsRoutes(env: PanelEnv) {
  const { config } = env.deps;
  const { heartbeats } = env.services;
  const path = '/panel/a/:accountId/heartbeats';
  const render = async (c: PanelCtx, status: number, extra: Partial<HeartbeatsPageProps> = {}) => {
    const [list, { list: policies }] = await Promise.all([heartbeats.list(c.account.id), env.services.panelReads.policies(c.account.id)]);
    return htmlResponse(HeartbeatsPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, heartbeats: list, policies, ...extra }), status);
  };
  const problem = (c: PanelCtx, r: HeartbeatProblem) => {
    const w = heartbeatWords(c.t);
    if ('problem' in r) return `${w.invalid} ${r.problem}`;
    return r.code === 'heartbeat_name_taken' ? w.nameTaken : r.code === 'unknown_policy' ? w.unknownPolicy : w.notFound;
  };
  const back = (c: PanelCtx, what: string) => redirect(`/panel/a/${c.account.id}/heartbeats?${what}`);
  // A number typed where one is expected, else the text as typed: the service's schema refuses it by name.
  const int = (s: string | undefined) => (s !== undefined && /^\s*\d+\s*$/.test(s) ? Number(s) : s?.trim() ? s : undefined);

  return new Elysia({ name: 'panel-heartbeats' })
    .get(
      path,
      guarded(env, { account: true }, (c) => {
        const w = heartbeatWords(c.t);
        const notice = c.query.paused !== undefined ? w.paused : c.query.resumed !== undefined ? w.resumed : c.query.deleted !== undefined ? w.deleted : undefined;
        return render(c, 200, { notice });
      }),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const draft: HeartbeatDraft = {
          name: c.form.name ?? '',
          interval_s: c.form.interval_s ?? '',
          grace_s: c.form.grace_s ?? '',
          policy: c.form.policy ?? '',
          to: c.form.to ?? '',
          message: c.form.message ?? '',
        };
        const r = await heartbeats.create(c.account.id, {
          name: draft.name.trim(),
          interval_s: int(draft.interval_s) as number,
          ...(draft.grace_s.trim() ? { grace_s: int(draft.grace_s) as number } : {}),
          policy: draft.policy.trim() || null,
          to: draft.to.split(',').map((n) => n.trim()).filter(Boolean),
          message: draft.message.trim() || null,
        });
        if (!r.ok) return render(c, r.code === 'heartbeat_name_taken' ? 409 : 400, { error: problem(c, r), draft });
        const base = baseUrlFor(c.request, config.panel.public_url, config.http.trust_proxy);
        return render(c, 200, { created: { name: r.heartbeat.name, pingUrl: base + r.pingUrl } });
      }),
    )
    .post(
      `${path}/:heartbeatId/pause`,
      guarded(env, { account: true }, async (c) => {
        const r = await heartbeats.pause(c.account.id, c.params.heartbeatId ?? '');
        return r.ok ? back(c, 'paused') : render(c, 404, { error: problem(c, r) });
      }),
    )
    .post(
      `${path}/:heartbeatId/resume`,
      guarded(env, { account: true }, async (c) => {
        const r = await heartbeats.resume(c.account.id, c.params.heartbeatId ?? '');
        return r.ok ? back(c, 'resumed') : render(c, 404, { error: problem(c, r) });
      }),
    )
    .post(
      `${path}/:heartbeatId/delete`,
      guarded(env, { account: true }, async (c) => {
        const id = c.params.heartbeatId ?? '';
        if (!confirmed(c.form)) {
          const h = (await heartbeats.list(c.account.id)).find((x) => x.id === id);
          if (!h) return render(c, 404, { error: heartbeatWords(c.t).notFound });
          return confirmPage({
            t: c.t,
            user: c.user,
            csrf: c.csrf,
            consequences: fill(heartbeatWords(c.t).confirmDelete, { name: h.name }),
            action: `/panel/a/${c.account.id}/heartbeats/${encodeURIComponent(h.id)}/delete`,
            cancelHref: `/panel/a/${c.account.id}/heartbeats`,
          });
        }
        const r = await heartbeats.remove(c.account.id, id);
        return r.ok ? back(c, 'deleted') : render(c, 404, { error: problem(c, r) });
      }),
    );
}
