import type { Logger } from '../../log';

/**
 * RFC 4028 session timers, the side that matters for an appliance that only calls out: a
 * PBX that makes us the refresher (Asterisk answers `Session-Expires: 90;refresher=uac`)
 * hangs up when no refresh comes before the interval runs out, cutting the message.
 *
 *   negotiated(interval, us)  the 200 to our INVITE or refresh, or a PBX refresh we answered
 *     refresher is us ──> refresh a third of the way in: a re-INVITE repeating our last SDP,
 *                         o= version unchanged (RFC 4028 §7.4, RFC 3264 §8), with
 *                         `Session-Expires: N;refresher=uac` and our `Min-SE`
 *       2xx      ──> negotiated again from its Session-Expires (none: no timer any more, §7.2)
 *       422      ──> Min-SE raised to the 422's, Session-Expires with it, sent again at once (§7.4)
 *       491      ──> glare with the PBX's own re-INVITE: again after 2.1–4 s (RFC 3261 §14.1)
 *       408, 481 ──> the session is gone: lost() (RFC 4028 §10)
 *       other    ──> the session stays as it was (RFC 3261 §14.1): again at the next third
 *     refresher is the PBX ──> nothing to do; it refreshes (and we answer its UPDATE/re-INVITE)
 *
 * A third, not a half: that leaves a lost request its retransmissions (Timer B, 64·T1) and a
 * 422 or 491 its second try before the PBX's interval ends.
 */
export interface SessionInterval {
  seconds: number;
  /** Who refreshes, as the transaction that carried it names them (RFC 4028 §4). */
  refresher: 'uac' | 'uas' | null;
}

export interface RefreshResponse {
  status: number;
  sessionExpires?: string;
  minSe?: string;
}

export interface SessionTimerOptions {
  /** Our Min-SE (sip.min_se_s), raised by a 422. */
  minSeS: number;
  /** Sends one refresh with these extra headers; resolves with the final response. */
  refresh(headers: string[]): Promise<RefreshResponse>;
  /** The PBX no longer knows the session (408/481 to a refresh): hang up. */
  lost(why: string): void;
  log: Logger;
}

export interface SessionTimer {
  /**
   * A Session-Expires was agreed. `us` is our role in the transaction that carried it:
   * 'uac' for the 200 to our INVITE or refresh, 'uas' for a PBX refresh we answered.
   */
  negotiated(interval: SessionInterval | null, us: 'uac' | 'uas'): void;
  stop(): void;
}

/** `90;refresher=uac` → { seconds: 90, refresher: 'uac' }; null when absent or malformed. */
export function parseSessionExpires(value: string | undefined): SessionInterval | null {
  const m = /^\s*(\d+)\s*(;.*)?$/.exec(value ?? '');
  if (!m) return null;
  const refresher = /;\s*refresher\s*=\s*(uac|uas)\b/i.exec(m[2] ?? '')?.[1]?.toLowerCase();
  return { seconds: Number(m[1]), refresher: (refresher as 'uac' | 'uas' | undefined) ?? null };
}

/** `Min-SE: 120` (parameters allowed, §5) → 120; null when absent or malformed. */
export function parseMinSe(value: string | undefined): number | null {
  const m = /^\s*(\d+)/.exec(value ?? '');
  return m ? Number(m[1]) : null;
}

export function createSessionTimer(o: SessionTimerOptions): SessionTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let minSe = o.minSeS;

  const later = (ms: number, seconds: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void refresh(seconds), ms);
  };

  async function refresh(seconds: number): Promise<void> {
    if (stopped) return;
    // Min-SE never above the interval we ask for: a PBX that agreed to less than our
    // sip.min_se_s is taken at its word rather than argued with.
    const headers = [`Session-Expires: ${seconds};refresher=uac`, `Min-SE: ${Math.min(minSe, seconds)}`];
    let r: RefreshResponse;
    try {
      r = await o.refresh(headers);
    } catch (e) {
      // sip.js refuses while another re-INVITE is open (ours or the PBX's): like a 491.
      r = { status: 491 };
      o.log.debug({ err: e }, 'session refresh not sent now');
    }
    if (stopped) return;
    o.log.debug({ status: r.status, seconds }, 'session refresh');
    if (r.status >= 200 && r.status < 300) return timerApi.negotiated(parseSessionExpires(r.sessionExpires), 'uac');
    if (r.status === 422) {
      minSe = Math.max(minSe, parseMinSe(r.minSe) ?? minSe);
      return void refresh(Math.max(seconds, minSe));
    }
    if (r.status === 491) return later(2100 + Math.random() * 1900, seconds);
    if (r.status === 408 || r.status === 481) return o.lost(`session refresh answered ${r.status}`);
    o.log.warn({ status: r.status }, 'session refresh refused; the session goes on, trying again');
    later((seconds * 1000) / 3, seconds);
  }

  const timerApi: SessionTimer = {
    negotiated(interval, us) {
      clearTimeout(timer);
      if (!interval || stopped) return;
      // RFC 4028 §7.2/§9: the transaction's UAC refreshes unless the response names the UAS.
      const weRefresh = (interval.refresher ?? 'uac') === us;
      o.log.debug({ seconds: interval.seconds, weRefresh }, 'session timer');
      if (weRefresh) later((interval.seconds * 1000) / 3, interval.seconds);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
  return timerApi;
}
