import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config';
import { DatabaseTooNewError } from '../store';
import { VERSION } from '../version';
import { accountCommand } from './account';
import { adminCommand } from './admin';
import { alertsCommand } from './alerts';
import { backupCommand } from './backup';
import { callsCommand } from './calls';
import { configCommand } from './config';
import { CliError } from './context';
import { creditCommand } from './credit';
import { deskCommand } from './desk';
import { doctorCommand } from './doctor';
import { heartbeatCommand } from './heartbeat';
import { keysCommand } from './keys';
import { maintenanceCommand } from './maintenance';
import { migrateToPostgresCommand } from './migrate-to-postgres';
import { policyCommand } from './policy';
import { restoreCommand } from './restore';
import { scheduleCommand } from './schedule';
import { selfTestCommand } from './self-test';
import { sayCommand } from './say';
import { serveCommand } from './serve';
import { testCallCommand } from './test-call';

export function buildProgram(): Command {
  const program = new Command('voice-alert')
    .description('Turns monitoring alerts into phone calls through your own PBX.')
    .option('--config <path>', 'TOML configuration (else $VOICE_ALERT_CONFIG, else /etc/voice-alert/config.toml)')
    .version(VERSION, '--version', 'print the version')
    .exitOverride()
    .showHelpAfterError();
  program.addCommand(serveCommand());
  program.addCommand(accountCommand());
  program.addCommand(adminCommand());
  program.addCommand(keysCommand());
  program.addCommand(creditCommand());
  program.addCommand(policyCommand());
  program.addCommand(maintenanceCommand());
  program.addCommand(heartbeatCommand());
  program.addCommand(scheduleCommand());
  program.addCommand(deskCommand());
  program.addCommand(callsCommand());
  program.addCommand(alertsCommand());
  program.addCommand(configCommand());
  program.addCommand(sayCommand());
  program.addCommand(testCallCommand());
  program.addCommand(selfTestCommand());
  program.addCommand(backupCommand());
  program.addCommand(restoreCommand());
  program.addCommand(migrateToPostgresCommand());
  program.addCommand(doctorCommand());
  program
    .command('version')
    .description('print the version')
    .action(() => {
      process.stdout.write(`voice-alert ${VERSION}\n`);
    });
  for (const c of program.commands) c.exitOverride();
  for (const c of program.commands.flatMap((c) => c.commands)) c.exitOverride();
  return program;
}

/** Runs one command; returns the exit code. Errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode; // commander already printed it
    if (e instanceof ConfigError) {
      process.stderr.write(`voice-alert: ${e.message}\n`);
      return 2;
    }
    if (e instanceof CliError) {
      process.stderr.write(`voice-alert: ${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof DatabaseTooNewError) {
      process.stderr.write(`voice-alert: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`voice-alert: ${(e as Error)?.message ?? String(e)}\n`);
    return 1;
  }
}
