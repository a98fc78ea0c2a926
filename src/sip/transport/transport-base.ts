import { describeError, type Logger } from '../../log';
import { addViaPort, dropContactOb, dropOutboundTag, peek, stripViaPort } from './message-peek';
import { sipOnlyRedirectContacts } from './redirect-contacts';
import { createRetransmitter, type Retransmitter } from './retransmit';
import { EmitterImpl, TransportState, type Transport } from './sip-js';

/** How many unsent Call-IDs' causes are kept for sendFailure(). */
const UNSENT_KEPT = 32;

/** What both transports are built from (passed to sip.js as `transportOptions`). */
export interface SipTransportOptions {
  server: { host: string; port: number };
  localAddress: string;
  /** 0: the OS picks. */
  localPort: number;
  t1Ms: number;
  t2Ms: number;
  /** TLS only (tls-transport.ts): `caFile` empty: the system's CAs; `verify` false: no certificate check. */
  tls?: { caFile: string; verify: boolean };
  log: Logger;
  /** Every message in and out, for tests and benchmarks (e.g. the INVITE's time on the wire). */
  onWire?: (direction: 'in' | 'out', message: string) => void;
}

/**
 * The sip.js Transport contract shared by UDP and TCP: one transport talks to one server
 * (the PBX), state changes are emitted, and retransmission (RFC 3261 §17) happens here,
 * below sip.js, so sip.js sees each response once. A lost network is never hidden:
 * `send` rejects and sip.js turns that into a failed transaction.
 */
export abstract class SipTransportBase implements Transport {
  abstract readonly protocol: string;
  protected readonly opts: SipTransportOptions;
  protected readonly retransmit: Retransmitter;
  private current: TransportState = TransportState.Disconnected;
  /** Why a message of a Call-ID could not be sent, newest last; read once by sendFailure(). */
  private readonly unsent = new Map<string, string>();
  readonly stateChange = new EmitterImpl<TransportState>();
  onConnect: (() => void) | undefined;
  onDisconnect: ((error?: Error) => void) | undefined;
  onMessage: ((message: string) => void) | undefined;

  constructor(_logger: unknown, options: SipTransportOptions) {
    this.opts = options;
    this.retransmit = createRetransmitter({
      t1Ms: options.t1Ms,
      t2Ms: options.t2Ms,
      reliable: this.reliable(),
      resend: (m) => {
        this.write(m).catch((e) => options.log.warn({ error: describeError(e) }, 'sip retransmission failed'));
      },
      timedOut: (response) => this.deliver(response),
    });
  }

  /** The port our Via and Contact name; known once connected. */
  abstract localPort(): number;
  protected abstract reliable(): boolean;
  protected abstract open(): Promise<void>;
  protected abstract shut(): Promise<void>;
  protected abstract write(message: string): Promise<void>;

  get state(): TransportState {
    return this.current;
  }

  protected setState(s: TransportState, error?: Error): void {
    if (s === this.current) return;
    this.current = s;
    this.stateChange.emit(s);
    if (s === TransportState.Connected) this.onConnect?.();
    if (s === TransportState.Disconnected) this.onDisconnect?.(error);
  }

  async connect(): Promise<void> {
    if (this.current === TransportState.Connected) return;
    this.setState(TransportState.Connecting);
    try {
      await this.open();
    } catch (e) {
      this.setState(TransportState.Disconnected, e as Error);
      throw e;
    }
    this.setState(TransportState.Connected);
  }

  async disconnect(): Promise<void> {
    this.setState(TransportState.Disconnecting);
    this.retransmit.close();
    await this.shut();
    this.setState(TransportState.Disconnected);
  }

  async dispose(): Promise<void> {
    await this.disconnect();
  }

  isConnected(): boolean {
    return this.current === TransportState.Connected;
  }

  async send(message: string): Promise<void> {
    const wire = dropOutboundTag(dropContactOb(addViaPort(message, this.localPort())));
    // Known to the retransmitter before it leaves: on loopback the answer can come back
    // before write() resolves, and must find its transaction.
    this.opts.onWire?.('out', wire);
    this.retransmit.sent(wire);
    try {
      await this.write(wire);
    } catch (e) {
      this.retransmit.abandon(wire);
      this.noteUnsent(wire, e as Error);
      throw e;
    }
  }

  /**
   * Why a message of this Call-ID could not be sent (a refused connection, a certificate
   * refused in the TLS handshake …), once. sip.js answers such a request with a bare 503 of
   * its own (RFC 3261 §8.1.3.1) that carries no cause; ua/invite-transaction.ts gives the
   * call this one instead, so the log line and the call's reason say what really failed.
   */
  sendFailure(callId: string): string | undefined {
    const why = this.unsent.get(callId);
    this.unsent.delete(callId);
    return why;
  }

  private noteUnsent(wire: string, e: Error): void {
    const callId = peek(wire)?.callId;
    if (!callId) return;
    this.unsent.delete(callId);
    this.unsent.set(callId, e.message);
    // Only the newest few are ever asked for (right after the failure): a dead PBX cannot grow this.
    if (this.unsent.size > UNSENT_KEPT) this.unsent.delete(this.unsent.keys().next().value!);
  }

  /** Called by the subclass for every whole message from the network. */
  protected receive(message: string): void {
    this.opts.onWire?.('in', message);
    if (!this.retransmit.received(message)) return;
    this.deliver(message);
  }

  private deliver(message: string): void {
    try {
      this.onMessage?.(sipOnlyRedirectContacts(stripViaPort(message)));
    } catch (e) {
      this.opts.log.error({ error: describeError(e) }, 'sip.js failed on an incoming message');
    }
  }
}
