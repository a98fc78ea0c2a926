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
import { coverageCommand } from './coverage';
import { CliError } from './context';
import { creditCommand } from './credit';
import { deskCommand } from './desk';
import { doctorCommand } from './doctor';
import { heartbeatCommand } from './heartbeat';
import { importCommand } from './import';
import { keysCommand } from './keys';
import { maintenanceCommand } from './maintenance';
import { migrateToPostgresCommand } from './migrate-to-postgres';
import { ownerCommand } from './owner';
import { policyCommand } from './policy';
import { restoreCommand } from './restore';
import { scheduleCommand } from './schedule';
import { personCommand } from './person';
import { selfTestCommand } from './self-test';
import { sayCommand } from './say';
import { serveCommand } from './serve';
import { testCallCommand } from './test-call';
import { applyUsageRules } from './usage';

export function buildProgram(): Command {
  const program = new Command('voice-alert')
    .description('Turns monitoring alerts into phone calls through your own PBX.')
    .option('--config <path>', 'TOML configuration (else $VOICE_ALERT_CONFIG, else /etc/voice-alert/config.toml)')
    .version(VERSION, '--version', 'print the version');
  program.addCommand(serveCommand());
  program.addCommand(accountCommand());
  program.addCommand(adminCommand());
  program.addCommand(ownerCommand());
  program.addCommand(keysCommand());
  program.addCommand(creditCommand());
  program.addCommand(policyCommand());
  program.addCommand(maintenanceCommand());
  program.addCommand(heartbeatCommand());
  program.addCommand(scheduleCommand());
  program.addCommand(personCommand());
  program.addCommand(coverageCommand());
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
  program.addCommand(importCommand());
  program
    .command('version')
    .description('print the version')
    .action(() => {
      process.stdout.write(`voice-alert ${VERSION}\n`);
    });
  applyUsageRules(program);
  return program;
}

/**
 * Runs one command; returns the exit code: 0 done (and --help, --version); 1 the command ran
 * and was refused or failed; 2 a usage error (src/cli/usage.ts) or a configuration that cannot
 * serve the command. Errors are one line on stderr (docs "CLI conventions").
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    // Commander already printed it (src/cli/usage.ts); help asked for is 0, any refusal a usage error.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
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
