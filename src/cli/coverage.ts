import { Command } from 'commander';
import { coverageJson, iso } from '../outward';
import { COVERAGE_DAYS, MAX_COVERAGE_DAYS, coverageDays, type ScheduleCoverageRead } from '../schedules';
import type { PersonPhone } from '../store';
import { print, withServices } from './context';
import { requireAccount, UsageError } from './refusal';
import { part, row } from './text';

/** A length for people: `25h`, `1h 30m`, `45m`. */
export function hoursMinutes(ms: number): string {
  const min = Math.round(ms / 60_000);
  const h = Math.floor(min / 60);
  const m = min % 60;
  return h === 0 ? `${m}m` : m === 0 ? `${h}h` : `${h}h ${m}m`;
}

const phones = (list: readonly PersonPhone[]) => list.map((p) => `${p.number} ${p.verifiedAt === null ? 'not verified' : 'verified'}`).join(', ') || 'no phone';

/** One schedule: its line (id first), then a part per shift, gap and unverified person. */
const human = (s: ScheduleCoverageRead) =>
  [
    row(s.schedule.id, s.schedule.name, s.schedule.timeZone, `${s.gaps.length} gap(s) ${hoursMinutes(s.gapMs)}`, `${s.unverified.length} unverified`),
    ...s.shifts.map((x) => part('shift', iso(x.start), iso(x.end), x.name, x.person === null ? `${x.number} (a number, not a person)` : phones(x.phones))),
    ...s.gaps.map((g) => part('gap', iso(g.start), iso(g.end), hoursMinutes(g.end - g.start))),
    ...s.unverified.map((u) => part('unverified', u.name, u.person, `on call from ${iso(u.from)}`, phones(u.phones))),
  ].join('\n');

const days = (v: string): number => {
  const n = coverageDays(v);
  if (n === null) throw new UsageError(`--days must be a whole number from 1 to ${MAX_COVERAGE_DAYS}, got "${v}"`);
  return n;
};

/** `coverage`: who is on call over the next days, the gaps, and who has no verified phone (docs/on-call.md "Coverage"). */
export function coverageCommand(): Command {
  return new Command('coverage')
    .description("each schedule's shifts over the next days with every phone's verification, the gaps with nobody on call, and the people on call with no verified phone")
    .argument('<account>', 'account id (acc_…)')
    .option('--days <n>', `how many days ahead, 1 to ${MAX_COVERAGE_DAYS} (default ${COVERAGE_DAYS})`, days)
    .option('--json', 'print JSON')
    .action((accountId: string, opts: { days?: number; json?: boolean }, c: Command) =>
      withServices(c, async ({ schedules }, store) => {
        await requireAccount(store, accountId);
        const n = opts.days ?? COVERAGE_DAYS;
        const cov = await schedules.coverage(accountId, n);
        // An account with no schedule prints nothing as text (an empty list), `"schedules": []` as JSON.
        if (opts.json !== true && cov.schedules.length === 0) return;
        print(opts.json === true, coverageJson(accountId, cov, n), () => cov.schedules.map(human).join('\n'));
      }),
    );
}
