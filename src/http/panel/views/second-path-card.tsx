import type { SecondPathStatus } from '../../../second-path';
import type { Messages } from '../i18n';
import { secondPathWords } from '../i18n/second-path-words';

/**
 * The second path as /healthz checks.sms sees it (docs/second-path.md "Operations"): how texts
 * go, each modem's state, SIM, registration, signal and last error, and whether e-mail can go.
 * `status` null: this process runs no second path (the panel served alone).
 */
export function SecondPathCard({ t, status }: { t: Messages; status: SecondPathStatus | null }) {
  const w = secondPathWords(t);
  if (status === null) {
    return (
      <section data-testid="second-path">
        <h2>{w.title}</h2>
        <p class="hint">{w.notRunning}</p>
      </section>
    );
  }
  const badge = (state: string) => (state === 'ready' ? 'ok' : state === 'failed' || state === 'lost' ? 'bad' : 'wait');
  return (
    <section data-testid="second-path" data-via={status.via} data-state={status.state}>
      <h2>{w.title}</h2>
      <p>{w.intro}</p>
      <p>{status.via === 'sip' ? w.viaSip : status.modems.length === 0 ? w.noModem : w.viaModem}</p>
      {status.modems.length > 0 ? (
        <div class="table-wrap">
          <table class="stack" data-testid="modems">
            <thead>
              <tr>
                <th scope="col">{w.modem}</th>
                <th scope="col">{w.device}</th>
                <th scope="col">{w.state}</th>
                <th scope="col">{w.sim}</th>
                <th scope="col">{w.registration}</th>
                <th scope="col">{w.signal}</th>
                <th scope="col">{w.lastError}</th>
              </tr>
            </thead>
            <tbody>
              {status.modems.map((m) => (
                <tr data-modem={m.name}>
                  <td data-label={w.modem} safe>
                    {m.name}
                  </td>
                  <td data-label={w.device} safe>
                    {m.device}
                  </td>
                  <td data-label={w.state}>
                    <span class={`badge ${badge(m.state)}`} data-state={m.state} safe>
                      {m.state}
                    </span>
                  </td>
                  <td data-label={w.sim} safe>
                    {m.sim ?? '—'}
                  </td>
                  <td data-label={w.registration} safe>
                    {m.registration?.text ?? '—'}
                  </td>
                  <td data-label={w.signal} safe>
                    {m.signal?.dbm === null || m.signal === null ? '—' : `${m.signal.dbm} dBm`}
                  </td>
                  <td data-label={w.lastError} safe>
                    {m.lastError ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        ''
      )}
      <p>{status.email === 'configured' ? w.emailConfigured : w.emailNone}</p>
    </section>
  );
}
