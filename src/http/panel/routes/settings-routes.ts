import { Elysia } from 'elysia';
import { sipTrunks, type SipConfig } from '../../../config/sections/sip';
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
    const last = await env.services.panelReads.lastSipOutcome();
    return {
      configured: configuredTrunks(config.sip),
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

/** The trunks in order, as one line (docs/telephony.md "SIP trunks: several, in order"); null: none configured. */
function configuredTrunks(sip: SipConfig): SipState['configured'] {
  const trunks = sipTrunks(sip);
  if (trunks.length === 0) return null;
  const [first] = trunks;
  if (trunks.length === 1) return { server: first!.server, transport: first!.transport, user: first!.username };
  return { server: trunks.map((t) => `${t.name} ${t.server}`).join(', '), transport: [...new Set(trunks.map((t) => t.transport))].join('/'), user: first!.username };
}
