import { existsSync } from 'node:fs';
import { until } from './until';

/**
 * A GSM modem on a pseudo-terminal, as the appliance sees a USB stick's AT port: `socat` makes
 * the pty (its slave linked at `device`) and hands its master side to this process on stdin /
 * stdout; the modem's behaviour is written here from 3GPP TS 27.007 (AT, +CPIN, +CREG, +CSQ,
 * +CSCS, +CMEE) and TS 27.005 (+CMGF, +CSMP, +CNMI, +CMGS with its `> ` prompt and Ctrl-Z,
 * +CMTI, +CMGR, +CMGD, +CMS ERROR). Echo is on until ATE0, as on real modems (V.250 §6.2.4).
 *
 * `vanish()` ends socat: the pty and its link disappear as an unplugged USB modem's device does;
 * `appear()` makes a new pty at the same link.
 */
export interface GsmModemOptions {
  device: string;
  /** The SIM's PIN; absent: no PIN asked. */
  pin?: string;
  /** `+CREG` stat (1 home, 5 roaming, 2 searching …). */
  creg?: number;
  /** `+CSQ` rssi. */
  rssi?: number;
  /** Never answers anything (a dead modem, or the wrong port of a stick). */
  silent?: boolean;
}

export interface SentText {
  /** The destination as written in AT+CMGS (hex under UCS2). */
  to: string;
  /** Exactly the bytes between the prompt and Ctrl-Z, as latin1. */
  body: string;
  charset: string;
  /** The DCS set by AT+CSMP (0 GSM 7-bit, 8 UCS-2). */
  dcs: number;
}

export interface GsmModem {
  device: string;
  /** Every byte the modem received, in order, as latin1. */
  received(): string;
  /** The commands it received (lines ending in CR, outside text entry). */
  commands(): string[];
  sent: SentText[];
  pinTries: string[];
  creg: number;
  rssi: number;
  /** The next AT+CMGS answers this instead of +CMGS (e.g. `+CMS ERROR: 500`); each call queues one more. */
  failNextSend(error: string): void;
  /** At the next `> ` prompt, vanish (the device unplugged mid-send). */
  vanishAtNextPrompt(): void;
  /** A text arrives: stored at an index and announced with +CMTI (unless `announce` is false: it waits on the SIM). */
  deliver(from: string, body: string, announce?: boolean): number;
  /** Stored texts (not yet deleted by AT+CMGD). */
  stored(): Map<number, { from: string; body: string }>;
  /** Raw bytes onto the line. */
  write(bytes: string | Uint8Array): void;
  vanish(): Promise<void>;
  appear(): Promise<void>;
  stop(): Promise<void>;
}

