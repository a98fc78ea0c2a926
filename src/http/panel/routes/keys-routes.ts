import { Elysia } from 'elysia';
import type { PanelCtx, PanelEnv } from '../env';
import { baseUrlFor, buildExamples } from '../examples';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill } from '../i18n';
import { confirmed, confirmPage } from '../views/confirm-page';
import { KeysPage, type KeysPageProps } from '../views/keys-page';

/** API keys of one account: create (shown once), revoke, rotate the webhook key, signature flag. */
export function keysRoutes(env: PanelEnv) {
  const { config } = env.deps;
  const render = async (c: PanelCtx, status: number, extra: Partial<KeysPageProps> = {}) => {
    const credentials = (await env.services.panelReads.keys(c.account.id)).reverse();
    const apiKey = extra.issued?.apiKey ?? extra.rotated?.apiKey ?? credentials.find((k) => k.revokedAt === null)?.apiKey ?? '$API_KEY';
    const examples = buildExamples({
      baseUrl: baseUrlFor(c.request, config.panel.public_url, config.http.trust_proxy),
      apiKey,
      apiSecret: extra.issued?.apiSecret,
      webhookKey: extra.issued?.webhookKey ?? extra.rotated?.webhookKey,
    });
    return htmlResponse(
      KeysPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, credentials, examples, ...extra }),
      status,
    );
  };
  const keys = env.services.credentials;
  // The account in the path scopes the key: another account's key is not found (the service checks).
  const ref = (c: PanelCtx) => ({ apiKey: c.params.apiKey ?? '', accountId: c.account.id });
  const notFound = (c: PanelCtx) => render(c, 404, { error: c.t.notFound });
  const path = '/panel/a/:accountId/keys';
  // The first POST of a destructive action asks, saying what will break; the second (confirm=1) acts.
  const ask = (c: PanelCtx, action: 'revoke' | 'rotate', consequences: string) =>
    confirmPage({
      t: c.t,
      user: c.user,
      csrf: c.csrf,
      consequences,
      action: `/panel/a/${c.account.id}/keys/${encodeURIComponent(c.params.apiKey ?? '')}/${action}`,
      cancelHref: `/panel/a/${c.account.id}/keys`,
    });
  const known = async (c: PanelCtx) => {
    return (await env.services.panelReads.keyInAccount(c.account.id, c.params.apiKey ?? '')) !== null;
  };

  return new Elysia({ name: 'panel-keys' })
    .get(
      path,
      guarded(env, { account: true }, (c) => render(c, 200, { notice: c.query.ok !== undefined ? c.t.keysUpdated : undefined })),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const r = await keys.create(c.account.id, { requireSignature: c.form.require_signature === '1' });
        if (!r.ok) return notFound(c);
        return render(c, 200, { issued: r.issued });
      }),
    )
    .post(
      `${path}/:apiKey/revoke`,
      guarded(env, { account: true }, async (c) => {
        if (!confirmed(c.form)) return (await known(c)) ? ask(c, 'revoke', fill(c.t.confirmRevoke, { key: c.params.apiKey! })) : notFound(c);
        const r = await keys.revoke(ref(c));
        if (!r.ok) return notFound(c);
        return redirect(`/panel/a/${c.account.id}/keys?ok`);
      }),
    )
    .post(
      `${path}/:apiKey/signature`,
      guarded(env, { account: true }, async (c) => {
        const r = await keys.setRequireSignature(ref(c), c.form.required === '1');
        if (!r.ok) return notFound(c);
        return redirect(`/panel/a/${c.account.id}/keys?ok`);
      }),
    )
    .post(
      `${path}/:apiKey/rotate`,
      guarded(env, { account: true }, async (c) => {
        if (!confirmed(c.form)) return (await known(c)) ? ask(c, 'rotate', fill(c.t.confirmRotate, { key: c.params.apiKey! })) : notFound(c);
        const r = await keys.rotateWebhookKey(ref(c));
        if (!r.ok) return notFound(c);
        return render(c, 200, { rotated: { apiKey: c.params.apiKey!, webhookKey: r.webhookKey } });
      }),
    );
}
