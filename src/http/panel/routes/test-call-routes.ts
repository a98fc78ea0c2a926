import { Elysia } from 'elysia';
import { errorFor, type ErrorCode } from '../../../errors';
import type { PanelEnv } from '../env';
import { guarded } from '../guard';
import { fragmentResponse, htmlResponse, redirect } from '../html';
import type { Messages } from '../i18n';
import { errorPage } from '../views/error-page';
import { TestCallPage, TestCallStatus } from '../views/test-call-page';

/** A service's catalogue code in the panel's words (the catalogue's message when it has none). */
const problem = (t: Messages, code: ErrorCode) => t.errors[code] ?? errorFor(code).message;

/** Place a test call and watch it: the page, the POST, and the fragment htmx polls. */
export function testCallRoutes(env: PanelEnv) {
  const { testCalls } = env.services;
  const path = '/panel/a/:accountId/test-call';
  // Only the account's own test calls: another call id is simply not found.
  const findCall = (accountId: string, callId: string | undefined) => (callId ? env.services.panelReads.call(accountId, callId) : Promise.resolve(null));
  return new Elysia({ name: 'panel-test-call' })
    .get(
      path,
      guarded(env, { account: true }, async (c) => {
        const found = await findCall(c.account.id, c.query.call);
        return htmlResponse(
          TestCallPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, call: found?.call ?? null, events: found?.events ?? [] }),
        );
      }),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const r = await testCalls.place({
          accountId: c.account.id,
          phoneNumber: c.form.phone_number ?? '',
          message: c.form.message ?? '',
          role: c.user.role,
        });
        if (!r.ok) {
          return htmlResponse(
            TestCallPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, error: problem(c.t, r.code), draft: c.form }),
            // The catalogue's status: 402 no credit, 403 number not allowed, 429 too many, 503 no trunk.
            errorFor(r.code).status,
          );
        }
        env.deps.log.info({ accountId: c.account.id, callId: r.callId, alertId: r.alertId, user: c.user.id }, 'test call queued from the panel');
        return redirect(`/panel/a/${c.account.id}/test-call?call=${r.callId}`);
      }),
    )
    .get(
      `${path}/:callId`,
      guarded(env, { account: true }, async (c) => {
        const found = await findCall(c.account.id, c.params.callId);
        if (!found) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        return fragmentResponse(TestCallStatus({ t: c.t, fmt: c.fmt, accountId: c.account.id, ...found }));
      }),
    );
}
