import { Elysia } from 'elysia';
import { panelBodyParser } from './body';
import type { PanelEnv } from './env';
import { accountPagesRoutes } from './routes/account-pages-routes';
import { accountsRoutes } from './routes/accounts-routes';
import { adminsRoutes } from './routes/admins-routes';
import { alertsRoutes } from './routes/alerts-routes';
import { assetsRoutes } from './routes/assets-routes';
import { authRoutes } from './routes/auth-routes';
import { callDetailRoutes } from './routes/call-detail-routes';
import { callbacksRoutes } from './routes/callbacks-routes';
import { deskRoutes } from './routes/desk-routes';
import { heartbeatsRoutes } from './routes/heartbeats-routes';
import { importRoutes } from './routes/import-routes';
import { keysRoutes } from './routes/keys-routes';
import { maintenanceRoutes } from './routes/maintenance-routes';
import { overviewRoutes } from './routes/overview-routes';
import { policiesRoutes } from './routes/policies-routes';
import { peopleRoutes } from './routes/people-routes';
import { coverageRoutes } from './routes/coverage-routes';
import { schedulesRoutes } from './routes/schedules-routes';
import { passwordRoutes } from './routes/password-routes';
import { settingsRoutes } from './routes/settings-routes';
import { testCallRoutes } from './routes/test-call-routes';
import { trunksRoutes } from './routes/trunks-routes';

/**
 * The web panel at /panel: server-rendered pages, htmx for the live parts, every file
 * served from the executable. Register with
 * `createHttpApp(deps, [panelRoutes(createPanelEnv(deps, { speech }))])`.
 *
 * This folder is the panel's HTTP edge only: routes read, call a service (src/panel for
 * logins and sessions, src/accounts for every write), and render a view.
 */
export function panelRoutes(env: PanelEnv): Elysia<any> {
  // Typed loosely on purpose: the panel's route types are of no use to createHttpApp.
  // Registered first, so it parses the body of every panel route below (and no other route).
  const panel: Elysia<any> = new Elysia({ name: 'panel' })
    .onParse(panelBodyParser(env.deps.log))
    .use(assetsRoutes())
    .use(authRoutes(env))
    .use(overviewRoutes(env))
    .use(accountsRoutes(env))
    .use(adminsRoutes(env))
    .use(keysRoutes(env))
    .use(accountPagesRoutes(env))
    .use(policiesRoutes(env))
    .use(maintenanceRoutes(env))
    .use(schedulesRoutes(env))
    .use(heartbeatsRoutes(env))
    .use(deskRoutes(env))
    .use(peopleRoutes(env))
    .use(coverageRoutes(env))
    .use(importRoutes(env))
    .use(alertsRoutes(env))
    .use(callDetailRoutes(env))
    .use(testCallRoutes(env))
    .use(passwordRoutes(env))
    .use(callbacksRoutes(env))
    .use(settingsRoutes(env))
    .use(trunksRoutes(env)) as any;
  return panel;
}

export { createPanelEnv, type PanelEnv } from './env';
