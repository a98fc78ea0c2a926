"""A LAN relay that wants a login, on Debian's aiosmtpd (1.4): python3 auth_relay.py PORT CERT KEY USER PASSWORD MECHANISMS DIR.

aiosmtpd's command line has no switch for AUTH, so this runs its SMTP class itself: STARTTLS
offered and required before MAIL (RFC 3207), AUTH offered only once TLS is up and required
before MAIL (RFC 4954 section 4), with the mechanisms named (comma separated, of PLAIN and
LOGIN, both built into aiosmtpd). Each message it takes goes to DIR as capture_relay.py writes
it, with the login that sent it; each AUTH attempt is appended to DIR/auth.jsonl (mechanism,
login, whether it succeeded), so a test sees which mechanism the client chose.
"""
import asyncio
import json
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

from capture_relay import CaptureRelay


def main():
    port, cert, key, user, password, mechanisms, directory = sys.argv[1:8]
    offered = {m.strip().upper() for m in mechanisms.split(',') if m.strip()}

    def authenticator(server, session, envelope, mechanism, auth_data):
        login = auth_data.login.decode('utf8', errors='replace') if isinstance(auth_data, LoginPassword) else None
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode('utf8') and auth_data.password == password.encode('utf8')
        with open(os.path.join(directory, 'auth.jsonl'), 'a') as f:
            f.write(json.dumps({'mechanism': mechanism, 'login': login, 'success': ok}) + '\n')
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    handler = CaptureRelay(directory)
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(
        loop.create_server(
            lambda: SMTP(
                handler,
                hostname='relay.lan',
                tls_context=context,
                require_starttls=True,
                auth_required=True,
                auth_require_tls=True,
                auth_exclude_mechanism=[m for m in ('PLAIN', 'LOGIN') if m not in offered],
                authenticator=authenticator,
            ),
            host='127.0.0.1',
            port=int(port),
        )
    )
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == '__main__':
    main()
