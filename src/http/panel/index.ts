import { Elysia } from 'elysia';
import type { PanelEnv } from './env';
import { accountPagesRoutes } from './routes/account-pages-routes';
import { accountsRoutes } from './routes/accounts-routes';
import { assetsRoutes } from './routes/assets-routes';
import { authRoutes } from './routes/auth-routes';
import { callbacksRoutes } from './routes/callbacks-routes';
import { keysRoutes } from './routes/keys-routes';
import { settingsRoutes } from './routes/settings-routes';
import { testCallRoutes } from './routes/test-call-routes';

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
  const panel: Elysia<any> = new Elysia({ name: 'panel' })
    .use(assetsRoutes())
    .use(authRoutes(env))
    .use(accountsRoutes(env))
    .use(keysRoutes(env))
    .use(accountPagesRoutes(env))
    .use(testCallRoutes(env))
    .use(callbacksRoutes(env))
    .use(settingsRoutes(env)) as any;
  return panel;
}

export { createPanelEnv, type PanelEnv } from './env';
