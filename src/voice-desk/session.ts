import type { CallAudio } from '../call-model';
import type { VoiceDeskConfig } from '../config/sections/voice-desk';
import type { Logger } from '../log';
import type { InboundCall, SipUri } from '../sip';
import type { AlertRecord } from '../store';
import type { Lockout } from './lockout';
import { createMenuMachine, type MenuMachine } from './menu-states';
import type { DeskCounters } from './metrics';
import { MAX_PIN_LENGTH } from './pin';
import type { DeskService } from './service';
import type { DeskWords } from './words';

export interface DeskCallDeps {
  service: DeskService;
  /** The speech pipeline and cache of outbound calls (tts/index.ts `prompt`). */
  speech: { prompt(sentences: string[]): Promise<CallAudio> };
  words: DeskWords;
  lockout: Lockout;
  config: VoiceDeskConfig;
  counters: DeskCounters;
  log: Logger;
}

/** Ends the dialogue from anywhere inside it: the caller hung up, or we are done. */
class CallOver extends Error {}

/**
 * One desk call, from the greeting to the hang-up (docs/telephony.md "Voice desk"); the states and
 * their edges are menu-states.ts. Resolves when the call is over; the caller of run() sends BYE.
 */
export async function runDeskCall(call: InboundCall, trunk: { trunk: string; transferUri(number: string): SipUri }, d: DeskCallDeps): Promise<void> {
  const log = d.log.child({ callId: call.callId, trunk: trunk.trunk });
  const m = createMenuMachine(log);
  const w = d.words;
  const idleMs = d.config.idle_timeout_s * 1000;
  const limit = setTimeout(() => {
    log.info({ maxCallS: d.config.max_call_s }, 'voice desk call reached voice_desk.max_call_s');
    void call.hangUp('voice_desk.max_call_s');
  }, d.config.max_call_s * 1000);
  d.counters.calls.inc({ result: 'answered' });
  try {
    await dialogue(m);
  } catch (e) {
    if (!(e instanceof CallOver)) throw e;
  } finally {
    clearTimeout(limit);
    if (m.state !== 'ended') {
      // For the operator: the caller hung up, the desk ended it, or the appliance did (a stop).
      const why = call.endReason() ?? 'done';
      m.transition('ended', why);
      log.info({ why }, 'voice desk call ended');
    }
  }

  /** Says the sentences; a key pressed meanwhile cuts it short (barge-in, counted). */
  async function say(sentences: string[]): Promise<void> {
    const r = await call.play(await d.speech.prompt(sentences));
    if (r === 'cut') d.counters.bargeIns.inc();
    if (r === 'gone') throw new CallOver();
  }

  async function key(): Promise<string | null> {
    const k = await call.nextKey(idleMs);
    if (call.gone()) throw new CallOver();
    return k;
  }

  async function end(m: MenuMachine, why: string, sentences: string[]): Promise<void> {
    m.transition('ending', why);
    log.info({ why }, 'voice desk ends the call');
    await say(sentences).catch((e) => {
      if (!(e instanceof CallOver)) throw e;
    });
    throw new CallOver();
  }

  /** Digits up to `#`; `*` starts the entry again. Null when the caller stayed silent. */
  async function readPin(): Promise<string | null> {
    let entry = '';
    for (;;) {
      const k = await key();
      if (k === null) return null;
      if (k === '#') return entry;
      if (k === '*') entry = '';
      // Kept short: a longer entry is wrong anyway and is not hashed at all (pin.ts).
      else if (entry.length <= MAX_PIN_LENGTH) entry += k;
    }
  }

  async function dialogue(m: MenuMachine): Promise<void> {
    await say([w.greeting]);
    m.transition('pin', 'greeted');
    let accountId: string | null = null;
    for (let tries = 1; accountId === null; tries++) {
      const entry = await readPin();
      if (entry === null) return end(m, 'no PIN entered', [w.goodbye]);
      accountId = entry.length > MAX_PIN_LENGTH ? null : await d.service.accountByPin(entry);
      if (accountId !== null) break;
      d.counters.wrongPins.inc({ trunk: trunk.trunk });
      if (d.lockout.wrongPin(trunk.trunk)) {
        d.counters.lockouts.inc({ trunk: trunk.trunk });
        log.warn(
          { lockoutS: d.config.lockout_s, threshold: d.config.lockout_threshold, windowS: d.config.lockout_window_s },
          'voice desk locked for calls from this trunk: too many wrong PINs',
        );
        return end(m, 'locked out', [w.wrongPin, w.goodbye]);
      }
      if (tries >= d.config.pin_tries) return end(m, 'wrong PIN, no tries left', [w.wrongPin, w.goodbye]);
      m.transition('pin', 'wrong PIN');
      await say([w.wrongPin, w.greeting]);
    }
    m.transition('menu', 'right PIN');
    log.info({ accountId }, 'voice desk caller entered the PIN of the account');
    await menu(m, accountId);
  }

  async function menu(m: MenuMachine, accountId: string): Promise<void> {
    let alerts: AlertRecord[] = await d.service.pending(accountId);
    let at = 0;
    await say([w.count(alerts.length)]);
    const current = () => alerts[at];
    const read = async () => {
      const a = current();
      await say(a ? [w.alert(at + 1, alerts.length), a.message, w.keys] : [w.keys]);
    };
    await read();
    for (;;) {
      const k = await key();
      if (k === null) return end(m, 'silence', [w.goodbye]);
      d.counters.keys.inc({ key: menuKeyLabel(k) });
      switch (k) {
        case '1':
        case '3': {
          const a = current();
          if (!a) {
            await say([w.noMore, w.keys]);
            break;
          }
          m.transition('acting', k === '1' ? 'acknowledge' : 'resolve');
          const r = k === '1' ? await d.service.acknowledge(accountId, a.id) : await d.service.resolve(accountId, a.id);
          m.transition('menu', 'done');
          const changed = r.ok && r.changed;
          log.info({ alertId: a.id, action: k === '1' ? 'acknowledge' : 'resolve', changed }, 'voice desk action');
          // The list as it is now (others act too); the next alert takes this one's place.
          alerts = await d.service.pending(accountId);
          at = Math.min(at, Math.max(0, alerts.length - 1));
          await say([changed ? (k === '1' ? w.acknowledged : w.resolved) : w.alreadyClosed]);
          if (alerts.length === 0) await say([w.count(0)]);
          await read();
          break;
        }
        case '2':
          if (at + 1 < alerts.length) {
            at++;
            await read();
          } else await say([w.noMore, w.keys]);
          break;
        case '9':
          await read();
          break;
        case '0':
          await transfer(m, accountId);
          await read();
          break;
        case '*':
          return end(m, 'caller pressed *', [w.goodbye]);
        default:
          await say([w.keys]);
      }
    }
  }

  /** Keypad 0: a blind transfer to whoever is on call first; returns when the caller is back in the menu. */
  async function transfer(m: MenuMachine, accountId: string): Promise<void> {
    const number = await d.service.onCallNumber(accountId);
    if (!number) {
      await say([w.nobodyOnCall]);
      return;
    }
    m.transition('transferring', `to ${number}`);
    await say([w.connecting]);
    const r = await call.transfer(trunk.transferUri(number), d.config.transfer_wait_s * 1000);
    d.counters.transfers.inc({ result: r.ok ? 'connected' : 'failed' });
    if (r.ok) {
      m.transition('ending', 'transferred');
      throw new CallOver();
    }
    if (call.gone()) throw new CallOver();
    log.warn({ number, reason: r.reason }, 'voice desk transfer failed: the caller stays in the menu');
    m.transition('menu', 'transfer failed');
    await say([w.transferFailed]);
  }
}

/** A menu key as a metrics label (a fixed set, never what an unknown source might send). */
const menuKeyLabel = (k: string) => (/^[0-9*#A-D]$/.test(k) ? k : 'other');
