import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

// scripts/package-deb (docs/operations.md "Package", README.md "Install on a server"), built
// ONCE for the whole file: the package holds the ~110 MB binary, so a build takes ~15 s.
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const ARCH = spawnSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).stdout.trim();
const DEB = join(ROOT, 'dist', `voice-alert_${VERSION}_${ARCH}.deb`);

function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  const built = run(join(ROOT, 'scripts', 'package-deb'), []);
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
  expect(built.stdout.trim()).toBe(`dist/voice-alert_${VERSION}_${ARCH}.deb`);
}, 180_000);

/** Every file (not directory) of the package with its mode and owner, as dpkg-deb lists them. */
const FILES = [
  ['-rwxr-xr-x', 'root/root', './usr/bin/voice-alert'],
  ['-rw-r--r--', 'root/root', './lib/systemd/system/voice-alert.service'],
  ['-rw-r--r--', 'root/root', './etc/voice-alert/config.toml'],
  ['-rw-r--r--', 'root/root', './usr/share/doc/voice-alert/README.md'],
  ['-rw-r--r--', 'root/root', './usr/share/doc/voice-alert/changelog.gz'],
  ['-rw-r--r--', 'root/root', './usr/share/doc/voice-alert/copyright'],
  ['-rw-r--r--', 'root/root', './usr/share/lintian/overrides/voice-alert'],
  // The manual README.md links to (docs/*.md), beside it.
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => ['-rw-r--r--', 'root/root', `./usr/share/doc/voice-alert/docs/${n}`]),
];

