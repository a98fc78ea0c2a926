import type { Account, Credential, IssuedCredential, PanelUser } from '../../../store';
import type { Examples } from '../examples';
import { fill, type Messages } from '../i18n';
import type { Formatter } from '../format';
import { Layout } from './layout';
import { CopyBlock, CopyValue, CsrfField, Notice, PostButton } from './parts';

export interface KeysPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  credentials: Credential[];
  /** Just created: the only time the secret and webhook key are shown. */
  issued?: IssuedCredential;
  /** Just rotated: the new webhook key, shown once. */
  rotated?: { apiKey: string; webhookKey: string };
  examples: Examples;
  notice?: string;
  error?: string;
}

function ExampleBlocks({ t, examples }: { t: Messages; examples: Examples }) {
  return (
    <>
      <CopyBlock t={t} id="example-webhook-url" label={t.webhookUrl} text={examples.webhookUrl} />
      <CopyBlock t={t} id="example-curl-api" label={t.curlApi} text={examples.curlApi} />
      <CopyBlock t={t} id="example-curl-webhook" label={t.curlWebhook} text={examples.curlWebhook} />
      <CopyBlock t={t} id="example-signed" label={t.signedExample} text={examples.signedScript} />
      {examples.signedCheck ? (
        <p>
          {fill(t.signedCheck, { ts: examples.signedCheck.timestamp })} <code safe>{examples.signedCheck.signature}</code>
        </p>
      ) : (
        ''
      )}
    </>
  );
}

export function KeysPage(p: KeysPageProps) {
  const { t, fmt, csrf, account } = p;
  const base = `/panel/a/${account.id}/keys`;
  return (
    <Layout t={t} title={t.keysTitle} user={p.user} csrf={csrf} account={account} active="keys">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      {account.plan === 'free' ? <Notice kind="error" text={t.planNoApi} /> : ''}
      {p.issued ? (
        <section class="notice secret" aria-labelledby="issued-title">
          <h2 id="issued-title">{t.shownOnce}</h2>
          <CopyValue t={t} id="issued-api-key" label={t.apiKey} value={p.issued.apiKey} />
          <CopyValue t={t} id="issued-api-secret" label={t.apiSecret} value={p.issued.apiSecret} />
          <CopyValue t={t} id="issued-webhook-key" label={t.webhookKey} value={p.issued.webhookKey} />
        </section>
      ) : (
        ''
      )}
      {p.rotated ? (
        <section class="notice secret" aria-labelledby="rotated-title">
          <h2 id="rotated-title">{t.rotatedOnce}</h2>
          <CopyValue t={t} id="rotated-webhook-key" label={t.webhookKey} value={p.rotated.webhookKey} />
        </section>
      ) : (
        ''
      )}
      {p.issued || p.rotated ? (
        <section class="card" aria-labelledby="examples-title">
          <h2 id="examples-title">{t.examples}</h2>
          <ExampleBlocks t={t} examples={p.examples} />
        </section>
      ) : (
        ''
      )}
      <div class="table-wrap">
        {p.credentials.length === 0 ? (
          <p>{t.noKeys}</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">{t.apiKey}</th>
                <th scope="col">{t.createdAt}</th>
                <th scope="col">{t.requireSignature}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {p.credentials.map((c) => (
                <tr data-api-key={c.apiKey}>
                  <td data-label={t.apiKey}>
                    <code safe>{c.apiKey}</code>
                  </td>
                  <td data-label={t.createdAt}>{fmt.dateTime(c.createdAt)}</td>
                  <td data-label={t.requireSignature}>{c.requireSignature ? t.yes : t.no}</td>
                  <td data-label={t.status}>
                    {c.revokedAt === null ? (
                      <span class="badge ok">{t.active}</span>
                    ) : (
                      <span class="badge bad">{fill(t.revokedAt, { at: fmt.dateTime(c.revokedAt) })}</span>
                    )}
                  </td>
                  <td data-label={t.actions}>
                    {c.revokedAt === null ? (
                      // One flex item beside the label on a phone (stacked rows): the three forms wrap inside it.
                      <div>
                        <PostButton action={`${base}/${c.apiKey}/signature`} csrf={csrf} label={c.requireSignature ? t.signatureOff : t.signatureOn} kind="secondary" hidden={{ required: c.requireSignature ? '0' : '1' }} />
                        <PostButton action={`${base}/${c.apiKey}/rotate`} csrf={csrf} label={t.rotateWebhookKey} kind="secondary" />
                        <PostButton action={`${base}/${c.apiKey}/revoke`} csrf={csrf} label={t.revoke} kind="danger" />
                      </div>
                    ) : (
                      ''
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <section class="card" aria-labelledby="create-keys">
        <h2 id="create-keys">{t.createKeys}</h2>
        <form method="post" action={base}>
          <CsrfField csrf={csrf} />
          <div class="field">
            <label class="check" for="require_signature">
              <input id="require_signature" name="require_signature" type="checkbox" value="1" aria-describedby="require_signature_hint" />
              {t.requireSignature}
            </label>
            <p class="hint" id="require_signature_hint">{t.requireSignatureHint}</p>
          </div>
          <button type="submit">{t.create}</button>
        </form>
      </section>
      {!p.issued && !p.rotated && p.credentials.some((c) => c.revokedAt === null) ? (
        <section class="card" aria-labelledby="examples-title">
          <h2 id="examples-title">{t.examples}</h2>
          <p class="hint">{t.examplesPlaceholderNote}</p>
          <ExampleBlocks t={t} examples={p.examples} />
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}
