import type { Counter } from 'prom-client';
import { instrumentRegistry, promClient } from '../metrics';

/** The voice desk's counters on /metrics (docs/telephony.md "Voice desk"); one set per process. */
export interface DeskCounters {
  calls: Counter<'result'>;
  refused: Counter<'reason' | 'trunk'>;
  wrongPins: Counter<'trunk'>;
  lockouts: Counter<'trunk'>;
  bargeIns: Counter;
  keys: Counter<'key'>;
  transfers: Counter<'result'>;
}

let made: DeskCounters | null = null;

export function deskCounters(): DeskCounters {
  if (made) return made;
  const { Counter } = promClient();
  const registers = [instrumentRegistry()];
  made = {
    calls: new Counter({ name: 'voice_alert_desk_calls_total', help: 'Voice desk calls answered', labelNames: ['result'] as const, registers }),
    refused: new Counter({
      name: 'voice_alert_desk_refused_total',
      help: 'INVITEs to the voice desk refused with 403, by reason (not_trunk, locked)',
      labelNames: ['reason', 'trunk'] as const,
      registers,
    }),
    wrongPins: new Counter({ name: 'voice_alert_desk_wrong_pins_total', help: 'Wrong PINs entered at the voice desk, by trunk', labelNames: ['trunk'] as const, registers }),
    lockouts: new Counter({ name: 'voice_alert_desk_lockouts_total', help: 'Times the voice desk locked for a trunk after too many wrong PINs', labelNames: ['trunk'] as const, registers }),
    bargeIns: new Counter({ name: 'voice_alert_desk_barge_ins_total', help: 'Voice desk prompts cut short by a key', registers }),
    keys: new Counter({ name: 'voice_alert_desk_menu_keys_total', help: 'Keys pressed in the voice desk menu', labelNames: ['key'] as const, registers }),
    transfers: new Counter({ name: 'voice_alert_desk_transfers_total', help: 'Voice desk transfers to the on-call, by result', labelNames: ['result'] as const, registers }),
  };
  return made;
}
