import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema';
import { silentLogger } from '../../src/log';
import { createCallAudioSource } from '../../src/tts';
import { DESK_WORDS } from '../../src/voice-desk/words';
import { alertOverHttp } from '../helpers/api-reads';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { startCallbackReceiver } from '../helpers/callback-receiver';
import { callDesk } from '../helpers/desk-caller';
import { DESK, DESK_CALLS, DESK_TTS, ON_CALL, deskRig } from '../helpers/desk-rig';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { loudFrames } from '../helpers/recording';
import { until } from '../helpers/until';

/**
 * docs/telephony.md "Voice desk" through the compiled binary: sipp (the engineer's phone) calls
 * extension 8000 on kamailio (the PBX, test/peers/kamailio/desk.cfg), which routes it to the
 * appliance; keys go as SIP INFO (sipp) or RFC 4733 events (the test's RTP socket, which
 * also records what the desk says).
 */
const rigs = deskRig();
afterEach(() => rigs.stopAll());
const { rig, start, phone, onStop } = rigs;

async function alert(app: RunningAppliance, acc: { apiKey: string; apiSecret: string }, key: string, message: string): Promise<string> {
  const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: message, alert_key: key });
  expect(r.status).toBe(200);
  return r.json.alert_id;
}

const metric = async (app: RunningAppliance, name: string) => {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith(name));
};

/** The loud frames of `sentences` as the desk speaks them (the same speech engine and settings). */
async function spokenFrames(sentences: string[], tts: Record<string, unknown> = DESK_TTS): Promise<Uint8Array[]> {
  const speech = createCallAudioSource(configSchema.parse({ tts, calls: DESK_CALLS }), { log: silentLogger(), dataDir: mkdtempSync(join(tmpdir(), 'va-expected-')) });
  return loudFrames((await speech.prompt(sentences)).pcmu, 0xff);
}

/** Keypad 0 goes to schedule `noc`, whose one participant is ON_CALL: the desk policy `desk` (`@noc`). */
function deskPolicyToOnCall(a: ApplianceDir, accountId: string): unknown {
  const layers = [{ participants: [{ name: 'Deniz', number: ON_CALL }], shift: '1d', start: '2026-01-01T00:00' }];
  a.cliJson(['schedule', 'create', accountId, '--name', 'noc', '--time-zone', 'UTC', '--layers', JSON.stringify(layers)]);
  a.cliJson(['policy', 'create', accountId, '--name', 'desk', '--step', '@noc']);
  return a.cliJson(['desk', 'set-policy', accountId, 'desk']);
}

/** The frames of `frames` that are not PCMU silence (0xff): what was said. */
const loud = (frames: Uint8Array[]) => frames.filter((f) => f.some((v) => v !== 0xff));

/** Where `expected`'s loud frames appear, contiguous and exact, in `heard`; -1 when they do not. */
function findFrames(heard: Uint8Array[], expected: Uint8Array[]): number {
  const same = (x: Uint8Array, y: Uint8Array) => x.length === y.length && x.every((v, i) => v === y[i]);
  for (let i = 0; i + expected.length <= heard.length; i++) if (expected.every((f, j) => same(f, heard[i + j]!))) return i;
  return -1;
}

