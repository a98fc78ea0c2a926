import type { Config } from '../config';
import { describeError, type Logger } from '../log';
import { AtClosedError, AtTimeoutError, createAtChannel, type AtAnswer, type AtChannel } from './at-channel';
import { parseCmgr, parseCmti, parseCpin, parseCreg, parseCsq, type Registration } from './at-answers';
import { createModemSession, type ModemState } from './modem-states';
import { openSerial, type SerialPort } from './serial-port';
import { splitText, toUcs2Hex, fromUcs2Hex, type TextCoding } from './text-coding';

/** What /healthz, /metrics and doctor show of one modem (docs/second-path.md "GSM modems"). */
export interface ModemStatus {
  name: string;
  device: string;
  state: ModemState;
  /** `ready`, `SIM PIN`, `SIM PUK`, `not inserted` … as the modem said (TS 27.007 §8.3); null before it was asked. */
  sim: string | null;
  registration: Registration | null;
  /** `+CSQ` rssi 0–31 (99: unknown) and its dBm (TS 27.007 §8.5: −113 + 2·rssi). */
  signal: { rssi: number; dbm: number | null } | null;
  /** The last thing that went wrong, in the modem's words where it gave some. */
  lastError: string | null;
}

export interface InboundText {
  modem: string;
  /** The sender as the network gave it, e.g. +905321234567. */
  from: string;
  body: string;
  /** True when the body was longer than MAX_INBOUND and cut. */
  truncated: boolean;
}

/** How one text went: the parts the modem accepted and, on failure, every attempt's words. */
export type SendOutcome =
  | { ok: true; modem: string; parts: number; references: number[]; failures: string[] }
  | { ok: false; modem: string; reason: string; failures: string[] };

export interface Modem {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
  status(): ModemStatus;
  /**
   * Reads SIM, registration and signal again when the line is ready (the second path's engine
   * loop calls it every sms.status_interval_s); a modem that does not answer is dropped and
   * opened again. Never rejects.
   */
  refresh(): Promise<void>;
  /**
   * Sends `text` to `number` (split in parts when long). A failed attempt (`+CMS ERROR`, a lost
   * device, a timeout) is tried again within sms.retry_window_s, at most MAX_RETRIES times;
   * parts the modem already took are not sent twice. Never rejects: the outcome says.
   */
  send(number: string, text: string): Promise<SendOutcome>;
}

export interface ModemDeps {
  log: Logger;
  onText(text: InboundText): void;
  /** Every state change, for metrics. */
  onStatus?(status: ModemStatus): void;
}

/** docs/second-path.md "GSM modems": a failed text is retried at most 3 times (4 attempts in all). */
export const MAX_RETRIES = 3;
/** Longest reply handed on: ten parts' worth (nobody answers an alert in an essay). */
export const MAX_INBOUND = 1600;

