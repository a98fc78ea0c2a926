import type { Config } from '../config';
import type { LoopSpec } from '../engine';
import { createMailer, type MailOutcome } from '../email';
import type { Logger } from '../log';
import { metrics } from '../metrics';
import { createModem, type Modem, type ModemStatus } from '../sms';

/**
 * The second path (docs/second-path.md "A second path: SMS and e-mail"): texts through the
 * appliance's GSM modems or as SIP MESSAGE through the trunks (`[sms] via`), e-mail through the
 * LAN relay, and texts coming back. It knows nothing of alerts or people: whoever reaches a
 * person calls sendText/sendEmail, and whoever reads replies subscribes with onText.
 */
export type TextPath = 'modem' | 'sip';

export type TextResult =
  | { ok: true; path: TextPath; via: string; parts: number; failures: string[] }
  | { ok: false; path: TextPath; reason: string; failures: string[] };

/** A text that came in: `via` is the modem's or the trunk's name; `from` the sender's number as the network wrote it. */
export interface IncomingText {
  path: TextPath;
  via: string;
  from: string;
  body: string;
  truncated: boolean;
}

/** What /healthz `checks.sms`, /metrics and the panel show. */
export interface SecondPathStatus {
  via: TextPath;
  /** up: a modem is ready and registered (via sip: the trunks' state decides); down: none is; none: no modem configured. */
  state: 'up' | 'down' | 'none';
  modems: ModemStatus[];
  email: 'configured' | 'none';
}

export interface SecondPath {
  /**
   * Its engine loop, `sms-modems`: begin opens the modems (each one retried on its own until it
   * answers), each tick (sms.status_interval_s) reads their SIM, registration and signal, end
   * closes them.
   */
  loop: LoopSpec;
  /** What the loop's begin and end do (tests without an engine). */
  start(): void;
  stop(): Promise<void>;
  /**
   * One text to `number` by the configured path: via modem, the first ready modem in order (else
   * the first not failed, which waits up to sms.retry_window_s for its line); via sip, the
   * trunks in order. Never rejects; counted in /metrics.
   */
  sendText(number: string, text: string): Promise<TextResult>;
  /** Never rejects; `{ok:false, reason:'[email] smtp_url is not set'}` without a relay. */
  sendEmail(to: string, subject: string, body: string): Promise<MailOutcome>;
  /** Every incoming text, from a modem or a trunk, is handed to each listener (and logged). */
  onText(listener: (text: IncomingText) => void): void;
  /** Entry point for texts that arrive elsewhere (the trunks' SIP MESSAGE). */
  receive(text: IncomingText): void;
  status(): SecondPathStatus;
}

export interface SecondPathDeps {
  log: Logger;
  /** SIP MESSAGE through the trunks (`[sms] via = "sip"`); absent: no trunk configured. */
  sipText?: (number: string, text: string) => Promise<{ ok: true; trunk: string; failures: string[] } | { ok: false; reason: string; failures: string[] }>;
}

export function createSecondPath(config: Pick<Config, 'sms' | 'email'>, deps: SecondPathDeps): SecondPath {
  const log = deps.log.child({ component: 'second-path' });
  const listeners: ((t: IncomingText) => void)[] = [];
  const { modems: modemConfigs, ...timings } = config.sms;
  const receive = (t: IncomingText) => {
    metrics.textsReceived.inc({ path: t.path });
    // The sender's number is who the text claims to be from: logged, as every text in is (issue 48 §5).
    log.info({ path: t.path, via: t.via, from: t.from, length: t.body.length, truncated: t.truncated }, 'text received');
    for (const l of listeners) {
      try {
        l(t);
      } catch (e) {
        log.error({ error: e instanceof Error ? e.message : String(e) }, 'a text listener failed');
      }
    }
  };
  const modems: Modem[] = modemConfigs.map((m) =>
    createModem(m, timings, { log, onText: (t) => receive({ path: 'modem', via: t.modem, from: t.from, body: t.body, truncated: t.truncated }) }),
  );
  const mailer = createMailer(config.email, log);

  const viaModem = async (number: string, text: string): Promise<TextResult> => {
    if (modems.length === 0) return { ok: false, path: 'modem', reason: 'no [[sms.modems]] configured', failures: [] };
    const ready = modems.find((m) => m.status().state === 'ready');
    const candidates = ready ? [ready, ...modems.filter((m) => m !== ready && m.status().state !== 'failed')] : modems.filter((m) => m.status().state !== 'failed');
    const failures: string[] = [];
    for (const m of candidates) {
      const r = await m.send(number, text);
      if (r.ok) return { ok: true, path: 'modem', via: m.name, parts: r.parts, failures: [...failures, ...r.failures.map((f) => `${m.name}: ${f}`)] };
      failures.push(...r.failures.map((f) => `${m.name}: ${f}`));
      if (r.failures.length === 0) failures.push(`${m.name}: ${r.reason}`);
    }
    const reason = failures.at(-1) ?? `every modem failed: ${modems.map((m) => `${m.name} ${m.status().state}${m.status().lastError ? ` (${m.status().lastError})` : ''}`).join(', ')}`;
    return { ok: false, path: 'modem', reason, failures };
  };

  const viaSip = async (number: string, text: string): Promise<TextResult> => {
    if (!deps.sipText) return { ok: false, path: 'sip', reason: 'no SIP trunk configured', failures: [] };
    const r = await deps.sipText(number, text);
    return r.ok ? { ok: true, path: 'sip', via: r.trunk, parts: 1, failures: r.failures } : { ok: false, path: 'sip', reason: r.reason, failures: r.failures };
  };

  const start = () => {
    for (const m of modems) m.start();
  };
  const stop = async () => {
    await Promise.all(modems.map((m) => m.stop()));
  };
  return {
    loop: {
      name: 'sms-modems',
      everyMs: config.sms.status_interval_s * 1000,
      waitFirst: true,
      tick: () => Promise.all(modems.map((m) => m.refresh())),
      begin: async () => start(),
      end: stop,
    },
    start,
    stop,
    async sendText(number, text) {
      const path = config.sms.via;
      const r = path === 'sip' ? await viaSip(number, text) : await viaModem(number, text);
      if (r.ok) metrics.textsSent.inc({ path });
      else {
        metrics.textsFailed.inc({ path });
        log.warn({ path, reason: r.reason, failures: r.failures }, 'text not sent');
      }
      return r;
    },
    async sendEmail(to, subject, body) {
      if (!mailer) return { ok: false, reason: '[email] smtp_url is not set' };
      const r = await mailer.send({ to, subject, text: body });
      metrics.emails.inc({ result: r.ok ? 'sent' : 'failed' });
      return r;
    },
    onText: (l) => void listeners.push(l),
    receive,
    status() {
      const list = modems.map((m) => m.status());
      const up = list.some((m) => m.state === 'ready' && m.registration?.registered === true);
      return { via: config.sms.via, state: list.length === 0 ? 'none' : up ? 'up' : 'down', modems: list, email: mailer ? 'configured' : 'none' };
    },
  };
}
