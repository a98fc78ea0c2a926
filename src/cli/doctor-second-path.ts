import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import type { Config } from '../config';
import type { DoctorCheck } from '../outward';
import { createMailer } from '../email';
import { silentLogger } from '../log';
import { createModem, type ModemStatus } from '../sms';

/**
 * docs/second-path.md "Operations": one `sms.modem` line per `[[sms.modems]]` and one
 * `email.relay` line when `[email]` names a relay; nothing when neither is configured.
 */
export async function checkSecondPath(config: Config): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const m of config.sms.modems) checks.push(await checkModem(config, m));
  const mailer = createMailer(config.email, silentLogger());
  if (mailer) {
    const r = await mailer.verify();
    checks.push(
      r.ok
        ? { name: 'email.relay', status: 'ok', detail: `${config.email.smtp_url} takes mail from ${config.email.from} (connected, greeted${config.email.username ? ', logged in' : ''})` }
        : { name: 'email.relay', status: 'fail', detail: `${config.email.smtp_url}: ${r.reason}`, remedy: 'check email.smtp_url, email.starttls, email.username/password and that the relay accepts mail from this host' },
    );
  }
  return checks;
}

async function checkModem(config: Config, m: Config['sms']['modems'][number]): Promise<DoctorCheck> {
  // Two programs on one AT port answer each other's commands: a modem a running appliance holds
  // is left to it (its state is in /healthz checks.sms); anything else holding it (ModemManager
  // probes every ttyUSB) is the fault.
  // Every holder is looked at: the appliance holding it is what counts, whoever else shows up
  // beside it at that moment (a CI run once found another process first).
  const holders = await holdersOf(m.device);
  const appliance = holders.find((h) => /voice-alert|^bun$/.test(h.command));
  if (appliance) {
    return { name: 'sms.modem', status: 'skip', detail: `[${m.name}] ${m.device} is in use by the running appliance (process ${appliance.pid}): see GET /healthz checks.sms` };
  }
  const holder = holders[0];
  if (holder) {
    return {
      name: 'sms.modem',
      status: 'fail',
      detail: `[${m.name}] ${m.device} is open in process ${holder.pid} (${holder.command})`,
      remedy: 'stop that program: two programs on one AT port answer each other\'s commands (ModemManager: systemctl disable --now ModemManager)',
    };
  }
  const { modems: _, ...timings } = config.sms;
  const modem = createModem(m, timings, { log: silentLogger(), onText: () => {} });
  modem.start();
  const deadline = Date.now() + (timings.at_timeout_s * 8 + 2) * 1000;
  let st: ModemStatus = modem.status();
  // The session's first pass (open, AT, PIN, text mode, +CREG, +CSQ) settles in a few commands.
  while (Date.now() < deadline) {
    st = modem.status();
    if (st.state === 'ready' || st.state === 'failed' || (st.state === 'lost' && st.lastError)) break;
    await Bun.sleep(50);
  }
  await modem.stop();
  const where = `[${m.name}] ${m.device}`;
  if (st.state !== 'ready') {
    return { name: 'sms.modem', status: 'fail', detail: `${where}: ${st.lastError ?? st.state}`, remedy: remedyFor(st) };
  }
  const signal = st.signal?.dbm != null ? `signal ${st.signal.dbm} dBm` : 'signal unknown';
  const detail = `${where}: SIM ready, ${st.registration?.text ?? 'registration unknown'}, ${signal}`;
  if (!st.registration?.registered) return { name: 'sms.modem', status: 'fail', detail, remedy: 'check the antenna, the SIM has service here, and that its network accepts it (+CREG 3 is denied)' };
  return { name: 'sms.modem', status: 'ok', detail };
}

function remedyFor(st: ModemStatus): string {
  if (st.state === 'failed') return 'set sms.modems.pin to the SIM\'s PIN (a wrong one is tried once only), or unlock the SIM in a phone';
  if (/cannot (open|set up)/.test(st.lastError ?? '')) return 'check sms.modems.device exists (ls /dev/serial/by-id/) and the service user may open it (group dialout)';
  return 'check sms.modems.device is the modem\'s AT port (a USB stick has several) and sms.modems.baud';
}

/**
 * The processes (not this one) that have `device` open, by /proc/PID/fd; none when none (or /proc
 * is not readable). On a pseudo-terminal (a modem reached through socat or ser2net) the process
 * that made it holds /dev/ptmx and the device both: it is the far end, not a second user.
 */
async function holdersOf(device: string): Promise<{ pid: number; command: string }[]> {
  const target = await realpath(device).catch(() => null);
  if (!target) return [];
  const found: { pid: number; command: string }[] = [];
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    const open = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    if (!open.includes(target) || open.includes('/dev/ptmx')) continue;
    const command = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '?')).trim();
    found.push({ pid: Number(pid), command });
  }
  return found;
}
