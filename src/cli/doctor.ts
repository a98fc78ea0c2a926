import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { ConfigError, DEFAULT_CONFIG_PATH } from '../config';
import { doctorJson, type DoctorCheck } from '../outward';
import { checkDatabase, checkDisk, checkRtpPorts, checkSpeech, checkTrunk } from './doctor-checks';
import { CliError, configFrom, print } from './context';
import { checkTls } from './doctor-tls';
import { checkSecondPath } from './doctor-second-path';

/**
 * `voice-alert doctor [--json]` (docs/operations.md "Doctor"): is this installation able to
 * take alerts and place calls? Configuration, database, disk, speech, the trunk (address,
 * OPTIONS, REGISTER when configured), the RTP ports, with HTTPS the certificate, and the GSM
 * modems and the SMTP relay when configured (docs/second-path.md "Operations"): one
 * line per check, with the fix when one fails; exit 1 when any failed. Safe beside a running
 * appliance (it binds its own SIP port, and its REGISTER removes only its own binding).
 */
export function doctorCommand(): Command {
  return new Command('doctor')
    .description('check the configuration, database, disk, speech, SIP trunk and RTP ports; exit 1 if any check fails')
    .option('--json', 'print one JSON document')
    .action(async (opts, c: Command) => {
      const checks = await runChecks(c);
      const failed = checks.filter((x) => x.status === 'fail').length;
      print(opts.json, doctorJson(checks, failed), () => checks.map(line).join('\n'));
      if (failed > 0) throw new CliError(`doctor: ${failed} of ${checks.length} checks failed`);
    });
}

async function runChecks(c: Command): Promise<DoctorCheck[]> {
  let config;
  const deprecated: string[] = [];
  try {
    config = configFrom(c, {}, (m) => deprecated.push(m));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return [
      { name: 'config', status: 'fail', detail: e.message, remedy: 'fix that key (voice-alert config example shows them all), then voice-alert config check' },
      ...['database', 'disk', 'speech', 'trunk', 'rtp.ports'].map((name): DoctorCheck => ({ name, status: 'skip', detail: 'needs a valid configuration' })),
    ];
  }
  const { config: path } = c.optsWithGlobals() as { config?: string };
  // The file loadConfig read (load.ts: --config, else $VOICE_ALERT_CONFIG, else the default when it exists).
  const source = path ?? process.env.VOICE_ALERT_CONFIG ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : 'no file: built-in defaults');
  return [
    { name: 'config', status: 'ok', detail: `valid (${source})${deprecated.length ? `; ${deprecated.join('; ')}` : ''}` },
    await checkDatabase(config),
    checkDisk(config),
    ...(await checkSpeech(config)),
    ...(await checkTrunk(config)),
    await checkRtpPorts(config),
    ...(await checkTls(config)),
    ...(await checkSecondPath(config)),
  ];
}

const MARK = { ok: 'ok  ', fail: 'FAIL', skip: 'skip' } as const;

function line(x: DoctorCheck): string {
  const head = `${MARK[x.status]}  ${x.name.padEnd(14)} ${x.detail}`;
  return x.remedy ? `${head} -> fix: ${x.remedy}` : head;
}
