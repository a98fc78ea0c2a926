import { Registerer, RegistererState, type UserAgent } from 'sip.js';
import type { Logger } from '../../log';
import { until } from '../../until';

const BACKOFF_S = [1, 2, 5, 10, 30, 60];

/**
 * `sip.register = true`: REGISTER (401 digest handled by sip.js), refreshed by sip.js before
 * expiry, and registered again with backoff after any failure or lapse, until stopped.
 */
export interface Registration {
  /** Resolves after the first attempt, registered or not (calls are tried anyway). */
  start(): Promise<void>;
  isRegistered(): boolean;
  stop(): Promise<void>;
}

export function createRegistration(ua: UserAgent, expiresS: number, log: Logger): Registration {
  const registerer = new Registerer(ua, { expires: expiresS });
  let stopping = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const attempt = (): Promise<void> =>
    new Promise<void>((resolve) => {
      registerer
        .register({
          requestDelegate: {
            onAccept: () => {
              failures = 0;
              log.info({ expiresS }, 'sip registered');
              resolve();
            },
            onReject: (r) => {
              log.warn({ code: r.message.statusCode, reason: r.message.reasonPhrase }, 'sip registration refused');
              schedule();
              resolve();
            },
          },
        })
        .catch((e) => {
          log.warn({ err: e }, 'sip registration could not be sent');
          schedule();
          resolve();
        });
    });

  const schedule = () => {
    if (stopping || retry) return;
    const delay = BACKOFF_S[Math.min(failures++, BACKOFF_S.length - 1)]!;
    log.info({ delayS: delay }, 'sip registration retry scheduled');
    retry = setTimeout(() => {
      retry = null;
      void attempt();
    }, delay * 1000);
  };

  // A refresh that fails or a registration that lapses ends in Unregistered: start over.
  registerer.stateChange.addListener((s) => {
    if (s === RegistererState.Unregistered && !stopping) schedule();
  });

  return {
    start: attempt,
    isRegistered: () => registerer.state === RegistererState.Registered,
    async stop() {
      stopping = true;
      if (retry) clearTimeout(retry);
      if (registerer.state === RegistererState.Registered) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 2000);
          registerer
            .unregister({ requestDelegate: { onAccept: () => resolve(), onReject: () => resolve() } })
            .catch(() => resolve());
          void t;
        });
      }
      // dispose() can wait on a transaction the PBX never answers; stopping must not hang.
      await until(registerer.dispose().catch(() => undefined), 2000);
    },
  };
}
