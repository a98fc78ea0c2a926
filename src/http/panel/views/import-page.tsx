import type { ImportCheck, ImportPlan, OpsgenieRegion, PlannedObject } from '../../../importers';
import type { Account, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { importWords, type ImportWords } from '../i18n/import-words';
import { Layout } from './layout';
import { CsrfField, Notice } from './parts';

export interface ImportRunView {
  source: string;
  appliedAt: number | null;
  plan: ImportPlan | null | 'unreadable';
  checkedAt: number | null;
  check: ImportCheck | null | 'unreadable';
}

/** The form's choices as typed, shown again: never the key. */
export interface ImportChoices {
  source: string;
  region: OpsgenieRegion;
  apiUrl: string;
}

export interface ImportPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  runs: ImportRunView[];
  /** Administrators may type another API URL (a proxy, a stand-in); owners choose the region. */
  canSetApiUrl: boolean;
  choices?: ImportChoices;
  /** A plan just read (nothing written), with the form that applies it. */
  planned?: ImportPlan;
  notice?: string;
  error?: string;
}

const NO_CHOICES: ImportChoices = { source: 'opsgenie', region: 'us', apiUrl: '' };

const ACTIONS = ['create', 'update', 'unchanged', 'skip'] as const;

/**
 * What was imported into the account (docs/panel.md "Import"; issue 47 §3, "the panel shows the
 * last import's plan and check"): per source, the last plan `import … --apply` wrote, every object
 * with its action and why, the integrations' URLs, and the last `--check`; and the form that runs
 * the same import as the CLI (src/importers/run.ts): Plan (writes nothing), then Apply from the
 * plan shown (the key typed again: the page never carries it), and Check.
 */
export function ImportPage(p: ImportPageProps) {
  const { t } = p;
  const w = importWords(t);
  const base = `/panel/a/${p.account.id}/import`;
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={p.csrf} account={p.account} active="import">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      <p>{w.intro}</p>
      <pre>
        <code safe>{`OPSGENIE_API_KEY=… voice-alert import opsgenie ${p.account.id} --apply\nOPSGENIE_API_KEY=… voice-alert import opsgenie ${p.account.id} --check`}</code>
      </pre>
      {p.planned ? <Planned w={w} csrf={p.csrf} action={base} plan={p.planned} choices={p.choices ?? NO_CHOICES} /> : ''}
      <RunForm w={w} csrf={p.csrf} action={base} choices={p.choices ?? NO_CHOICES} canSetApiUrl={p.canSetApiUrl} />
      {p.runs.length === 0 ? <p data-testid="no-import">{w.none}</p> : p.runs.map((r) => <SourceRun w={w} fmt={p.fmt} run={r} />)}
    </Layout>
  );
}

/** Source, key (a password field, always empty), region or another API URL; Plan or Check. */
function RunForm({ w, csrf, action, choices, canSetApiUrl }: { w: ImportWords; csrf: string; action: string; choices: ImportChoices; canSetApiUrl: boolean }) {
  return (
    <section class="card" aria-labelledby="import-run">
      <h2 id="import-run">{w.runTitle}</h2>
      <form method="post" action={action} data-testid="import-form">
        <CsrfField csrf={csrf} />
        <div class="field">
          <label for="import-source">{w.source}</label>
          <select id="import-source" name="source">
            {Object.entries(w.sources).map(([value, name]) => (
              <option value={value} selected={choices.source === value} safe>
                {name}
              </option>
            ))}
          </select>
        </div>
        <KeyField w={w} id="import-key" />
        <div class="field">
          <label for="import-region">{w.region}</label>
          <select id="import-region" name="region" aria-describedby="import-region-hint">
            {Object.entries(w.regions).map(([value, name]) => (
              <option value={value} selected={choices.region === value} safe>
                {name}
              </option>
            ))}
          </select>
          <p class="hint" id="import-region-hint">
            {w.regionHint}
          </p>
        </div>
        {canSetApiUrl ? (
          <div class="field">
            <label for="import-api-url">{w.apiUrl}</label>
            <input id="import-api-url" type="url" name="api_url" maxlength="300" value={choices.apiUrl} aria-describedby="import-api-url-hint" />
            <p class="hint" id="import-api-url-hint">
              {w.apiUrlHint}
            </p>
          </div>
        ) : (
          ''
        )}
        <p class="hint">{w.runHint}</p>
        <div class="actions">
          <button type="submit" name="do" value="plan">
            {w.planButton}
          </button>
          <button type="submit" name="do" value="check" class="secondary">
            {w.checkButton}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Never given a value: the key is typed for each request and the page never holds it. */
function KeyField({ w, id }: { w: ImportWords; id: string }) {
  return (
    <div class="field">
      <label for={id}>{w.key}</label>
      <input id={id} type="password" name="key" required autocomplete="off" maxlength="500" aria-describedby={`${id}-hint`} />
      <p class="hint" id={`${id}-hint`}>
        {w.keyHint}
      </p>
    </div>
  );
}

/** The plan just read, and Apply: the same choices carried, the key typed again. */
function Planned({ w, csrf, action, plan, choices }: { w: ImportWords; csrf: string; action: string; plan: ImportPlan; choices: ImportChoices }) {
  return (
    <section class="card" data-testid="import-planned" aria-labelledby="import-planned">
      <h2 id="import-planned">{`${w.sources[plan.source] ?? plan.source}: ${w.plannedTitle}`}</h2>
      <p>{w.plannedIntro}</p>
      <Plan w={w} plan={plan} />
      <h3>{w.applyTitle}</h3>
      <p>{w.applyIntro}</p>
      <form method="post" action={action} data-testid="import-apply">
        <CsrfField csrf={csrf} />
        <input type="hidden" name="source" value={choices.source} />
        <input type="hidden" name="region" value={choices.region} />
        {choices.apiUrl ? <input type="hidden" name="api_url" value={choices.apiUrl} /> : ''}
        <KeyField w={w} id="import-apply-key" />
        <button type="submit" name="do" value="apply" class="danger">
          {w.applyButton}
        </button>
      </form>
    </section>
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