describe('scripts/package-deb', () => {
  it('dpkg-deb --info: name, version, architecture, dependencies, conffile and maintainer scripts', () => {
    const info = run('dpkg-deb', ['--info', DEB]);
    expect(info.status).toBe(0);
    const field = (name: string) => new RegExp(`^ ${name}: (.*)$`, 'm').exec(info.stdout)?.[1];
    expect(field('Package')).toBe('voice-alert');
    expect(field('Version')).toBe(VERSION);
    expect(field('Architecture')).toBe(ARCH);
    expect(field('Depends')).toMatch(/^libc6 \(>= 2\.\d+\), adduser, espeak-ng, sox$/);
    for (const script of ['postinst', 'prerm', 'postrm', 'conffiles', 'md5sums']) expect(info.stdout).toMatch(new RegExp(`^\\s+\\d+ bytes,\\s+\\d+ lines\\s+\\*?\\s+${script}\\b`, 'm'));
    const control = mkdtempSync(join(tmpdir(), 'va-deb-control-'));
    expect(run('dpkg-deb', ['--control', DEB, control]).status).toBe(0);
    expect(readFileSync(join(control, 'conffiles'), 'utf8')).toBe('/etc/voice-alert/config.toml\n');
  });

  it('dpkg-deb --contents: exactly the binary, the unit, the config, the docs, with their modes, owned by root', () => {
    const listing = run('dpkg-deb', ['--contents', DEB]).stdout.trim().split('\n');
    const files = listing.map((l) => l.split(/\s+/)).filter((f) => !f[0]!.startsWith('d')).map((f) => [f[0], f[1], f[5]]);
    expect(files.sort((a, b) => a[2]!.localeCompare(b[2]!))).toEqual([...FILES].sort((a, b) => a[2]!.localeCompare(b[2]!)));
    expect(listing.filter((l) => l.startsWith('d')).every((l) => l.startsWith('drwxr-xr-x root/root'))).toBe(true);
  });

  it('lintian: no errors (warnings only: no man page, systemctl in maintainer scripts, Bun binary not PIE/RELRO)', () => {
    const r = run('lintian', ['--tag-display-limit', '0', DEB]);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('E:'))).toEqual([]);
    expect(r.status).toBe(0);
  }, 120_000);

  it('unpacked into a throwaway root: files in place with their modes, the conffile registered, the binary runs, the unit names /usr/bin', () => {
    const root = mkdtempSync(join(tmpdir(), 'va-deb-root-'));
    for (const d of ['info', 'updates']) mkdirSync(join(root, 'var/lib/dpkg', d), { recursive: true });
    writeFileSync(join(root, 'var/lib/dpkg/status'), '');
    // --unpack runs no maintainer script (postinst is tested below); the conffile stays
    // `.dpkg-new` until configure, which would run postinst inside the root.
    const unpack = run('dpkg', ['--root', root, '--force-depends', '--force-not-root', '--unpack', DEB]);
    expect(unpack.status).toBe(0);
    const mode = (p: string) => (statSync(join(root, p)).mode & 0o7777).toString(8);
    expect(mode('usr/bin/voice-alert')).toBe('755');
    expect(mode('lib/systemd/system/voice-alert.service')).toBe('644');
    expect(mode('etc/voice-alert/config.toml.dpkg-new')).toBe('644');
    expect(mode('usr/share/doc/voice-alert/copyright')).toBe('644');
    const query = run('dpkg-query', ['--admindir', join(root, 'var/lib/dpkg'), '-W', '-f', '${Status}|${Conffiles}', 'voice-alert']);
    expect(query.stdout).toBe('install ok unpacked| /etc/voice-alert/config.toml newconffile');
    // The example with one line changed: the database is the service's, wherever the CLI runs (issue 49).
    const packaged = join(root, 'etc/voice-alert/config.toml.dpkg-new');
    const example = readFileSync(join(ROOT, 'assets/config.example.toml'), 'utf8');
    expect(readFileSync(packaged, 'utf8')).toBe(example.replace(/^path = "\.\/data\/voice-alert\.db"$/m, 'path = "/var/lib/voice-alert/voice-alert.db"'));
    expect(readFileSync(packaged, 'utf8')).not.toBe(example);
    // The packaged binary reads it so, from any folder: store.path is that absolute path.
    const checked = spawnSync(join(root, 'usr/bin/voice-alert'), ['--config', packaged, 'config', 'check'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(checked.status).toBe(0);
    expect(JSON.parse(checked.stdout).store.path).toBe('/var/lib/voice-alert/voice-alert.db');
    const unit = readFileSync(join(root, 'lib/systemd/system/voice-alert.service'), 'utf8').split('\n');
    expect(unit).toContain('ExecStart=/usr/bin/voice-alert serve');
    expect(unit).toContain('User=voice-alert');
    expect(run(join(root, 'usr/bin/voice-alert'), ['version']).stdout).toBe(`voice-alert ${VERSION}\n`);
  });

  it('postinst makes the system user and gives the config to its group; prerm stops the service (stubbed commands record what ran)', () => {
    const control = mkdtempSync(join(tmpdir(), 'va-deb-scripts-'));
    expect(run('dpkg-deb', ['--control', DEB, control]).status).toBe(0);
    const bin = join(control, 'stub-bin');
    const log = join(control, 'ran.log');
    mkdirSync(bin);
    // getent: no such user yet; dpkg-statoverride: no override; every other command records its arguments.
    const stubs: Record<string, string> = { getent: 'exit 2', 'dpkg-statoverride': 'exit 1' };
    for (const cmd of ['adduser', 'chown', 'chmod', 'systemctl', 'getent', 'dpkg-statoverride']) {
      writeFileSync(join(bin, cmd), `#!/bin/sh\necho "${cmd} $*" >>"${log}"\n${stubs[cmd] ?? 'exit 0'}\n`);
      chmodSync(join(bin, cmd), 0o755);
    }
    // DPKG_ROOT (set by dpkg) points the scripts' path checks at a root of our own: one with systemd running, one without.
    const withSystemd = mkdtempSync(join(tmpdir(), 'va-deb-systemd-'));
    mkdirSync(join(withSystemd, 'run/systemd/system'), { recursive: true });
    const withoutSystemd = mkdtempSync(join(tmpdir(), 'va-deb-nosystemd-'));
    const sh = (dpkgRoot: string, script: string, ...args: string[]) => {
      writeFileSync(log, '');
      expect(run('/bin/sh', [join(control, script), ...args], { PATH: bin, DPKG_ROOT: dpkgRoot }).status).toBe(0);
      return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
    };
    const install = (dpkgRoot: string) => [
      'getent passwd voice-alert',
      'adduser --system --group --quiet --home /var/lib/voice-alert --no-create-home --shell /usr/sbin/nologin --gecos voice-alert appliance voice-alert',
      'dpkg-statoverride --list /etc/voice-alert/config.toml',
      `chown root:voice-alert ${dpkgRoot}/etc/voice-alert/config.toml`,
      `chmod 0640 ${dpkgRoot}/etc/voice-alert/config.toml`,
    ];
    expect(sh(withSystemd, 'postinst', 'configure', '')).toEqual([...install(withSystemd), 'systemctl daemon-reload']);
    // No systemd (a container, a chroot): nothing asked of systemctl.
    expect(sh(withoutSystemd, 'postinst', 'configure', '')).toEqual(install(withoutSystemd));
    // An upgrade restarts a running service on the new binary.
    expect(sh(withSystemd, 'postinst', 'configure', '0.0.9')).toEqual([...install(withSystemd), 'systemctl daemon-reload', 'systemctl try-restart voice-alert.service']);
    expect(sh(withSystemd, 'prerm', 'remove')).toEqual(['systemctl stop voice-alert.service']);
    expect(sh(withSystemd, 'prerm', 'upgrade', '0.2.0')).toEqual([]);
    expect(sh(withoutSystemd, 'prerm', 'remove')).toEqual([]);
    expect(sh(withSystemd, 'postrm', 'remove')).toEqual(['systemctl daemon-reload']);
    for (const script of ['postinst', 'prerm', 'postrm']) expect(run('/bin/sh', ['-n', join(control, script)]).status).toBe(0);
  });
});