describe('voice desk through kamailio (sipp calls the appliance)', () => {
  it('right PIN by RFC 4733: hears the count (frame-exact); 2 reads the next, 9 repeats it, 1 acknowledges it (API and callback say voice-desk), 3 resolves the other, * ends', async () => {
    const { a, acc, pin, pbx } = await rig();
    const hook = startCallbackReceiver(() => secret);
    onStop(async () => hook.stop());
    const secret: string = a.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]).callback_secret;
    const app = await start(a);
    const older = await alert(app, acc, 'disk/db1', 'Disk full on database one');
    await new Promise((r) => setTimeout(r, 20));
    const newer = await alert(app, acc, 'lag/db2', 'Replication lag on database two');
    const expectedCount = await spokenFrames([DESK_WORDS.en.count(2)]);
    // "Alert 2 of 2." opens the older alert's reading (its last, partly filled frame left out).
    const expectedSecond = (await spokenFrames([DESK_WORDS.en.alert(2, 2)])).slice(0, -1);
    expect(expectedCount.length).toBeGreaterThan(20);
    expect(expectedSecond.length).toBeGreaterThan(20);

    const ear = await phone();
    const caller = callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ hungUp: true }] });
    await until('the desk answering with RTP', () => ear.remote());
    // Typed over the greeting (barge-in).
    for (const k of pin) await ear.press(k);
    // The count follows the # at once: what is heard from here on holds it.
    const mark = ear.frames.length;
    await ear.press('#');
    const loudSince = (at: number) => loud(ear.frames.slice(at));
    await until('the count and the first alert read', () => loudSince(mark).length > expectedCount.length + 50);
    expect(findFrames(loudSince(mark), expectedCount)).toBeGreaterThanOrEqual(0);
    expect(findFrames(loudSince(mark), expectedSecond)).toBe(-1);

    const next = ear.frames.length;
    await ear.press('2');
    await until('the second alert read', () => findFrames(loudSince(next), expectedSecond) >= 0);
    const again = ear.frames.length;
    await ear.press('9');
    await until('the second alert read again', () => findFrames(loudSince(again), expectedSecond) >= 0);

    await ear.press('1');
    const acked = await until('the older alert acknowledged', async () => {
      const s = await alertOverHttp(app, acc, older);
      return s.state === 'acknowledged' ? s : null;
    });
    expect(acked).toMatchObject({ state: 'acknowledged', acknowledged_by: 'voice-desk' });
    expect((await alertOverHttp(app, acc, newer)).state).toBe('open');
    const event = await until('the alert.acknowledged callback', () => hook.received.find((c) => c.event.type === 'alert.acknowledged'));
    expect(event.signatureValid).toBe(true);
    expect(event.event).toMatchObject({ type: 'alert.acknowledged', acknowledged_by: 'voice-desk', alert: { id: older } });

    // The one left is read now; 3 resolves it.
    await ear.press('3');
    const resolved = await until('the other alert resolved', async () => {
      const s = await alertOverHttp(app, acc, newer);
      return s.state === 'resolved' ? s : null;
    });
    expect(resolved.state_reason).toBe('resolved by voice-desk');
    await until('the alert.resolved callback', () => hook.received.find((c) => c.event.type === 'alert.resolved' && c.event.alert.id === newer));
    await ear.press('*');
    const r = await caller;
    expect(r.code, r.output).toBe(0);
    expect(await metric(app, 'voice_alert_desk_menu_keys_total')).toEqual(
      expect.arrayContaining(['voice_alert_desk_menu_keys_total{key="2"} 1', 'voice_alert_desk_menu_keys_total{key="9"} 1', 'voice_alert_desk_menu_keys_total{key="*"} 1']),
    );
  }, 120_000);

  it('with a Turkish voice (tts.language auto) the desk speaks Turkish: its greeting heard frame for frame', async () => {
    // docs/telephony.md "Voice desk": prompts are spoken in the language of the calls, through the
    // same speech pipeline.
    const tts = { voice: 'tr', speed_wpm: 300 };
    const { a, pbx } = await rig({ tts, idleS: 5 });
    const app = await start(a);
    const greeting = await spokenFrames([DESK_WORDS.tr.greeting], tts);
    expect(greeting.length).toBeGreaterThan(20);
    expect(await spokenFrames([DESK_WORDS.en.greeting], tts)).not.toEqual(greeting);
    const ear = await phone();
    // No key at all: after the greeting and idle_timeout_s of silence the desk ends the call.
    const r = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ hungUp: true }] });
    expect(r.code, r.output).toBe(0);
    const said = loud(ear.frames);
    expect(findFrames(said, greeting)).toBe(0);
    // …and its goodbye in Turkish after it ("Hoşça kalın.", its last, partly filled frame left out).
    const goodbye = (await spokenFrames([DESK_WORDS.tr.goodbye], tts)).slice(0, -1);
    expect(goodbye.length).toBeGreaterThan(10);
    expect(findFrames(said.slice(greeting.length), goodbye)).toBeGreaterThanOrEqual(0);
    expect(app.output()).toContain('"why":"no PIN entered","msg":"voice desk ends the call"');
  }, 120_000);

  it('three wrong PINs by SIP INFO end the call; they are counted; a second such call is spoken from the render cache', async () => {
    const { a, pbx } = await rig();
    const app = await start(a);
    const ear = await phone();
    // Typed ahead at once: each entry cuts the prompt short (barge-in).
    const wrongThrice = () => callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ info: '1111#2222#3333#' }, { hungUp: true }] });
    const r = await wrongThrice();
    expect(r.code, r.output).toBe(0);
    expect(await metric(app, 'voice_alert_desk_wrong_pins_total')).toEqual(['voice_alert_desk_wrong_pins_total{trunk="default"} 3']);
    expect((await metric(app, 'voice_alert_desk_barge_ins_total'))[0]).toMatch(/ [1-9]\d*$/);
    await expect.poll(() => app.output(), { timeout: 5000 }).toMatch(/"why":"wrong PIN, no tries left","msg":"voice desk ends the call"/);

    // docs/telephony.md "Voice desk": the same speech engine and render cache as calls out. The
    // same prompts again render nothing new: every lookup of the second call is a hit.
    const lookups = async () => Object.fromEntries((await metric(app, 'voice_alert_speech_cache_lookups_total')).map((l) => [/result="(\w+)"/.exec(l)![1]!, Number(l.split(' ')[1])]));
    const before = await lookups();
    expect(before.miss).toBeGreaterThan(0);
    expect((await wrongThrice()).code).toBe(0);
    await expect.poll(async () => (await lookups()).hit ?? 0, { timeout: 5000 }).toBeGreaterThan(before.hit ?? 0);
    expect((await lookups()).miss).toBe(before.miss);
  }, 120_000);

  it('0 transfers by REFER to the on-call number of the schedule in the desk policy; a 405, 501 or 603, or a failed NOTIFY keeps the caller in the menu', async () => {
    const { a, acc, pin, pbx } = await rig();
    expect(deskPolicyToOnCall(a, acc.accountId)).toMatchObject({ account_id: acc.accountId, policy: 'desk' });
    const app = await start(a);
    const ear = await phone();
    const r = await callDesk({
      to: `127.0.0.1:${pbx.port}`,
      desk: DESK,
      mediaPort: ear.port,
      steps: [
        { info: `${pin}#0` },
        { refer: 405, referTo: ON_CALL },
        // Back in the menu each time: the other ways a PBX refuses a REFER (RFC 3515 §2.4.2).
        { info: '0' },
        { refer: 501, referTo: ON_CALL },
        { info: '0' },
        { refer: 603, referTo: ON_CALL },
        // 0 again, the PBX takes the REFER but the target is busy.
        { info: '0' },
        { refer: 202, referTo: ON_CALL, notify: '486 Busy Here' },
        // Still in the menu: 0 once more, and this time the target answers.
        { info: '0' },
        { refer: 202, referTo: ON_CALL },
        { hungUp: true },
      ],
    });
    expect(r.code, r.output).toBe(0);
    expect(await metric(app, 'voice_alert_desk_transfers_total')).toEqual(
      expect.arrayContaining(['voice_alert_desk_transfers_total{result="failed"} 4', 'voice_alert_desk_transfers_total{result="connected"} 1']),
    );
    for (const refusal of ['REFER answered 405 Method Not Allowed', 'REFER answered 501 Not Implemented', 'REFER answered 603 Decline']) expect(app.output()).toContain(refusal);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('the transfer failed: NOTIFY 486');
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('voice desk transfer failed: the caller stays in the menu');
  }, 120_000);

  it.each([
    { how: 'a PBX that refuses the REFER (405)', refusal: { refer: 405, referTo: ON_CALL } as const, why: 'REFER answered 405 Method Not Allowed', waitS: 0 },
    { how: 'a transfer whose target is busy (NOTIFY 486)', refusal: { refer: 202, referTo: ON_CALL, notify: '486 Busy Here' } as const, why: 'the transfer failed: NOTIFY 486', waitS: 0 },
    // voice_desk.transfer_wait_s shortened to 3 s: the PBX took the REFER and then said nothing final.
    { how: 'no final NOTIFY within transfer_wait_s', refusal: { refer: 202, referTo: ON_CALL, notify: null } as const, why: 'no final NOTIFY about the transfer', waitS: 3 },
  ])('0 with $how: the caller hears that the transfer did not work (frame-exact), and the menu goes on', async ({ refusal, why, waitS }) => {
    // docs/telephony.md "Voice desk": when the PBX refuses REFER, or the transfer fails, the caller
    // is told so and the call continues.
    const { a, acc, pin, pbx } = await rig(waitS ? { deskConfig: { transfer_wait_s: waitS } } : {});
    deskPolicyToOnCall(a, acc.accountId);
    const app = await start(a);
    const expectedRefused = await spokenFrames([DESK_WORDS.en.transferFailed]);
    expect(expectedRefused.length).toBeGreaterThan(20);
    const ear = await phone();
    const referAt = Date.now();
    const r = await callDesk({
      to: `127.0.0.1:${pbx.port}`,
      desk: DESK,
      mediaPort: ear.port,
      // No key for 4 s after the refusal: nothing cuts its prompt short (barge-in).
      steps: [{ info: `${pin}#0` }, refusal, { pause: 4000 + waitS * 1000 }, { info: '*' }, { hungUp: true }],
    });
    expect(r.code, r.output).toBe(0);
    const failed = app.output().split('\n').find((l) => l.includes('voice desk transfer failed: the caller stays in the menu'));
    expect(failed).toContain(`"reason":"${why}"`);
    if (waitS) {
      // Not before transfer_wait_s: the wait is the setting's, not the 32 s default.
      const at = Date.parse(JSON.parse(failed!).time);
      expect(at - referAt).toBeGreaterThanOrEqual(waitS * 1000);
      expect(at - referAt).toBeLessThan(waitS * 1000 + 10_000);
    }
    // These words are said after a failed transfer only: heard whole, the failure was told.
    expect(findFrames(loud(ear.frames), expectedRefused)).toBeGreaterThanOrEqual(0);
    // Still in the menu after it: * there ends the call as the menu's key.
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"why":"caller pressed *","msg":"voice desk ends the call"');
    expect(await metric(app, 'voice_alert_desk_transfers_total')).toEqual(['voice_alert_desk_transfers_total{result="failed"} 1']);
  }, 120_000);

  it('an INVITE from the trunk\'s host on another source port than the trunk\'s is answered and the menu works', async () => {
    // docs/telephony.md "Voice desk": INVITEs are taken from the trunks' addresses only (the
    // trunk's host; any source port). sipp calls the appliance directly from 127.0.0.1 (kamailio's
    // host) on a port of its own (callDesk binds a free one), not kamailio's.
    const { a, pin, sipPort, pbx } = await rig();
    const app = await start(a);
    const ear = await phone();
    // The caller hangs up itself: the desk's own requests (its BYE after *) go to the trunk's
    // server, kamailio, which never saw this dialog.
    const r = await callDesk({ to: `127.0.0.1:${sipPort}`, desk: DESK, mediaPort: ear.port, steps: [{ info: `${pin}#` }, { pause: 1000 }, { info: '9' }, { pause: 1000 }, { bye: true }] });
    expect(r.code, r.output).toBe(0);
    // The call did not pass through kamailio (it logs each desk call it routes).
    expect(pbx.output()).not.toContain('desk call from');
    expect(app.output()).toContain('voice desk caller entered the PIN of the account');
    expect(await metric(app, 'voice_alert_desk_menu_keys_total')).toEqual(['voice_alert_desk_menu_keys_total{key="9"} 1']);
    expect(loud(ear.frames).length).toBeGreaterThan(20);
    expect(await metric(app, 'voice_alert_desk_refused_total')).toEqual([]);
    // Its BYE ended it, and the log says so (not the appliance ending it).
    await expect.poll(() => app.output()).toMatch(/"why":"caller hung up","msg":"voice desk call ended"/);
  }, 120_000);

  it('a desk call reaching the appliance through its registration (the PBX knows where it is only from its REGISTER)', async () => {
    // docs/telephony.md "Voice desk": INVITEs come from the trunk, to a fixed address or through
    // the appliance's registration. Here the appliance listens on a port the OS picked, and
    // kamailio routes extension DESK by lookup of the AOR the REGISTER saved.
    const { a, pin, pbx } = await rig({ register: true });
    const app = await start(a);
    await expect.poll(() => app.output(), { timeout: 10_000 }).toMatch(/sip registered/);
    expect(pbx.output()).toMatch(/register voice-alert at <sip:voice-alert@127\.0\.0\.1:\d+/);
    const ear = await phone();
    const r = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ info: `${pin}#` }, { pause: 1000 }, { info: '9' }, { pause: 1000 }, { info: '*' }, { hungUp: true }] });
    expect(r.code, r.output).toBe(0);
    expect(pbx.output()).toContain('desk call from');
    expect(app.output()).toContain('voice desk caller entered the PIN of the account');
    expect(await metric(app, 'voice_alert_desk_menu_keys_total')).toEqual(expect.arrayContaining(['voice_alert_desk_menu_keys_total{key="9"} 1']));
    expect(loud(ear.frames).length).toBeGreaterThan(20);
    expect(await metric(app, 'voice_alert_desk_refused_total')).toEqual([]);
  }, 120_000);

  it('an INVITE that does not come from the trunk is refused 403 with no prompt, and counted', async () => {
    const { a, sipPort } = await rig();
    const app = await start(a);
    const ear = await phone();
    // Straight to the appliance from 127.0.0.3, not through kamailio (127.0.0.1).
    const r = await callDesk({ to: `127.0.0.1:${sipPort}`, ip: '127.0.0.3', desk: DESK, mediaPort: ear.port, steps: [{ refused: 403 }] });
    expect(r.code, r.output).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(ear.frames).toHaveLength(0);
    expect(await metric(app, 'voice_alert_desk_refused_total')).toEqual(['voice_alert_desk_refused_total{reason="not_trunk",trunk="default"} 1']);
    expect(await metric(app, 'voice_alert_desk_calls_total')).toEqual([]);
  }, 120_000);

  it('with the desk off (the default) an INVITE to the appliance is refused as before the desk existed', async () => {
    const { a, pbx } = await rig({ desk: false });
    const app = await start(a);
    const ear = await phone();
    // sip.js's own 404 for a user that is not ours (ua/inbound.ts acceptAnyUser runs only with the desk on).
    const r = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ refused: 404 }] });
    expect(r.code, r.output).toBe(0);
    expect(ear.frames).toHaveLength(0);
    expect(await metric(app, 'voice_alert_desk_')).toEqual([]);
  }, 120_000);

  it('more than 10 wrong PINs a minute from the trunk lock the desk: the next call gets 403', async () => {
    const { a, pbx } = await rig();
    const app = await start(a);
    const ear = await phone();
    // 4 calls of 3 wrong PINs: the 11th wrong PIN (the 4th call's second) locks.
    const wrong = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, calls: 4, steps: [{ info: '1111#2222#3333#' }, { hungUp: true }] });
    expect(wrong.code, wrong.output).toBe(0);
    expect(await metric(app, 'voice_alert_desk_wrong_pins_total')).toEqual(['voice_alert_desk_wrong_pins_total{trunk="default"} 11']);
    expect(await metric(app, 'voice_alert_desk_lockouts_total')).toEqual(['voice_alert_desk_lockouts_total{trunk="default"} 1']);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('voice desk locked for calls from this trunk: too many wrong PINs');
    // Any call from that trunk now: the INVITE itself is refused, before any PIN.
    const locked = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ refused: 403 }] });
    expect(locked.code, locked.output).toBe(0);
    expect(await metric(app, 'voice_alert_desk_refused_total')).toEqual(['voice_alert_desk_refused_total{reason="locked",trunk="default"} 1']);
  }, 120_000);

  it('keys as tones in the audio (no telephone-event offered) enter the PIN, and * ends the call', async () => {
    const { a, pin, pbx } = await rig();
    const app = await start(a);
    const ear = await phone();
    const caller = callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, telephoneEvent: false, steps: [{ hungUp: true }] });
    await until('the desk answering with RTP', () => ear.remote());
    for (const k of `${pin}#`) await ear.tone(k);
    await until('the PIN taken', () => app.output().includes('voice desk caller entered the PIN of the account'));
    await ear.tone('*');
    const r = await caller;
    expect(r.code, r.output).toBe(0);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"why":"caller pressed *","msg":"voice desk ends the call"');
  }, 120_000);

  it('a re-INVITE moves the media mid-call: the menu goes on, heard at the new address', async () => {
    const { a, pin, pbx } = await rig();
    const app = await start(a);
    const ear = await phone();
    const moved = await phone();
    const r = await callDesk({
      to: `127.0.0.1:${pbx.port}`,
      desk: DESK,
      mediaPort: ear.port,
      // A second after the PIN: its check (Argon2id) and the count prompt's start are behind us
      // on a busy machine too (after 300 ms the first address had heard 0–10 frames in loaded runs).
      steps: [{ info: `${pin}#` }, { pause: 1000 }, { reinvite: moved.port }, { pause: 300 }, { info: '9' }, { pause: 1500 }, { info: '*' }, { hungUp: true }],
    });
    expect(r.code, r.output).toBe(0);
    expect(loud(ear.frames).length).toBeGreaterThan(10);
    // The menu read again after 9, and the goodbye: at the new address only.
    expect(loud(moved.frames).length).toBeGreaterThan(50);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"why":"caller pressed *"');
    // The goodbye after * is heard whole there, frame for frame (its last, partly filled frame left out), and not at the old address.
    const goodbye = (await spokenFrames([DESK_WORDS.en.goodbye])).slice(0, -1);
    expect(goodbye.length).toBeGreaterThan(10);
    expect(findFrames(loud(moved.frames), goodbye)).toBeGreaterThanOrEqual(0);
    expect(findFrames(loud(ear.frames), goodbye)).toBe(-1);
  }, 120_000);

  it('an INVITE without SDP gets our offer and its ACK answers: the menu works; an offer without G.711 is 488', async () => {
    const { a, pin, pbx } = await rig();
    const app = await start(a);
    const ear = await phone();
    const r = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, offer: 'late', steps: [{ info: `${pin}#` }, { pause: 1000 }, { info: '*' }, { hungUp: true }] });
    expect(r.code, r.output).toBe(0);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"why":"caller pressed *"');
    expect(loud(ear.frames).length).toBeGreaterThan(20);
    const g729 = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, offer: 'g729', steps: [{ refused: 488 }] });
    expect(g729.code, g729.output).toBe(0);
  }, 120_000);

  it('a trunk with srtp = "sdes" answers an SRTP offer with its own crypto line and the menu works; a plain offer there is 488', async () => {
    const { a, pin, pbx } = await rig({ srtp: true });
    const app = await start(a);
    const ear = await phone();
    const r = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, srtp: true, steps: [{ info: `${pin}#` }, { pause: 500 }, { info: '*' }, { hungUp: true }] });
    expect(r.code, r.output).toBe(0);
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"why":"caller pressed *"');
    // What arrives is SRTP: no frame of it is plain G.711 silence (0xff), as the clear stream's pauses are.
    expect(ear.frames.length).toBeGreaterThan(20);
    expect(ear.frames.filter((f) => f.every((v) => v === 0xff))).toHaveLength(0);
    const plain = await callDesk({ to: `127.0.0.1:${pbx.port}`, desk: DESK, mediaPort: ear.port, steps: [{ refused: 488 }] });
    expect(plain.code, plain.output).toBe(0);
  }, 120_000);
});