export function createModem(modem: Config['sms']['modems'][number], sms: Omit<Config['sms'], 'modems'>, deps: ModemDeps): Modem {
  const log = deps.log.child({ modem: modem.name });
  const status: ModemStatus = { name: modem.name, device: modem.device, state: 'closed', sim: null, registration: null, signal: null, lastError: null };
  const readyWaiters = new Set<() => void>();
  const session = createModemSession(log, (_from, to) => {
    status.state = to;
    if (to === 'ready' || to === 'failed' || to === 'stopped') for (const w of [...readyWaiters]) w();
    deps.onStatus?.({ ...status });
  });
  let port: SerialPort | null = null;
  let at: AtChannel | null = null;
  /** The TE character set in force on the current line (`+CSCS`), so it is set only when it changes. */
  let charset: 'IRA' | 'UCS2' | null = null;
  let parameters: TextCoding | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | null = null;
  /** Texts announced by `+CMTI`, read one after another. */
  let inbound: Promise<void> = Promise.resolve();

  const fail = (why: string) => {
    status.lastError = why;
  };

  /** The line is gone (`lost`, `open_failed`) or dumb (`no_answer`): drop it and open it again later. */
  const lose = (why: string, event: 'lost' | 'open_failed' | 'no_answer' = 'lost') => {
    fail(why);
    if (!session.on(event, why)) return;
    teardown(why);
    reopenTimer = setTimeout(() => {
      reopenTimer = null;
      if (session.on('reopen', 'reopen timer')) void open();
    }, sms.reopen_s * 1000);
  };

  const teardown = (why: string) => {
    at?.close(why);
    at = null;
    const p = port;
    port = null;
    void p?.close(why);
  };

  /** A command on the current line; a timeout means the modem is not answering: the line is dropped and opened again. */
  const command = async (cmd: string, options: { answerPrefix?: string; timeoutS?: number } = {}): Promise<AtAnswer> => {
    const line = at;
    if (!line) throw new AtClosedError('no line');
    try {
      return await line.run(cmd, options);
    } catch (e) {
      if (e instanceof AtTimeoutError && line === at) {
        lose(e.message, 'no_answer');
      }
      throw e;
    }
  };

  const open = async () => {
    let opened: SerialPort;
    const line = createAtChannel({
      write: (b) => (port === opened ? opened.write(b) : Promise.reject(new AtClosedError('port closed'))),
      onUnsolicited: (l) => onUnsolicited(l),
      onStray: (l) => log.debug({ line: printable(l) }, 'modem said something unasked'),
      defaultTimeoutS: sms.at_timeout_s,
    });
    try {
      opened = await openSerial({ device: modem.device, baud: modem.baud, onData: (c) => line.feed(c) });
    } catch (e) {
      fail(describeError(e).replace(/^\w*Error: /, ''));
      lose(status.lastError!, 'open_failed');
      return;
    }
    if (session.state !== 'opening') {
      void opened.close('stopped');
      return;
    }
    port = opened;
    at = line;
    charset = null;
    parameters = null;
    void opened.lost.then((why) => {
      if (port === opened) lose(why);
    });
    session.on('opened', modem.device);
    try {
      await handshake();
    } catch (e) {
      if (!(e instanceof AtTimeoutError) && !(e instanceof AtClosedError)) log.warn({ error: describeError(e) }, 'modem setup failed');
    }
  };

  const handshake = async () => {
    // ATE0: our own commands are not echoed back (the channel drops an echo anyway, V.250 §6.2.4).
    const hello = await command('AT');
    if (!hello.final.ok) throw new Error(`AT answered ${hello.final.error}`);
    session.on('answered', 'AT OK');
    await command('ATE0');
    // +CMEE=1: errors as numbers (+CME ERROR: 16) rather than a bare ERROR (TS 27.007 §9.1).
    await command('AT+CMEE=1');
    let sim = parseCpin((await command('AT+CPIN?', { answerPrefix: '+CPIN:' })).lines);
    status.sim = sim;
    if (sim === 'SIM PIN' && modem.pin) {
      const entered = await command(`AT+CPIN="${modem.pin}"`);
      if (!entered.final.ok) return refuse(`the SIM refused the PIN: ${entered.final.error}`);
      sim = parseCpin((await command('AT+CPIN?', { answerPrefix: '+CPIN:' })).lines);
      status.sim = sim;
    }
    if (sim !== 'READY') return refuse(sim === 'SIM PIN' ? 'the SIM asks for a PIN and sms.modems.pin is not set' : `the SIM is not ready: ${sim ?? 'no +CPIN answer'}`);
    session.on('sim_ready', 'SIM ready');
    const steps = [
      'AT+CMGF=1', // text mode (TS 27.005 §3.2.3)
      'AT+CNMI=2,1,0,0,0', // store new texts and say +CMTI (TS 27.005 §3.4.1)
    ];
    for (const s of steps) {
      const a = await command(s);
      if (!a.final.ok) throw new Error(`${s} answered ${a.final.error}`);
    }
    // Texts that arrived while nobody listened (the appliance stopped, the modem unplugged) are
    // read now like new ones (TS 27.005 §3.4.2); the listing is asked in IRA so `"ALL"` is plain.
    await useCharset('IRA');
    const stored = await command('AT+CMGL="ALL"', { answerPrefix: '+CMGL:' });
    for (const l of stored.lines) {
      const index = /^\+CMGL: ?(\d+),/.exec(l)?.[1];
      if (index !== undefined) queueRead(Number(index));
    }
    await readStatus();
    session.on('configured', 'text mode');
    status.lastError = null;
  };

  const refuse = (why: string) => {
    fail(why);
    log.error({ sim: status.sim, why }, 'modem SIM refused: not trying again until restart');
    if (session.on('sim_refused', why)) teardown(why);
  };

  const readStatus = async () => {
    const sim = parseCpin((await command('AT+CPIN?', { answerPrefix: '+CPIN:' })).lines);
    status.sim = sim;
    if (sim !== 'READY' && session.state === 'ready') return refuse(`the SIM is not ready: ${sim ?? 'no +CPIN answer'}`);
    status.registration = parseCreg((await command('AT+CREG?', { answerPrefix: '+CREG:' })).lines);
    status.signal = parseCsq((await command('AT+CSQ', { answerPrefix: '+CSQ:' })).lines);
    deps.onStatus?.({ ...status });
  };

  const useCharset = async (set: 'IRA' | 'UCS2') => {
    if (charset === set) return;
    const a = await command(`AT+CSCS="${set}"`);
    if (!a.final.ok) throw new Error(`AT+CSCS="${set}" answered ${a.final.error}`);
    charset = set;
  };

  const onUnsolicited = (line: string) => {
    const index = parseCmti(line);
    if (index === null) return void log.debug({ line: printable(line) }, 'modem event ignored');
    queueRead(index);
  };

  const queueRead = (index: number) => {
    inbound = inbound.then(() => readText(index)).catch((e) => log.warn({ error: describeError(e), index }, 'could not read an incoming text'));
  };

  const readText = async (index: number) => {
    // UCS-2 for reading: any text, whatever its coding, comes as hex with nothing to escape.
    await useCharset('UCS2');
    const a = await command(`AT+CMGR=${index}`, { answerPrefix: '+CMGR:' });
    if (!a.final.ok) throw new Error(`AT+CMGR=${index} answered ${a.final.error}`);
    const text = parseCmgr(a.lines, fromUcs2Hex);
    // Deleted once read (TS 27.005 §3.5.4): a full SIM stops taking texts.
    await command(`AT+CMGD=${index}`);
    if (!text) return void log.warn({ index }, 'incoming text without a sender or body');
    const truncated = text.body.length > MAX_INBOUND;
    deps.onText({ modem: modem.name, from: text.from, body: truncated ? text.body.slice(0, MAX_INBOUND) : text.body, truncated });
  };

  const whenReady = (deadline: number) =>
    new Promise<void>((resolve, reject) => {
      if (session.state === 'ready') return resolve();
      const done = () => {
        clearTimeout(timer);
        readyWaiters.delete(done);
        if (session.state === 'ready') resolve();
        else reject(new Error(`modem ${modem.name} is ${session.state}${status.lastError ? `: ${status.lastError}` : ''}`));
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      readyWaiters.add(done);
    });

  /** One part on the line now; throws the modem's words on refusal. */
  const sendPart = async (number: string, part: string, coding: TextCoding): Promise<number> => {
    if (coding === 'ucs2') await useCharset('UCS2');
    else await useCharset('IRA');
    if (parameters !== coding) {
      // First octet 17 (SMS-SUBMIT, relative validity), validity 167 (24 h), PID 0, DCS 0 or 8 (UCS-2): TS 27.005 §3.3.2, TS 23.038 §4.
      const a = await command(`AT+CSMP=17,167,0,${coding === 'ucs2' ? 8 : 0}`);
      if (!a.final.ok) throw new Error(`AT+CSMP answered ${a.final.error}`);
      parameters = coding;
    }
    const line = at;
    if (!line) throw new AtClosedError('no line');
    const to = coding === 'ucs2' ? toUcs2Hex(number) : number;
    const body = coding === 'ucs2' ? toUcs2Hex(part) : part;
    const a = await line.runWithText(`AT+CMGS="${to}"`, body, { timeoutS: sms.send_timeout_s, promptTimeoutS: sms.at_timeout_s });
    if (!a.final.ok) throw new Error(a.final.error);
    const mr = a.lines.map((l) => /^\+CMGS: ?(\d+)/.exec(l)).find((m) => m);
    return mr ? Number(mr[1]) : -1;
  };

  return {
    name: modem.name,
    start() {
      if (session.on('start', 'start')) void open();
    },
    async stop() {
      if (reopenTimer) clearTimeout(reopenTimer);
      reopenTimer = null;
      session.on('stop', 'stop');
      teardown('stopped');
    },
    refresh: async () => {
      if (session.state === 'ready') await readStatus().catch(() => {});
    },
    status: () => ({ ...status, registration: status.registration && { ...status.registration }, signal: status.signal && { ...status.signal } }),
    async send(number, text) {
      const { coding, parts } = splitText(text);
      const references: number[] = [];
      const failures: string[] = [];
      const deadline = Date.now() + sms.retry_window_s * 1000;
      for (let attempt = 1; attempt <= 1 + MAX_RETRIES; attempt++) {
        try {
          await whenReady(deadline);
          while (references.length < parts.length) references.push(await sendPart(number, parts[references.length]!, coding));
          log.info({ parts: parts.length, coding, attempts: attempt }, 'text sent');
          return { ok: true, modem: modem.name, parts: parts.length, references, failures };
        } catch (e) {
          const words = e instanceof Error ? e.message : String(e);
          failures.push(words);
          fail(words);
          log.warn({ attempt, part: references.length + 1, parts: parts.length, error: words }, 'text not taken');
          if (session.state === 'failed' || session.state === 'stopped' || Date.now() >= deadline) break;
          // A short pause: a busy network (+CMS ERROR 500, 331, 332) often clears in a second or two.
          await Bun.sleep(Math.min(1000, Math.max(0, deadline - Date.now())));
        }
      }
      return { ok: false, modem: modem.name, reason: failures[failures.length - 1] ?? 'not sent', failures };
    },
  };
}

/** A modem line for a log field: control and non-ASCII bytes shown as \xNN, at most 200 characters. */
function printable(line: string): string {
  return line.slice(0, 200).replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
