import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config';
import { DatabaseTooNewError } from '../store';
import { VERSION } from '../version';
import { CliError } from './context';
import { applyUsageRules } from './usage';

/**
 * Each command's module, loaded only when it is the command to run (commandNamed): a command
 * loads what it uses, not the server, SIP, speech and e-mail every other command needs. All of
 * them at ~0.3 CPU-seconds a start was most of a short command's cost (docs/development.md
 * "The suite's length"). Order: `--help`'s.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Command>]> = [
  ['serve', async () => (await import('./serve')).serveCommand()],
  ['account', async () => (await import('./account')).accountCommand()],
  ['admin', async () => (await import('./admin')).adminCommand()],
  ['owner', async () => (await import('./owner')).ownerCommand()],
  ['keys', async () => (await import('./keys')).keysCommand()],
  ['credit', async () => (await import('./credit')).creditCommand()],
  ['policy', async () => (await import('./policy')).policyCommand()],
  ['maintenance', async () => (await import('./maintenance')).maintenanceCommand()],
  ['heartbeat', async () => (await import('./heartbeat')).heartbeatCommand()],
  ['schedule', async () => (await import('./schedule')).scheduleCommand()],
  ['person', async () => (await import('./person')).personCommand()],
  ['coverage', async () => (await import('./coverage')).coverageCommand()],
  ['desk', async () => (await import('./desk')).deskCommand()],
  ['calls', async () => (await import('./calls')).callsCommand()],
  ['alerts', async () => (await import('./alerts')).alertsCommand()],
  ['config', async () => (await import('./config')).configCommand()],
  ['say', async () => (await import('./say')).sayCommand()],
  ['test-call', async () => (await import('./test-call')).testCallCommand()],
  ['self-test', async () => (await import('./self-test')).selfTestCommand()],
  ['backup', async () => (await import('./backup')).backupCommand()],
  ['restore', async () => (await import('./restore')).restoreCommand()],
  ['migrate-to-postgres', async () => (await import('./migrate-to-postgres')).migrateToPostgresCommand()],
  ['doctor', async () => (await import('./doctor')).doctorCommand()],
  ['import', async () => (await import('./import')).importCommand()],
  ['version', async () => versionCommand()],
];

function versionCommand(): Command {
  return new Command('version').description('print the version').action(() => {
    process.stdout.write(`voice-alert ${VERSION}\n`);
  });
}

/**
 * The command `argv` runs: its first word past the global options (`--config PATH`), when it is
 * one of ours; else null (no command, `--help`, `help …`, a typo), for which every command is
 * loaded so commander can list them or suggest one.
 */
export function commandNamed(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--config') i++;
    else if (!word.startsWith('-')) return COMMANDS.some(([name]) => name === word) ? word : null;
  }
  return null;
}

/** The program with every command (no `argv`), or only the one `argv` runs. */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('voice-alert')
    .description('Turns monitoring alerts into phone calls through your own PBX.')
    .option('--config <path>', 'TOML configuration (else $VOICE_ALERT_CONFIG, else /etc/voice-alert/config.toml)')
    .version(VERSION, '--version', 'print the version');
  const only = argv ? commandNamed(argv) : null;
  const wanted = COMMANDS.filter(([name]) => only === null || name === only);
  for (const command of await Promise.all(wanted.map(([, load]) => load()))) program.addCommand(command);
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
    await (await buildProgram(argv)).parseAsync(argv, { from: 'user' });
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
