import { Command } from 'commander';
import example from '../../assets/config.example.toml' with { type: 'text' };
import { configFrom } from './context';

/** Keys whose values never leave the process in clear text. */
const SECRET_KEY = /password|secret|token/i;

export function maskSecrets(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]));
  }
  return SECRET_KEY.test(key) && value ? '********' : value;
}

export function configCommand(): Command {
  const cmd = new Command('config').description('the configuration file');
  cmd
    .command('example')
    .description('print a commented example configuration with every default')
    .action(() => {
      process.stdout.write(example);
    });
  cmd
    .command('check')
    .description('validate the configuration and print what is in effect (secrets masked) as JSON')
    .action((_opts, c: Command) => {
      process.stdout.write(JSON.stringify(maskSecrets(configFrom(c)), null, 2) + '\n');
    });
  return cmd;
}
