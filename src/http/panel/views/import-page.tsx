import type { ImportCheck, ImportPlan, PlannedObject } from '../../../importers';
import type { Account, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { importWords, type ImportWords } from '../i18n/import-words';
import { Layout } from './layout';

export interface ImportRunView {
  source: string;
  appliedAt: number | null;
  plan: ImportPlan | null | 'unreadable';
  checkedAt: number | null;
  check: ImportCheck | null | 'unreadable';
}

export interface ImportPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  runs: ImportRunView[];
}

const ACTIONS = ['create', 'update', 'unchanged', 'skip'] as const;

/**
 * What was imported into the account (docs/panel.md "Import"; issue 47 §3, "the panel shows the
 * last import's plan and check"): per source, the last plan `import … --apply` wrote, every object
 * with its action and why, the integrations' URLs, and the last `--check`. Read-only: the import
 * needs the source's key, which stays on the command line.
 */
export function ImportPage(p: ImportPageProps) {
  const { t } = p;
  const w = importWords(t);
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={p.csrf} account={p.account} active="import">
      <p>{w.intro}</p>
      <pre>
        <code safe>{`OPSGENIE_API_KEY=… voice-alert import opsgenie ${p.account.id} --apply\nOPSGENIE_API_KEY=… voice-alert import opsgenie ${p.account.id} --check`}</code>
      </pre>
      {p.runs.length === 0 ? <p data-testid="no-import">{w.none}</p> : p.runs.map((r) => <SourceRun w={w} fmt={p.fmt} run={r} />)}
    </Layout>
  );
}

function SourceRun({ w, fmt, run }: { w: ImportWords; fmt: Formatter; run: ImportRunView }) {
  const name = w.sources[run.source] ?? run.source;
  return (
    <section class="card" data-import-source={run.source} aria-labelledby={`import-${run.source}`}>
      <h2 id={`import-${run.source}`} safe>
        {name}
      </h2>
      <h3>{`${w.applied}: ${fmt.dateTime(run.appliedAt)}`}</h3>
      {run.plan === null ? <p>{w.neverApplied}</p> : run.plan === 'unreadable' ? <p>{w.unreadable}</p> : <Plan w={w} plan={run.plan} />}
      <h3>{`${w.check}: ${fmt.dateTime(run.checkedAt)}`}</h3>
      {run.check === null ? <p>{w.neverChecked}</p> : run.check === 'unreadable' ? <p>{w.unreadable}</p> : <Check w={w} fmt={fmt} check={run.check} />}
    </section>
  );
}

function Plan({ w, plan }: { w: ImportWords; plan: ImportPlan }) {
  const counts = ACTIONS.map((a) => [a, plan.objects.filter((o) => o.action === a).length] as const).filter(([, n]) => n > 0);
  return (
    <>
      <p data-testid="import-summary" safe>
        {`${w.summary}: ${counts.map(([a, n]) => `${w.actions[a] ?? a} ${n}`).join(', ') || '—'}`}
      </p>
      <div class="table-wrap">
        <table class="stack" data-testid="import-plan">
          <thead>
            <tr>
              <th scope="col">{w.action}</th>
              <th scope="col">{w.kind}</th>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.why}</th>
            </tr>
          </thead>
          <tbody>
            {plan.objects.map((o) => (
              <tr data-action={o.action} data-kind={o.kind}>
                <td data-label={w.action}>
                  <span class={`badge ${o.action === 'skip' ? 'bad' : o.action === 'unchanged' ? 'done' : 'ok'}`} safe>
                    {w.actions[o.action] ?? o.action}
                  </span>
                </td>
                <td data-label={w.kind} safe>
                  {o.kind}
                </td>
                <td data-label={w.name} safe>
                  {'of' in o ? `${o.name} (${fill(w.of, { of: o.of })})` : o.name}
                </td>
                <td data-label={w.why} safe>
                  {whyOf(o) || '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {plan.integrations.length ? (
        <>
          <h4>{w.integrations}</h4>
          <ul data-testid="import-integrations">
            {plan.integrations.map((i) => (
              <li safe>{`${i.name} (${i.type}): ${i.url ?? fill(w.notTaken, { why: i.why ?? '' })}`}</li>
            ))}
          </ul>
        </>
      ) : (
        ''
      )}
    </>
  );
}

/** A skip's reason and an object's notes (what is not exact, never silently). */
const whyOf = (o: PlannedObject) => [o.why, ...(o.notes ?? [])].filter(Boolean).join('; ');

function Check({ w, fmt, check }: { w: ImportWords; fmt: Formatter; check: ImportCheck }) {
  const at = (iso: string) => fmt.dateTime(Date.parse(iso));
  return (
    <>
      <p safe>{fill(w.checkRange, { from: at(check.from), to: at(check.to) })}</p>
      <ul data-testid="import-check">
        {check.schedules.map((s) => (
          <li data-schedule={s.schedule} data-agrees={s.why === undefined && s.disagreements.length === 0 ? 'true' : 'false'}>
            <strong safe>{s.schedule}</strong>
            <span safe>{`: ${s.why ?? (s.disagreements.length === 0 ? w.agrees : fill(w.disagreements, { n: s.disagreements.length }))}`}</span>
            {s.disagreements.length ? (
              <ul>
                {s.disagreements.map((d) => (
                  <li safe>{`${at(d.from)} – ${at(d.to)}: ${w.theirs} ${d.theirs ?? w.nobody}, ${w.ours} ${d.ours ?? w.nobody}`}</li>
                ))}
              </ul>
            ) : (
              ''
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
