import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, type ApplianceDir, type ConfigOverrides } from '../helpers/appliance';
import { startKamailio, type Peer } from '../helpers/pbx';
import { freePort } from '../helpers/ports';

const peers: Peer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.stop();
});

const PASSWORD = 's3cret';

async function kamailio(): Promise<Peer> {
  // The doctor places no call: the INVITE target is never used.
  const peer = await startKamailio({ target: '127.0.0.1:9', auth: true, user: 'voice-alert', password: PASSWORD });
  peers.push(peer);
  return peer;
}

async function doctor(sip: Record<string, unknown>, more: ConfigOverrides = {}, prepare: (dir: ApplianceDir) => void = () => undefined) {
  const rtp = await freePort();
  const dir = applianceDir({
    sip: { local_address: '127.0.0.1', rtp_ports: `${rtp}-${rtp + 6}`, username: 'voice-alert', register: true, ...sip },
    ...more,
  });
  prepare(dir);
  const json = dir.cli(['doctor', '--json']);
  const text = dir.cli(['doctor']);
  const doc = JSON.parse(json.stdout) as { ok: boolean; checks: { name: string; status: string; detail: string; remedy?: string }[] };
  const byName = Object.fromEntries(doc.checks.map((c) => [c.name, c]));
  return { json, text, doc, byName };
}

describe('voice-alert doctor (docs/operations.md "Doctor")', () => {
  it('a working install against kamailio: every check ok, REGISTER accepted with the digest, exit 0, one line per check', async () => {
    const pbx = await kamailio();
    // An installation in use: the database exists (made by a CLI command) and must take a write.
    const r = await doctor({ server: `127.0.0.1:${pbx.port}`, password: PASSWORD }, {}, (dir) => dir.cliJson(['account', 'create', '--name', 'NOC', '--plan', 'starter']));
    expect(r.json.status).toBe(0);
    expect(r.doc.ok).toBe(true);
    expect(r.doc.checks.map((c) => [c.name, c.status])).toEqual([
      ['config', 'ok'],
      ['database', 'ok'],
      ['disk', 'ok'],
      ['espeak-ng', 'ok'],
      ['sox', 'ok'],
      ['trunk.address', 'ok'],
      ['trunk.options', 'ok'],
      ['trunk.register', 'ok'],
      ['rtp.ports', 'ok'],
    ]);
    expect(r.byName['database']!.detail).toMatch(/voice-alert\.db takes a write$/);
    expect(r.byName['trunk.options']!.detail).toContain('200 OK');
    expect(r.byName['trunk.register']!.detail).toBe('REGISTER accepted: 200 OK');
    // kamailio's log is read once the event loop runs again (the CLI ran synchronously).
    await expect.poll(() => pbx.output()).toContain('accepted REGISTER credentials');
    expect(r.byName['rtp.ports']!.detail).toMatch(/^4 of 4 RTP ports/);
    expect(r.text.status).toBe(0);
    const lines = r.text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(9);
    expect(lines.every((l) => l.startsWith('ok  '))).toBe(true);
  });

  it('a wrong password: OPTIONS answered, REGISTER refused with 403, the fix names the keys, exit 1', async () => {
    const pbx = await kamailio();
    const r = await doctor({ server: `127.0.0.1:${pbx.port}`, password: 'wrong' });
    expect(r.json.status).toBe(1);
    expect(r.doc.ok).toBe(false);
    expect(r.byName['trunk.options']!.status).toBe('ok');
    expect(r.byName['trunk.register']).toEqual({
      name: 'trunk.register',
      status: 'fail',
      detail: 'REGISTER refused: 403 Forbidden',
      remedy: 'check sip.username, sip.auth_username and sip.password against the PBX',
    });
    expect(r.text.stdout).toContain('FAIL  trunk.register REGISTER refused: 403 Forbidden -> fix: check sip.username');
    expect(r.text.stderr).toBe('voice-alert: doctor: 1 of 9 checks failed\n');
  });

  it('a broken install (PBX down, espeak-ng missing): each failure says what to install or set, exit 1', async () => {
    const nothing = await freePort();
    // T1 50 ms: the unanswered OPTIONS gives up after 64·T1 = 3.2 s, not the doctor's 8 s (its
    // T1 is at most 125 ms, src/cli/doctor-checks.ts), each of the two times.
    const r = await doctor({ server: `127.0.0.1:${nothing}`, password: PASSWORD, t1_ms: 50 }, { tts: { espeak_binary: '/nonexistent/espeak-ng' } });
    expect(r.json.status).toBe(1);
    expect(r.byName['trunk.options']).toMatchObject({ status: 'fail', detail: `127.0.0.1:${nothing}: trunk did not answer the OPTIONS (timeout)` });
    expect(r.byName['trunk.options']!.remedy).toContain(`UDP ${nothing} is open`);
    expect(r.byName['trunk.register']!.status).toBe('skip');
    expect(r.byName['espeak-ng']).toMatchObject({ status: 'fail' });
    expect(r.byName['espeak-ng']!.remedy).toMatch(/^apt-get install espeak-ng \(or set tts\.espeak_binary\)/);
    expect(r.byName['sox']!.status).toBe('skip');
    expect(r.byName['database']!.detail).toMatch(/does not exist yet; its folder is writable/);
  }, 60_000); // OPTIONS left unanswered until its timeout (3.2 s), twice (JSON and text)

  it('an invalid configuration fails the first check and skips the rest', async () => {
    const r = await doctor({ server: 'no port here' });
    expect(r.json.status).toBe(1);
    expect(r.doc.checks[0]).toMatchObject({ name: 'config', status: 'fail' });
    expect(r.doc.checks[0]!.detail).toContain('sip.server');
    expect(r.doc.checks.slice(1).every((c) => c.status === 'skip')).toBe(true);
  });
});
