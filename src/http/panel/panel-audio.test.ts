import { describe, expect, test } from 'vitest';
import type { CallAudioSource } from '../../call-model';
import { browser, panelApp } from '../../../test/helpers/panel-app';

const PW = 'a-long-password-1';

/** A speech source that records what it was asked to say and returns 100 ms of µ-law silence. */
function fakeSpeech() {
  const said: string[] = [];
  const audio = { pcmu: new Uint8Array(800).fill(0xff), pcma: new Uint8Array(800).fill(0xd5), durationMs: 100 };
  const source: CallAudioSource = {
    forMessage: async (m) => {
      said.push(m);
      return audio;
    },
    acknowledged: async () => audio,
    forBundle: async (ms) => {
      said.push(ms.join(' | '));
      return audio;
    },
  };
  return { said, source };
}

async function setup() {
  const speech = fakeSpeech();
  const ctx = await panelApp({}, Date.now, speech.source);
  await ctx.users.createAdmin('admin', PW);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'A', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'B', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@a.test', PW);
  const admin = browser(ctx.app);
  await admin.login('admin', PW);
  return { ...ctx, a, b, admin, said: speech.said };
}

describe('panel audio', () => {
  test("a call's audio is rendered from its message as a WAV, only for its own account", async () => {
    const { a, b, store, app, said, admin } = await setup();
    const [mine] = await store.transaction((tx) => tx.calls.enqueue([{ accountId: a.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'Disk dolu' }], Date.now()));
    const [theirs] = await store.transaction((tx) => tx.calls.enqueue([{ accountId: b.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'Gizli' }], Date.now()));
    const owner = browser(app);
    await owner.login('a@a.test', PW);
    const page = await (await owner.get(`/panel/a/${a.id}/calls`)).text();
    expect(page).toContain(`src="/panel/a/${a.id}/calls/${mine}/audio.wav"`);
    const wav = await owner.get(`/panel/a/${a.id}/calls/${mine}/audio.wav`);
    expect(wav.status).toBe(200);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const bytes = new Uint8Array(await wav.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('RIFF');
    expect(bytes.length).toBe(44 + 800 * 2);
    expect((await owner.get(`/panel/a/${a.id}/calls/${theirs}/audio.wav`)).status).toBe(404);
    expect((await owner.get(`/panel/a/${b.id}/calls/${theirs}/audio.wav`)).status).toBe(404);
    expect(said).toEqual(['Disk dolu']);
    // The admin may listen to any account's calls.
    expect((await admin.get(`/panel/a/${b.id}/calls/${theirs}/audio.wav`)).status).toBe(200);
  });

  test('the say box renders the typed text for the administrator only', async () => {
    const { admin, app, said } = await setup();
    const page = await (await admin.get('/panel/settings?say=Merhaba%20d%C3%BCnya')).text();
    expect(page).toContain('src="/panel/settings/say.wav?text=Merhaba+d%C3%BCnya"');
    const wav = await admin.get('/panel/settings/say.wav?text=Merhaba+d%C3%BCnya');
    expect(wav.status).toBe(200);
    expect(said).toEqual(['Merhaba dünya']);
    expect((await admin.get('/panel/settings/say.wav?text=')).status).toBe(400);
    const owner = browser(app);
    await owner.login('a@a.test', PW);
    expect((await owner.get('/panel/settings/say.wav?text=x')).status).toBe(403);
  });

  test('the trunk section says when no SIP server is configured', async () => {
    const { admin } = await setup();
    const html = await (await admin.get('/panel/settings')).text();
    expect(html).toMatch(/id="sip-state"[^>]*>[^<]*sip\.server/);
  });
});
