import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applianceDir } from '../helpers/appliance';

/** Issue 49 §3 "The first hour": what a new operator sees and types, run as printed. */
describe('the first hour (docs/operations.md "First start")', () => {
  it('serve names the panel URL and the command that makes the first administrator, which works as printed', async () => {
    const dir = applianceDir();
    const app = await dir.start();
    await app.stop();
    const printed = app.output();
    expect(printed).toContain(`Panel: ${app.url}/panel`);
    const command = /^ {2}(.+ admin create --username admin --password-stdin)$/m.exec(printed)?.[1];
    expect(command).toContain(`--config ${dir.configPath}`);
    // Run from another folder, through a shell, exactly as printed: it must reach the same database.
    const r = spawnSync('sh', ['-c', command!], { cwd: '/', input: 'a long enough password\n', encoding: 'utf8' });
    expect(r.stderr + r.stdout).toContain('created administrator admin');
    expect(r.status).toBe(0);
    const again = await dir.start();
    await again.stop();
    expect(again.output()).not.toContain('No administrator yet');
  });
});
