import { Elysia } from 'elysia';
import type { PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { flattenConfig } from '../mask-config';
import { SettingsPage } from '../views/settings-page';

/** Administrator, read-only: the configuration in effect, secrets masked. */
export function settingsRoutes(env: PanelEnv) {
  return new Elysia({ name: 'panel-settings' }).get(
    '/panel/settings',
    guarded(env, { admin: true }, (c) =>
      htmlResponse(SettingsPage({ t: c.t, user: c.user, csrf: c.csrf, entries: flattenConfig(env.deps.config) })),
    ),
  );
}
