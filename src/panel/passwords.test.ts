import { describe, expect, test } from 'vitest';
import { atProductionCost } from '../../test/helpers/cheap-password-hash';
import { hashPin } from '../voice-desk/pin';
import { hashPassword, verifyPassword } from './passwords';

// The other in-process tests hash at a small cost (test/helpers/cheap-password-hash.ts); these
// assert the cost the appliance really uses, as the PHC string records it.
describe('password hashing cost', () => {
  test('a panel password: argon2id at 64 MiB, two passes (Bun.password\'s defaults), and it verifies', async () => {
    const hash = await atProductionCost(() => hashPassword('a-long-password-1'));
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,p=1\$/);
    expect(await verifyPassword('a-long-password-1', hash)).toBe(true);
    expect(await verifyPassword('a-long-password-2', hash)).toBe(false);
  });

  test('a voice-desk PIN: argon2id at 19 MiB, two passes', async () => {
    expect(await atProductionCost(() => hashPin('48291375'))).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
