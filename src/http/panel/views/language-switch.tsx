import type { Messages } from '../i18n';

/** Türkçe / English in the top bar; each name in its own language, the current one marked. */
export function LanguageSwitch({ t }: { t: Messages }) {
  const current = t.locale.slice(0, 2);
  return (
    <span class="lang" data-testid="language-switch">
      {[
        ['tr', 'Türkçe'],
        ['en', 'English'],
      ].map(([code, name]) => (
        <a href={`/panel/language/${code}`} hreflang={code} lang={code} aria-current={code === current ? 'true' : undefined}>
          {name}
        </a>
      ))}
    </span>
  );
}

/** A bell in the panel's accent colour, as a data: URL (the CSP allows `img-src data:`), so no extra route. */
export const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%23b3261e'/%3E%3Cpath d='M16 6a7 7 0 0 0-7 7v5l-2 3v1h18v-1l-2-3v-5a7 7 0 0 0-7-7zm-3 17a3 3 0 0 0 6 0z' fill='%23fff'/%3E%3C/svg%3E";
