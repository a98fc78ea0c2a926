import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { selfTestWords } from '../i18n/self-test-words';

/** Each trunk's newest voice-path self-test (docs/telephony.md "Voice-path self-test"). */
export interface SelfTestOverviewData {
  trunk: string;
  ok: boolean;
  reason: string;
  finishedAt: number;
}

/** The overview's card: nothing until a self-test ran. */
export function SelfTestOverview({ t, fmt, data }: { t: Messages; fmt: Formatter; data: SelfTestOverviewData[] }) {
  if (data.length === 0) return '';
  const w = selfTestWords(t);
  return (
    <section class="card" aria-labelledby="ov-self-test">
      <h2 id="ov-self-test">{w.title}</h2>
      <dl class="facts" data-testid="self-tests">
        {data.map((r) => (
          <>
            <dt safe>{r.trunk}</dt>
            <dd>
              <span class={`badge ${r.ok ? 'ok' : 'bad'}`} data-testid={`self-test-${r.trunk}`} data-state={r.ok ? 'passed' : 'failed'}>
                {r.ok ? w.passed : w.failed}
              </span>{' '}
              <span safe>{`${fill(w.at, { t: fmt.dateTime(r.finishedAt) })} · ${r.reason}`}</span>
            </dd>
          </>
        ))}
      </dl>
    </section>
  );
}
