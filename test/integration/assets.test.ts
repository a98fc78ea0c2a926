import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINARY, ROOT } from '../helpers/paths';

const unitPath = join(ROOT, 'assets', 'voice-alert.service');

describe('systemd unit', () => {
  it('passes systemd-analyze verify', () => {
    // verify insists the ExecStart binary exists: point a copy at the one just built.
    const unit = readFileSync(unitPath, 'utf8').replaceAll('/usr/local/bin/voice-alert', BINARY);
    const copy = join(mkdtempSync(join(tmpdir(), 'va-unit-')), 'voice-alert.service');
    writeFileSync(copy, unit);
    const r = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    expect(r.stderr + r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it('is hardened: own user, state directory, read-only system, no new privileges, restarts on failure', () => {
    const unit = readFileSync(unitPath, 'utf8');
    for (const line of [
      'User=voice-alert',
      'StateDirectory=voice-alert',
      'ProtectSystem=strict',
      'NoNewPrivileges=yes',
      'Restart=on-failure',
      'ExecStart=/usr/local/bin/voice-alert serve',
      // systemctl reload: SIGHUP re-reads the TLS certificate (docs/https.md "HTTPS").
      'ExecReload=/bin/kill -HUP $MAINPID',
    ]) {
      expect(unit.split('\n')).toContain(line);
    }
  });
});

describe('example configuration', () => {
  it('is what `config example` prints, and is a valid configuration holding the defaults', () => {
    const printed = spawnSync(BINARY, ['config', 'example'], { encoding: 'utf8' });
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(readFileSync(join(ROOT, 'assets', 'config.example.toml'), 'utf8'));
    const dir = mkdtempSync(join(tmpdir(), 'va-example-'));
    writeFileSync(join(dir, 'config.toml'), printed.stdout);
    const fromExample = spawnSync(BINARY, ['--config', join(dir, 'config.toml'), 'config', 'check'], { encoding: 'utf8' });
    const fromDefaults = spawnSync(BINARY, ['config', 'check'], {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, VOICE_ALERT_CONFIG: join(dir, 'none.toml') },
    });
    expect(fromExample.status).toBe(0);
    expect(fromDefaults.status).toBe(2); // a named config file that is missing is an error
    const noFile = spawnSync(BINARY, ['config', 'check'], { encoding: 'utf8', cwd: dir, env: withoutConfigEnv() });
    expect(JSON.parse(fromExample.stdout)).toEqual(JSON.parse(noFile.stdout));
  });
});

function withoutConfigEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VOICE_ALERT_'))) as Record<string, string>;
}
