/**
 * In-process tests hash panel passwords and voice-desk PINs with argon2id at a small cost
 * (64 KiB, one pass: about 1 ms) instead of the production cost (src/panel/passwords.ts: 64 MiB,
 * two passes, about 110 ms a hash and as much a check on the 2-core machine). A panel test
 * makes and logs in two or three users, so at the production cost most of its time was argon2
 * (src/http/panel/panel-alerts.test.ts: 7.7 s of its 8.8 s). A hash carries its own cost (the PHC
 * string: `$argon2id$v=19$m=64,t=1,p=1$…`), so a check of a cheap hash is as cheap and logins
 * work as before. What is still argon2id at the production cost:
 * - the binary's suites (test/), whose processes never load this file;
 * - src/panel/passwords.test.ts, which asserts the production cost through `atProductionCost`.
 * Installed once per worker (test-file-setup.ts runs for every file of a worker that shares its
 * modules, vitest.config.ts UNIT_FILES_SHARE_MODULES).
 */
const CHEAP = { algorithm: 'argon2id', memoryCost: 64, timeCost: 1 } as const;
type Hash = typeof Bun.password.hash;
// Kept on Bun.password itself, not in this module: an isolated file loads this module afresh,
// while Bun.password (and the wrapper installed on it) is the worker's.
const STATE = Symbol.for('voice-alert.test.password-hash-cost');
const holder = Bun.password as typeof Bun.password & { [STATE]?: { productionCost: boolean } };

export function cheapenPasswordHashing(): void {
  if (holder[STATE]) return;
  const state = (holder[STATE] = { productionCost: false });
  const real = Bun.password.hash.bind(Bun.password);
  holder.hash = ((password, algorithm) => {
    const argon2id = typeof algorithm === 'object' && algorithm.algorithm === 'argon2id';
    return real(password, argon2id && !state.productionCost ? CHEAP : algorithm);
  }) as Hash;
}

/** Runs `work` with argon2id at the cost the code asks for (one test at a time in a worker). */
export async function atProductionCost<T>(work: () => Promise<T>): Promise<T> {
  cheapenPasswordHashing();
  const state = holder[STATE]!;
  state.productionCost = true;
  try {
    return await work();
  } finally {
    state.productionCost = false;
  }
}
