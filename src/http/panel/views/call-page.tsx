import type { Account, CallEvent, CallRecord, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { Layout } from './layout';
import { TestCallStatus } from './test-call-page';

export interface CallPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  call: CallRecord;
  events: CallEvent[];
}

/**
 * Any call of the account on its own page (the target of the alert and `bundled_into`
 * links): the same live status block as a test call, polling until the call is final.
 */
export function CallPage(p: CallPageProps) {
  const { t } = p;
  return (
    <Layout t={t} title={fill(t.testCallState, { id: p.call.id })} user={p.user} csrf={p.csrf} account={p.account} active="calls">
      <TestCallStatus t={t} fmt={p.fmt} accountId={p.account.id} call={p.call} events={p.events} />
      <p>
        <a href={`/panel/a/${p.account.id}/calls`}>{`← ${t.callsTitle}`}</a>
      </p>
    </Layout>
  );
}
