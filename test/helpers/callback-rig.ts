import type { ApplianceDir, RunningAppliance } from './appliance';
import { startCallbackReceiver } from './callback-receiver';
import { freePort } from './ports';
import type { SippPeer } from './sipp';

/**
 * Appliances that dial sipp and report to local callback receivers (docs/on-call.md
 * "Callbacks"), which check every signature and misbehave on purpose; for the callback and
 * escalation suites. Everything kept is stopped by `stopAll` (appliances first, then peers,
 * then receivers); an appliance stopped or killed before is fine.
 */
export function callbackRig() {
  let running: RunningAppliance[] = [];
  let peers: SippPeer[] = [];
  let receivers: { stop(): unknown }[] = [];
  return {
    async stopAll(): Promise<void> {
      for (const r of running) await r.stop();
      for (const p of peers) await p.stop();
      for (const r of receivers) r.stop();
      running = [];
      peers = [];
      receivers = [];
    },
    keepPeer<P extends SippPeer>(peer: P): P {
      peers.push(peer);
      return peer;
    },
    /** Starts the appliance of `dir`, stopped by stopAll (stopping it earlier is fine too). */
    async start(dir: ApplianceDir): Promise<RunningAppliance> {
      const app = await dir.start();
      running.push(app);
      return app;
    },
    /** A receiver (callback-receiver.ts): `mode` as there, every request answered 200 without it. */
    receiver(secret: () => string, mode?: (n: number) => number | 'hang') {
      const r = startCallbackReceiver(secret, mode);
      receivers.push(r);
      return r;
    },
    /** Short timers, calls to sipp at `sippPort`, a fast voice. */
    async sipConfig(sippPort: number) {
      const rtp = await freePort();
      return {
        sip: { server: `127.0.0.1:${sippPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
        calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 1, repeat: 1, per_number_gap_s: 0, max_concurrent: 20 },
        tts: { voice: 'en', speed_wpm: 400 },
      };
    },
  };
}
