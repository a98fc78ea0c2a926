import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { InboundDesk } from '../sip';
import type { SpeechSource } from '../tts';
import { createLockout } from './lockout';
import { deskCounters } from './metrics';
import type { DeskService } from './service';
import { runDeskCall } from './session';
import { DESK_WORDS } from './words';

/**
 * The voice desk (docs/telephony.md "Voice desk"): engineers call the appliance on an extension the
 * PBX routes to it, enter their account's PIN, and hear, acknowledge and resolve its alerts or
 * reach the on-call. The SIP side (src/sip/ua/inbound.ts, answer-call.ts) answers; this
 * folder decides: who may call (a trunk's address, not locked out), the PIN, the menu.
 */
export { createDeskService, DESK_ACTOR, type DeskService, type DeskPinResult, type DeskPolicyResult } from './service';
export { createMenuMachine, MENU_EDGES, MENU_STATES, type MenuState } from './menu-states';
export { createLockout, type Lockout } from './lockout';

export interface VoiceDeskDeps {
  clock: Clock;
  log: Logger;
  speech: SpeechSource;
  /** The registry's desk service (src/services.ts). */
  service: DeskService;
}

/** The desk as the trunks see it; null when `[voice_desk] enabled` is false. */
export function createVoiceDesk(config: Config, deps: VoiceDeskDeps): InboundDesk | null {
  const c = config.voice_desk;
  if (!c.enabled) {
    // Voicemails still name it (src/tts forVoicemail): say so where the operator looks.
    if (c.number) deps.log.warn({ number: c.number }, 'voice_desk.number is set but the voice desk is off: voicemails name a number the appliance refuses');
    return null;
  }
  const log = deps.log.child({ component: 'voice-desk' });
  const counters = deskCounters();
  const lockout = createLockout({ threshold: c.lockout_threshold, windowMs: c.lockout_window_s * 1000, lockMs: c.lockout_s * 1000, clock: deps.clock });
  const words = DESK_WORDS[deps.speech.language];
  return {
    admit(offer) {
      if (!offer.fromTrunk) {
        counters.refused.inc({ reason: 'not_trunk', trunk: offer.trunk });
        log.warn({ callId: offer.callId, source: offer.source, trunk: offer.trunk }, 'voice desk refused an INVITE that did not come from the trunk (403)');
        return 'refuse';
      }
      const until = lockout.lockedUntil(offer.trunk);
      if (until !== null) {
        counters.refused.inc({ reason: 'locked', trunk: offer.trunk });
        log.warn({ callId: offer.callId, trunk: offer.trunk, lockedUntil: new Date(until).toISOString() }, 'voice desk is locked for this trunk (403)');
        return 'refuse';
      }
      return 'take';
    },
    run: (call, trunk) => runDeskCall(call, trunk, { service: deps.service, speech: deps.speech, words, lockout, config: c, counters, log }),
  };
}
