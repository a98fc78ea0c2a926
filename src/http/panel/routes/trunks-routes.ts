import { Elysia } from 'elysia';
import { sipTrunks } from '../../../config';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { fragmentResponse, htmlResponse, redirect } from '../html';
import { fill } from '../i18n';
import { selfTestWords } from '../i18n/self-test-words';
import { TrunksLive, TrunksPage, type TrunksLiveProps } from '../views/trunks-page';

/**
 * Administrator: the trunks (docs/telephony.md "SIP trunks: several, in order", "Voice-path
 * self-test"): each one's live state, its newest self-test, and "run self-test now", which asks
 * the server's scheduler for a run (services.selfTests) rather than dialling from the request.
 * Below them the second path's state (docs/second-path.md "Operations"), as /healthz reads it.
 */
export function trunksRoutes(env: PanelEnv) {
  const { config } = env.deps;
  const { selfTests } = env.services;
  const live = async (c: PanelCtx): Promise<TrunksLiveProps & { running: boolean }> => {
    const status = env.deps.trunkStatus?.();
    const entries = status?.trunks ?? [];
    const trunks = sipTrunks(config.sip).map((tr) => {
      const e = entries.find((x) => x.name === tr.name);
      return { name: tr.name, server: tr.server, state: e ? e.state : null, lastProbe: e?.lastProbeResult ?? null };
    });
    const latest = Object.fromEntries((await selfTests.latest()).map((r) => [r.trunk, r]));
    return { t: c.t, fmt: c.fmt, csrf: c.csrf, trunks, latest, testable: selfTests.trunks(), running: status !== undefined };
  };
  const page = async (c: PanelCtx, status: number, extra: { notice?: string; error?: string } = {}) =>
    htmlResponse(TrunksPage({ ...(await live(c)), user: c.user, secondPath: env.deps.smsStatus?.() ?? null, ...extra }), status);

  return new Elysia({ name: 'panel-trunks' })
    .get(
      '/panel/trunks',
      guarded(env, { admin: true }, (c) => page(c, 200, { notice: c.query.asked ? fill(selfTestWords(c.t).asked, { trunk: c.query.asked }) : undefined })),
    )
    .get('/panel/trunks/live', guarded(env, { admin: true }, async (c) => fragmentResponse(TrunksLive(await live(c)))))
    .post(
      '/panel/trunks/:trunk/self-test',
      guarded(env, { admin: true }, async (c) => {
        const trunk = c.params.trunk ?? '';
        const r = await selfTests.requestRun(trunk);
        if (r.ok) return redirect(`/panel/trunks?asked=${encodeURIComponent(trunk)}`);
        const w = selfTestWords(c.t);
        return page(c, r.code === 'self_test_off' ? 409 : 404, { error: r.code === 'self_test_off' ? w.off : w.unknownTrunk });
      }),
    );
}
