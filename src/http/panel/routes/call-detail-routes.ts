import { Elysia } from 'elysia';
import type { PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { CallPage } from '../views/call-page';
import { errorPage } from '../views/error-page';

/** Any call of the account on its own page: where the alert and `bundled_into` links lead. */
export function callDetailRoutes(env: PanelEnv) {
  const { panelReads: reads } = env.services;
  return new Elysia({ name: 'panel-call-detail' }).get(
    '/panel/a/:accountId/calls/:callId',
    guarded(env, { account: true }, async (c) => {
      // Another account's call is not found, exactly like a missing one.
      const found = await reads.call(c.account.id, c.params.callId ?? '');
      if (!found) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
      return htmlResponse(CallPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, ...found }));
    }),
  );
}
