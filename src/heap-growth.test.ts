import { describe, expect, it } from 'vitest';
import { HEAP_GROWTH_OPTION, heapGrowthExec } from './heap-growth';

const BIN = '/usr/bin/voice-alert';
const compiled = (...args: string[]) => ['bun', '/$bunfs/root/voice-alert', ...args];

describe('heapGrowthExec', () => {
  it('starts the compiled serve again with the option set, the same arguments and the rest of the environment', () => {
    const exec = heapGrowthExec(compiled('--config', '/etc/voice-alert/config.toml', 'serve'), { PATH: '/usr/bin', NOTIFY_SOCKET: '/run/n' }, BIN);
    expect(exec).toEqual({
      path: BIN,
      args: [BIN, '--config', '/etc/voice-alert/config.toml', 'serve'],
      env: { PATH: '/usr/bin', NOTIFY_SOCKET: '/run/n', [HEAP_GROWTH_OPTION]: '100000000' },
    });
  });

  it('goes on when the option is set already: the operator\'s value, or the run it started', () => {
    expect(heapGrowthExec(compiled('serve'), { [HEAP_GROWTH_OPTION]: '100000000' }, BIN)).toBeNull();
    expect(heapGrowthExec(compiled('serve'), { [HEAP_GROWTH_OPTION]: '16384' }, BIN)).toBeNull();
  });

  it('leaves CLI commands and runs from source alone', () => {
    expect(heapGrowthExec(compiled('calls', 'list'), {}, BIN)).toBeNull();
    expect(heapGrowthExec(['/usr/bin/bun', '/src/voice-alert/src/main.ts', 'serve'], {}, '/usr/bin/bun')).toBeNull();
  });
});
