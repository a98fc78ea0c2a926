/**
 * Texts through the appliance's own GSM modem (docs/second-path.md "GSM modems"): the serial port
 * (serial-port.ts), the AT line (at-channel.ts, at-answers.ts), one modem's session as a state
 * machine (modem-states.ts) driven by modem.ts, and how a text is coded and split
 * (text-coding.ts). Texts through the PBX are SIP MESSAGE in sip/ (ua/text-message.ts).
 */
export { createModem, MAX_RETRIES, MAX_INBOUND, type InboundText, type Modem, type ModemStatus, type SendOutcome } from './modem';
export { MODEM_STATES, type ModemState } from './modem-states';
export { splitText, codingOf, type TextCoding } from './text-coding';
