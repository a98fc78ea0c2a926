import { describe, expect, it } from 'vitest';
import { commandNamed } from '.';

/** cli/index.ts loads only the command that runs; these words decide which (else all, for help and suggestions). */
describe('the command a command line runs', () => {
  it('is the first word past the global options', () => {
    expect(commandNamed(['policy', 'list', 'acc_x'])).toBe('policy');
    expect(commandNamed(['--config', '/etc/voice-alert/config.toml', 'serve'])).toBe('serve');
    expect(commandNamed(['--config=/tmp/c.toml', 'calls', 'show', 'call_1'])).toBe('calls');
    expect(commandNamed(['version'])).toBe('version');
    // A value of --config that looks like a command is still the config's.
    expect(commandNamed(['--config', 'serve', 'account', 'list'])).toBe('account');
  });

  it('is none for help, no command or a word that is not a command: every command is loaded then', () => {
    expect(commandNamed([])).toBeNull();
    expect(commandNamed(['--help'])).toBeNull();
    expect(commandNamed(['--version'])).toBeNull();
    expect(commandNamed(['help', 'policy'])).toBeNull();
    expect(commandNamed(['polcy', 'list'])).toBeNull();
  });
});
