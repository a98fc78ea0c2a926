import type { SelfTestRecord, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { overviewWords } from '../i18n/overview-words';
import { selfTestWords } from '../i18n/self-test-words';
import { Layout } from './layout';
import type { SecondPathStatus } from '../../../second-path';
import { Notice, PostButton } from './parts';
import { SecondPathCard } from './second-path-card';

export interface TrunkRow {
  name: string;
  server: string;
  /** up / down / none; null: telephony does not run in this process. */
  state: string | null;
  lastProbe: string | null;
}

export interface TrunksLiveProps {
  t: Messages;
  fmt: Formatter;
  csrf: string;
  trunks: TrunkRow[];
  /** Each trunk's newest self-test, by trunk name. */
  latest: Record<string, SelfTestRecord>;
  /** The trunks a run may be asked for (empty: self-tests are off). */
  testable: string[];
}

/** The table, also served alone every 2 s (htmx) so a run asked for shows its result. */
export function TrunksLive(p: TrunksLiveProps) {
  const { t, fmt, csrf } = p;
  const w = selfTestWords(t);
  const ow = overviewWords(t);
  return (
    <div id="trunks-live" hx-get="/panel/trunks/live" hx-trigger="every 2s" hx-swap="outerHTML">
      <div class="table-wrap">
        <table class="stack" data-testid="trunks">
          <thead>
            <tr>
              <th scope="col">{w.trunk}</th>
              <th scope="col">{w.server}</th>
              <th scope="col">{w.state}</th>
              <th scope="col">{w.lastProbe}</th>
              <th scope="col">{w.lastSelfTest}</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            {p.trunks.map((tr) => {
              const r = p.latest[tr.name];
              return (
                <tr data-trunk={tr.name}>
                  <td data-label={w.trunk} safe>
                    {tr.name}
                  </td>
                  <td data-label={w.server} safe>
                    {tr.server}
                  </td>
                  <td data-label={w.state}>
                    {tr.state === null ? (
                      ow.trunkStates.unknown
                    ) : (
                      <span class={`badge ${tr.state === 'up' ? 'ok' : tr.state === 'down' ? 'bad' : 'wait'}`} data-state={tr.state}>
                        {ow.eachTrunkStates[tr.state] ?? tr.state}
                      </span>
                    )}
                  </td>
                  <td data-label={w.lastProbe} safe>
                    {tr.lastProbe ?? '—'}
                  </td>
                  <td data-label={w.lastSelfTest} data-testid={`last-self-test-${tr.name}`} data-self-test={r?.id ?? ''}>
                    {r ? (
                      <>
                        <span class={`badge ${r.ok ? 'ok' : 'bad'}`} data-state={r.ok ? 'passed' : 'failed'}>
                          {r.ok ? w.passed : w.failed}
                        </span>{' '}
                        <span safe>{`${fill(w.at, { t: fmt.dateTime(r.finishedAt) })} · ${r.reason}`}</span>
                      </>
                    ) : (
                      w.never
                    )}
                  </td>
                  <td>
                    {p.testable.includes(tr.name) ? (
                      <PostButton action={`/panel/trunks/${encodeURIComponent(tr.name)}/self-test`} csrf={csrf} label={w.run} kind="secondary" />
                    ) : (
                      ''
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * Administrator: every trunk, its state and newest self-test, "run self-test now" (docs/telephony.md
 * "Voice-path self-test"); below, the second path that carries texts when no call gets out
 * (docs/second-path.md "Operations").
 */
export function TrunksPage(p: TrunksLiveProps & { user: PanelUser; notice?: string; error?: string; running: boolean; secondPath: SecondPathStatus | null }) {
  const w = selfTestWords(p.t);
  return (
    <Layout t={p.t} title={w.trunksTitle} user={p.user} csrf={p.csrf} active="trunks">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      <p>{w.trunksIntro}</p>
      {p.trunks.length === 0 ? <p>{w.none}</p> : ''}
      {p.trunks.length > 0 && p.testable.length === 0 ? <p class="hint">{w.off}</p> : ''}
      {p.trunks.length > 0 && !p.running ? <p class="hint">{w.notRunning}</p> : ''}
      {p.trunks.length > 0 ? <TrunksLive {...p} /> : ''}
      <SecondPathCard t={p.t} status={p.secondPath} />
    </Layout>
  );
}
