import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { accessSync, constants, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { TRUNK_DID_NOT_ANSWER } from '../call-model';
import { systemClock } from '../clock';
import type { Config } from '../config';
import { parseHostPort } from '../config/host-port';
import { rtpPortRange, sipTrunks, type TrunkConfig } from '../config/sections/sip';
import { statfsFreeBytes } from '../http/disk-space';
import { describeError, silentLogger } from '../log';
import { createTelephone, describeProbe, type Telephone } from '../sip';
import { createStore, DatabaseTooNewError, SecretKeyMismatchError } from '../store';
import { createEspeakRenderer } from '../tts/espeak-ng';
import { trunkTlsCheck } from './doctor-sip-tls';
import { resampleToTelephone } from '../tts/resample';
import type { DoctorCheck } from '../outward';


const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'ok', detail });
const fail = (name: string, detail: string, remedy: string): DoctorCheck => ({ name, status: 'fail', detail, remedy });
const skip = (name: string, detail: string): DoctorCheck => ({ name, status: 'skip', detail });
const MIB = 1024 * 1024;
const SAMPLE = 'voice alert test';

/** The database takes a write (in a transaction, as /healthz does), or the folder it will be made in is writable. */
/** store.url: PostgreSQL answers, is migrated (or can be) and takes a write; the key opens its secrets. */
async function checkPostgres(config: Config, url: string): Promise<DoctorCheck> {
  const shown = url.replace(/\/\/[^@/]*@/, '//…@');
  try {
    const store = await createStore({
      path: config.store.path,
      url,
      busyTimeoutMs: config.store.busy_timeout_ms,
      timeoutMs: config.store.timeout_ms,
      poolSize: config.store.pool_size,
      clock: systemClock,
      log: silentLogger(),
    });
    try {
      await store.transaction((tx) => tx.health.probeWrite(systemClock()));
    } finally {
      await store.close();
    }
    return ok('database', `PostgreSQL at ${shown} takes a write`);
  } catch (e) {
    if (e instanceof DatabaseTooNewError) return fail('database', e.message, 'install the voice-alert version that last wrote it, or newer');
    if (e instanceof SecretKeyMismatchError) return fail('database', e.message, 'copy secret.key from an appliance already on this database');
    return fail('database', `PostgreSQL at ${shown}: ${describeError(e)}`, 'check store.url (host, port, user, password, database) and that PostgreSQL 15+ accepts this host');
  }
}

export async function checkDatabase(config: Config): Promise<DoctorCheck> {
  // Absolute, like every CLI message about the database (database-presence.ts): a relative
  // store.path depends on the folder the command runs in.
  const path = resolve(config.store.path);
  if (config.store.url) return checkPostgres(config, config.store.url);
  if (!existsSync(path)) {
    const dir = dirname(path);
    try {
      accessSync(existsSync(dir) ? dir : dirname(dir), constants.W_OK);
      return ok('database', `${path} does not exist yet; its folder is writable (made on first start)`);
    } catch (e) {
      return fail('database', `cannot create ${path}: ${describeError(e)}`, 'run as the service user (sudo -u voice-alert), or set store.path to a writable folder');
    }
  }
  try {
    const store = await createStore({ path, busyTimeoutMs: config.store.busy_timeout_ms, clock: systemClock, log: silentLogger() });
    try {
      await store.transaction((tx) => tx.health.probeWrite(systemClock()));
    } finally {
      await store.close();
    }
    return ok('database', `${path} takes a write`);
  } catch (e) {
    if (e instanceof DatabaseTooNewError) return fail('database', e.message, 'install the voice-alert version that last wrote it, or newer');
    return fail('database', `${path}: ${describeError(e)}`, 'run as the service user (sudo -u voice-alert); check the folder and file owner and free space');
  }
}

/**
 * An OPTIONS that failed, in the words test-call and the self-test use (call-model/describe-outcome.ts):
 * no response at all is "trunk did not answer"; an answer that is not up keeps its code.
 */
function optionsFailure(server: string, probe: Parameters<typeof describeProbe>[0]): string {
  if (!probe.answered && probe.failure === 'timeout') return `${server}: ${TRUNK_DID_NOT_ANSWER} the OPTIONS (timeout)`;
  return `${server} did not answer OPTIONS: ${describeProbe(probe)}`;
}

