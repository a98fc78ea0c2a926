"""A LAN relay for the tests, on Debian's aiosmtpd (python3 -m aiosmtpd -c capture_relay.CaptureRelay DIR).

Each message it takes is written to DIR as one JSON file (envelope, the data, whether the session
was TLS), so a test reads exactly what arrived. A sender whose address starts with "refused"
gets 550, as a relay that does not know the sender answers (RFC 5321 section 4.2.3).
"""
import json
import os
import time


class CaptureRelay:
    def __init__(self, directory):
        self.directory = directory

    @classmethod
    def from_cli(cls, parser, *args):
        # aiosmtpd's CLI hands a handler its CLASSARGS only through from_cli.
        return cls(args[0])

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if address.lower().startswith('refused'):
            return '550 5.7.1 Sender not allowed to relay here'
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return '250 OK'

    async def handle_DATA(self, server, session, envelope):
        record = {
            'mail_from': envelope.mail_from,
            'rcpt_tos': envelope.rcpt_tos,
            'data': envelope.content.decode('utf8', errors='replace'),
            # STARTTLS sets session.ssl; SMTPS (TLS from the first byte) shows on the transport.
            'tls': session.ssl is not None or server.transport.get_extra_info('ssl_object') is not None,
            # The login the client gave (auth_relay.py); None without AUTH.
            'login': session.login_data.decode('utf8', errors='replace') if isinstance(getattr(session, 'login_data', None), bytes) else None,
        }
        name = os.path.join(self.directory, '%d.json' % time.time_ns())
        with open(name + '.tmp', 'w') as f:
            json.dump(record, f)
        os.rename(name + '.tmp', name)
        return '250 Message accepted for delivery'