export async function startGsmModem(options: GsmModemOptions): Promise<GsmModem> {
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  let received = '';
  const commands: string[] = [];
  let line = '';
  let echo = true;
  let charset = 'IRA';
  let dcs = 0;
  let pinNeeded = options.pin !== undefined;
  let entry: { to: string; buf: string } | null = null;
  const failNext: string[] = [];
  let vanishAtPrompt = false;
  const texts = new Map<number, { from: string; body: string }>();
  let nextIndex = 1;

  const out = (s: string) => {
    const p = proc;
    if (!p || options.silent) return;
    (p.stdin as import('bun').FileSink).write(Buffer.from(s, 'latin1'));
    (p.stdin as import('bun').FileSink).flush();
  };
  const inCharset = (s: string) => (charset === 'UCS2' ? [...s].map((c) => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')).join('') : s);
  const ok = () => out('\r\nOK\r\n');

  const onCommand = (cmd: string) => {
    commands.push(cmd);
    if (echo) out(`${cmd}\r`);
    const u = cmd.toUpperCase();
    let m: RegExpExecArray | null;
    if (u === 'AT') return ok();
    if (u === 'ATE0') return (echo = false), ok();
    if (u === 'ATE1') return (echo = true), ok();
    if (u === 'AT+CMEE=1') return ok();
    if (u === 'AT+CPIN?') return out(`\r\n+CPIN: ${pinNeeded ? 'SIM PIN' : 'READY'}\r\n\r\nOK\r\n`);
    if ((m = /^AT\+CPIN="?(\d+)"?$/.exec(cmd))) {
      state.pinTries.push(m[1]!);
      if (m[1] === options.pin) return (pinNeeded = false), ok();
      return out('\r\n+CME ERROR: 16\r\n'); // incorrect password (TS 27.007 §9.2.1)
    }
    if (pinNeeded) return out('\r\n+CME ERROR: 11\r\n'); // SIM PIN required
    if (u === 'AT+CREG?') return out(`\r\n+CREG: 0,${state.creg}\r\n\r\nOK\r\n`);
    if (u === 'AT+CSQ') return out(`\r\n+CSQ: ${state.rssi},99\r\n\r\nOK\r\n`);
    if (u === 'AT+CMGF=1' || /^AT\+CNMI=/.test(u)) return ok();
    if ((m = /^AT\+CSCS="(\w+)"$/.exec(cmd))) return (charset = m[1]!), ok();
    if ((m = /^AT\+CSMP=\d+,\d+,\d+,(\d+)$/.exec(cmd))) return (dcs = Number(m[1])), ok();
    if ((m = /^AT\+CMGS="([^"]*)"$/.exec(cmd))) {
      entry = { to: m[1]!, buf: '' };
      out('\r\n> ');
      if (vanishAtPrompt) {
        vanishAtPrompt = false;
        void state.vanish();
      }
      return;
    }
    if ((m = /^AT\+CMGR=(\d+)$/.exec(cmd))) {
      const t = texts.get(Number(m[1]));
      if (!t) return out('\r\n+CMS ERROR: 321\r\n'); // invalid memory index
      return out(`\r\n+CMGR: "REC UNREAD","${inCharset(t.from)}",,"26/12/02,03:00:00+12"\r\n${inCharset(t.body)}\r\n\r\nOK\r\n`);
    }
    if ((m = /^AT\+CMGD=(\d+)$/.exec(cmd))) return texts.delete(Number(m[1])), ok();
    if (/^AT\+CMGL="ALL"$/.test(cmd)) {
      const listed = [...texts].map(([i, t]) => `\r\n+CMGL: ${i},"REC UNREAD","${inCharset(t.from)}",,"26/12/02,03:00:00+12"\r\n${inCharset(t.body)}`);
      return out(`${listed.join('')}\r\n\r\nOK\r\n`);
    }
    out('\r\nERROR\r\n');
  };

  const onBytes = (s: string) => {
    received += s;
    for (const ch of s) {
      if (entry) {
        if (ch === '\x1a') {
          const e = entry;
          entry = null;
          const f = failNext.shift();
          if (f) {
            out(`\r\n${f}\r\n`);
          } else {
            state.sent.push({ to: e.to, body: e.buf, charset, dcs });
            out(`\r\n+CMGS: ${state.sent.length}\r\n\r\nOK\r\n`);
          }
        } else if (ch === '\x1b') entry = null;
        else entry.buf += ch;
        continue;
      }
      if (ch === '\r') {
        const cmd = line.trim();
        line = '';
        if (cmd) onCommand(cmd);
      } else if (ch !== '\n') line += ch;
    }
  };

  const appear = async () => {
    const p = Bun.spawn(['socat', `pty,raw,echo=0,link=${options.device}`, 'STDIO'], { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore' });
    proc = p;
    line = '';
    entry = null;
    // A modem plugged back in starts afresh: echo on, IRA, its SIM locked again.
    echo = true;
    charset = 'IRA';
    pinNeeded = options.pin !== undefined;
    void (async () => {
      for await (const chunk of p.stdout as ReadableStream<Uint8Array>) onBytes(Buffer.from(chunk).toString('latin1'));
    })().catch(() => {});
    await until(`socat's pty at ${options.device}`, () => existsSync(options.device), 5000, 10);
  };

  const state: GsmModem = {
    device: options.device,
    received: () => received,
    commands: () => [...commands],
    sent: [],
    pinTries: [],
    creg: options.creg ?? 1,
    rssi: options.rssi ?? 20,
    failNextSend: (e) => void failNext.push(e),
    vanishAtNextPrompt: () => void (vanishAtPrompt = true),
    deliver(from, body, announce = true) {
      const i = nextIndex++;
      texts.set(i, { from, body });
      if (announce) out(`\r\n+CMTI: "SM",${i}\r\n`);
      return i;
    },
    stored: () => new Map(texts),
    write(bytes) {
      out(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1'));
    },
    async vanish() {
      const p = proc;
      proc = null;
      if (!p) return;
      p.kill();
      await p.exited;
      await until(`${options.device} gone`, () => !existsSync(options.device), 5000, 10);
    },
    appear,
    stop: () => state.vanish(),
  };
  await appear();
  return state;
}
