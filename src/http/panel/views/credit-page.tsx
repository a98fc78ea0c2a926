import type { Account, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import type { DayUsage } from '../usage-days';
import { Layout } from './layout';
import { UsageChart } from './usage-chart';

export interface CreditPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  period: string;
  used: number;
  resetAt: number;
  days: DayUsage[];
}

export function CreditPage(p: CreditPageProps) {
  const { t, account } = p;
  const remaining = Math.max(0, account.monthlyCredit - p.used);
  return (
    <Layout t={t} title={t.creditTitle} user={p.user} csrf={p.csrf} account={account} active="credit">
      <dl class="stats">
        <div>
          <dt>{t.period}</dt>
          <dd>{p.period}</dd>
        </div>
        <div>
          <dt>{t.monthlyCredit}</dt>
          <dd data-testid="credit-monthly">{String(account.monthlyCredit)}</dd>
        </div>
        <div>
          <dt>{t.used}</dt>
          <dd data-testid="credit-used">{String(p.used)}</dd>
        </div>
        <div>
          <dt>{t.remaining}</dt>
          <dd data-testid="credit-remaining">{String(remaining)}</dd>
        </div>
        <div>
          <dt>{t.resetsAt}</dt>
          <dd data-testid="credit-reset">{p.fmt.dateTime(p.resetAt)}</dd>
        </div>
      </dl>
      <h2 id="usage-title">{t.usagePerDay}</h2>
      <UsageChart days={p.days} label={fill(t.usageChartLabel, { period: p.period })} />
      <details>
        <summary>{t.showNumbers}</summary>
        <table>
          <caption class="visually-hidden">{t.usagePerDay}</caption>
          <thead>
            <tr>
              <th scope="col">{t.day}</th>
              <th scope="col" class="num">
                {t.calls}
              </th>
            </tr>
          </thead>
          <tbody>
            {p.days.map((d) => (
              <tr>
                <td>{d.day}</td>
                <td class="num">{String(d.calls)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </Layout>
  );
}
