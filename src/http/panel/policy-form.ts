import type { PolicyInput } from '../../escalation';
import { namesPerson } from '../../people';
import type { PolicyStep } from '../../store';

/**
 * Steps as the panel edits them: one line per step, in calling order,
 * `numbers separated by commas : wait in seconds` (e.g. `0532 111 11 11, 5322222222 : 300`);
 * `@name` is an on-call schedule (`@noc, 5322222222 : 300`), `+name` a person (docs/on-call.md
 * "People"; steps keep their id, shown here as the id too so that a save keeps the same person).
 * Reordering steps is moving lines; no script needed (the panel's CSP allows none).
 */
export function stepsToText(steps: PolicyStep[]): string {
  return steps.map((s) => `${[...(s.people ?? []).map((id) => `+${id}`), ...(s.schedules ?? []).map((n) => `@${n}`), ...s.numbers].join(', ')} : ${s.wait_s}`).join('\n');
}

/** The form's fields as the service's input; the service validates (numbers, waits, counts). */
export function policyFromForm(form: Record<string, string | undefined>): PolicyInput {
  const steps = (form.steps ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [numbers, wait] = line.split(':');
      const waitS = wait === undefined || wait.trim() === '' ? undefined : Number(wait.trim());
      const targets = (numbers ?? '').split(',').map((n) => n.trim()).filter(Boolean);
      // `@noc`: an on-call schedule (docs/on-call.md "On-call schedules").
      const schedules = targets.filter((n) => n.startsWith('@')).map((n) => n.slice(1));
      // `+Ayşe`: a person (docs/on-call.md "People"), by name or id.
      const people = targets.filter(namesPerson).map((n) => n.slice(1).trim());
      return {
        numbers: targets.filter((n) => !n.startsWith('@') && !namesPerson(n)),
        ...(people.length ? { people } : {}),
        ...(schedules.length ? { schedules } : {}),
        ...(waitS === undefined ? {} : { wait_s: waitS }),
      };
    });
  const rounds = form.rounds?.trim() ? Number(form.rounds) : undefined;
  return { name: form.name ?? '', steps, ...(rounds === undefined ? {} : { rounds }) };
}
