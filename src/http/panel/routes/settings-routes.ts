import { Elysia } from 'elysia';
import { isMessageTooLong } from '../../../intake/message';
import { wavOf } from '../audio';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { flattenConfig } from '../mask-config';
import { SettingsPage, type SipState } from '../views/settings-page';

/** Administrator: the configuration in effect (read-only, secrets masked), the say box, the trunk. */
export function settingsRoutes(env: PanelEnv) {
  const { config } = env.deps;
  const sipState = async (c: PanelCtx): Promise<SipState> => {
    const last = await env.reads.lastSipOutcome();
    return {
      configured: config.sip.server ? { server: config.sip.server, transport: config.sip.transport, user: config.sip.username } : null,
      lastAnswer: last ? { code: last.sipCode, reason: last.reason ?? '', at: c.fmt.dateTime(last.at) } : null,
      live: env.deps.trunkStatus?.() ?? null,
    };
  };
  const sayText = (c: PanelCtx) => {
    const text = (c.query.say ?? c.query.text ?? '').trim();
    return text && !isMessageTooLong(text) ? text : undefined;
  };
  return new Elysia({ name: 'panel-settings' })
    .get(
      '/panel/settings',
      guarded(env, { admin: true }, async (c) => {
        const sip = await sipState(c);
        return htmlResponse(SettingsPage({ t: c.t, user: c.user, csrf: c.csrf, entries: flattenConfig(config), say: sayText(c), sip }));
      }),
    )
    .get(
      '/panel/settings/say.wav',
      guarded(env, { admin: true }, async (c) => {
        const text = sayText(c);
        if (!text) return new Response('text required (1-500 characters)', { status: 400 });
        return wavOf(env.speech, text, env.deps.log);
      }),
    );
}
