import { afterEach, describe, expect, it } from 'vitest';
import { callDesk } from '../helpers/desk-caller';
import { DESK, deskRig } from '../helpers/desk-rig';

/**
 * docs/telephony.md "Voice desk", RFC 4028 on a desk call: a file of its own because its one test
 * waits out a third of the 90 s minimum session (sipp asks for 90 s, us refreshing); it waits
 * rather than streams, so it runs beside other such files (vitest.config.ts PEER_WAIT_SUITES).
 */
const rigs = deskRig();
afterEach(() => rigs.stopAll());
const { rig, start, phone } = rigs;

describe('voice desk session timer (RFC 4028) through kamailio', () => {
  it('a caller that asks us to refresh the session (refresher=uas) gets our re-INVITE a third of the way in; silence ends the call', async () => {
    // Silence ends the call idle_timeout_s after the menu's prompt (~7 s in): 32 s puts that
    // some 8 s after our refresh at 30 s, and ends the call as soon as that allows.
    const { a, pin, pbx } = await rig({ idleS: 32 });
    const app = await start(a);
    const ear = await phone();
    const r = await callDesk({
      to: `127.0.0.1:${pbx.port}`,
      desk: DESK,
      mediaPort: ear.port,
      sessionExpires: '90;refresher=uas',
      steps: [{ info: `${pin}#` }, { refreshed: true }, { hungUp: true }],
    });
    expect(r.code, r.output).toBe(0);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"why":"silence","msg":"voice desk ends the call"');
  }, 120_000);
});