export function checkDisk(config: Config): DoctorCheck {
  let dir = dirname(config.store.path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const freeMb = Math.floor(statfsFreeBytes(dir) / MIB);
  const detail = `${freeMb} MB free in ${dir} (store.min_free_mb = ${config.store.min_free_mb})`;
  return freeMb >= config.store.min_free_mb ? ok('disk', detail) : fail('disk', detail, 'free space on that file system, or move store.path');
}

/** espeak-ng speaks a sample, then sox turns it into 8 kHz telephone audio, as every call does. */
export async function checkSpeech(config: Config): Promise<DoctorCheck[]> {
  const tts = config.tts;
  const espeak = createEspeakRenderer({ binary: tts.espeak_binary, voice: tts.voice, speedWpm: tts.speed_wpm, pitch: tts.pitch, gapMs: tts.gap_ms, timeoutMs: 10_000 });
  let pcm;
  try {
    pcm = await espeak.render(SAMPLE);
  } catch (e) {
    return [
      fail('espeak-ng', (e as Error).message, `apt-get install espeak-ng (or set tts.espeak_binary); the voice is tts.voice = "${tts.voice}" (espeak-ng --voices)`),
      skip('sox', 'needs espeak-ng'),
    ];
  }
  const spoken = ok('espeak-ng', `voice "${tts.voice}" spoke ${(pcm.samples.length / pcm.sampleRate).toFixed(1)} s`);
  try {
    const samples = await resampleToTelephone(pcm, tts.sox_binary);
    return [spoken, ok('sox', `resampled to 8 kHz: ${samples.length} samples`)];
  } catch (e) {
    return [spoken, fail('sox', (e as Error).message, 'apt-get install sox (or set tts.sox_binary)')];
  }
}

/** Every even port of sip.rtp_ports that is free now on sip.local_address (a running appliance's calls hold some). */
export async function checkRtpPorts(config: Config): Promise<DoctorCheck> {
  const [low, high] = rtpPortRange(config.sip.rtp_ports);
  const address = config.sip.local_address;
  const family = isIP(address) === 6 ? 'udp6' : 'udp4';
  let free = 0;
  let total = 0;
  let other: string | null = null;
  for (let port = low + (low % 2); port <= high; port += 2) {
    total++;
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const s = createSocket(family);
      s.once('error', (e) => resolve(e));
      s.bind(port, address, () => s.close(() => resolve(null)));
    });
    if (!error) free++;
    else if (error.code !== 'EADDRINUSE') other ??= `${port}: ${error.code ?? error.message}`;
  }
  const detail = `${free} of ${total} RTP ports in ${config.sip.rtp_ports} bindable on ${address}`;
  if (other) return fail('rtp.ports', `${detail}; ${other}`, 'set sip.local_address to an address of this host and sip.rtp_ports to ports above 1024');
  return free > 0 ? ok('rtp.ports', detail) : fail('rtp.ports', detail, 'choose a free range in sip.rtp_ports');
}

/**
 * The trunk as the appliance will use it: the server's name resolves, it answers OPTIONS,
 * and (sip.register) it accepts our credentials. The doctor's own user agent binds a port of
 * its own (local_port 0), so it runs beside a running appliance; its T1 is capped at 125 ms
 * so that an unanswered request is reported after 64·T1 = 8 s rather than 32 s.
 */
export async function checkTrunk(config: Config): Promise<DoctorCheck[]> {
  const trunks = sipTrunks(config.sip);
  if (trunks.length === 0) return [fail('trunk', 'sip.server is not set: alerts are accepted, calls wait in the queue', 'set sip.server = "host:port" of your PBX')];
  // Several trunks ([[sip.trunks]]): each one checked in order, its lines carrying its name.
  if (config.sip.trunks.length === 0) return checkOneTrunk(trunks[0]!);
  const checks: DoctorCheck[] = [];
  for (const t of trunks) {
    for (const c of await checkOneTrunk(t)) checks.push({ ...c, trunk: t.name, detail: `[${t.name}] ${c.detail}` });
  }
  return checks;
}

async function checkOneTrunk(sip: TrunkConfig): Promise<DoctorCheck[]> {
  const server = parseHostPort(sip.server)!;
  const checks: DoctorCheck[] = [];
  try {
    const found = isIP(server.host) ? server.host : (await lookup(server.host)).address;
    checks.push(ok('trunk.address', `${server.host} is ${found}`));
  } catch (e) {
    return [fail('trunk.address', `${server.host} does not resolve: ${describeError(e)}`, 'set sip.server to a name this host resolves, or to the PBX address')];
  }
  const telephone: Telephone = createTelephone({ ...sip, local_port: 0, register: false, t1_ms: Math.min(sip.t1_ms, 125) }, sip.silence_ms, { log: silentLogger() });
  try {
    await telephone.start();
    const tls = trunkTlsCheck(sip); // transport = "tls": the certificate passed (doctor-sip-tls.ts)
    if (tls) checks.push(tls);
    const options = await telephone.probe();
    checks.push(
      options.answered
        ? ok('trunk.options', `${sip.server} answered OPTIONS: ${describeProbe(options)} in ${Math.round(options.rttMs)} ms`)
        : fail('trunk.options', optionsFailure(sip.server, options), `check the PBX is up and ${sip.transport.toUpperCase()} ${server.port} is open between the two (sip.server, sip.transport)`),
    );
    if (sip.register) {
      const register = options.answered ? await telephone.checkRegister() : null;
      if (!register) checks.push(skip('trunk.register', 'the PBX does not answer'));
      else if (register.answered && register.code >= 200 && register.code < 300) checks.push(ok('trunk.register', `REGISTER accepted: ${describeProbe(register)}`));
      else checks.push(fail('trunk.register', `REGISTER refused: ${describeProbe(register)}`, 'check sip.username, sip.auth_username and sip.password against the PBX'));
    }
  } catch (e) {
    const tls = trunkTlsCheck(sip, e); // a refused certificate gets its own line and fix
    if (tls) checks.push(tls);
    else checks.push(
      fail(
        'trunk.options',
        `cannot start SIP: ${describeError(e)}`,
        `check the PBX is up and reachable on ${sip.transport.toUpperCase()} ${server.port} (sip.server, sip.transport), and that sip.local_address is an address of this host`,
      ),
    );
  } finally {
    await telephone.stop();
  }
  return checks;
}
