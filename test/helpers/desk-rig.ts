import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from './appliance';
import { fill, run, untilAnswersOptions, type Peer } from './pbx';
import { ROOT } from './paths';
import { freePort } from './ports';
import { startRtpPhone, type RtpPhone } from './rtp-phone';

/**
 * The voice desk's test rig (docs/telephony.md "Voice desk"): kamailio (the PBX,
 * test/peers/kamailio/desk.cfg) routes extension DESK to an appliance whose desk is on; each file's
 * tests call it with sipp (test/helpers/desk-caller.ts). Everything started is stopped, last first,
 * by `stopAll`.
 */
export const DESK = '8000';
export const ON_CALL = '5324444444';
export const DESK_TTS = { voice: 'en', speed_wpm: 300 };
export const DESK_CALLS = { answer_delay_ms: 0, retry_delays_s: [3600], max_attempts: 2, repeat: 1 };

export interface DeskRigOptions {
  /** Where the PBX sends alert calls (another extension than DESK); 480 without it. */
  phones?: number;
  calls?: Record<string, unknown>;
  desk?: boolean;
  srtp?: boolean;
  idleS?: number;
  /** More [voice_desk] keys (e.g. a short transfer_wait_s). */
  deskConfig?: Record<string, unknown>;
  /** Speech settings instead of DESK_TTS (e.g. a Turkish voice: the desk then speaks Turkish). */
  tts?: Record<string, unknown>;
  /**
   * The appliance registers (sip.register) from a port the OS picks, and kamailio finds it by
   * that registration alone (lookup of the AOR voice-alert), not by a fixed address.
   */
  register?: boolean;
}

export function deskRig() {
  let stops: (() => Promise<unknown>)[] = [];

  /** kamailio routing DESK to the appliance; other INVITEs (alert calls) get 480, or go to `phones` when given. */
  async function startDeskPbx(appliancePort: number, phones?: number, register = false): Promise<Peer> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'va-desk-pbx-'));
    const cfg = join(dir, 'kamailio.cfg');
    writeFileSync(cfg, fill(join(ROOT, 'test', 'peers', 'kamailio', 'desk.cfg'), {
      port,
      to_appliance: register
        ? '$rU = "voice-alert"; if (!lookup("location")) { sl_send_reply("404", "Not registered"); exit; }'
        : `$du = "sip:127.0.0.1:${appliancePort}";`,
      desk: DESK,
      others: phones ? `record_route(); $du = "sip:127.0.0.1:${phones}"; if (!t_relay()) sl_reply_error();` : 'sl_send_reply("480", "Temporarily Unavailable");',
    }));
    const peer = await run('kamailio', ['-f', cfg, '-DD', '-E', '-m', '64', '-M', '8', '-Y', dir, '-w', dir], dir, port, /Listening on/);
    await untilAnswersOptions(port);
    return peer;
  }

  return {
    /** Stops everything this rig started, last first; for afterEach. */
    async stopAll(): Promise<void> {
      for (const s of stops.reverse()) await s().catch(() => undefined);
      stops = [];
    },
    /** Something else to stop with the rest. */
    onStop(stop: () => Promise<unknown>): void {
      stops.push(stop);
    },
    /** The PBX and an appliance's folder (not started) with an account and its desk PIN. */
    async rig(o: DeskRigOptions = {}) {
      const sipPort = o.register ? 0 : await freePort();
      const pbx = await startDeskPbx(sipPort, o.phones, o.register);
      stops.push(() => pbx.stop());
      const rtp = await freePort();
      const a = applianceDir({
        sip: {
          server: `127.0.0.1:${pbx.port}`,
          domain: '127.0.0.1',
          username: 'voice-alert',
          register: o.register ?? false,
          dial_prefix: '0',
          local_address: '127.0.0.1',
          local_port: sipPort,
          // Room for the 30 streams of the concurrency test and then some: a port another program
          // holds is skipped (sip/rtp/port-pool.ts), so a range of exactly 30 could run out.
          rtp_ports: `${rtp}-${rtp + 200}`,
          t1_ms: 100,
          ...(o.srtp ? { srtp: 'sdes' } : {}),
        },
        calls: { ...DESK_CALLS, ...o.calls },
        tts: o.tts ?? DESK_TTS,
        voice_desk: { enabled: o.desk ?? true, idle_timeout_s: o.idleS ?? 15, ...o.deskConfig },
      });
      const acc = provision(a);
      const pin: string = a.cliJson(['desk', 'pin', acc.accountId]).pin;
      return { a, acc, pin, pbx, sipPort };
    },
    async start(a: ApplianceDir): Promise<RunningAppliance> {
      const app = await a.start();
      stops.push(() => app.stop());
      return app;
    },
    /** An RTP socket that answers as the caller's phone and records what the desk says. */
    async phone(): Promise<RtpPhone> {
      const p = await startRtpPhone(await freePort());
      stops.push(() => p.close());
      return p;
    },
  };
}
