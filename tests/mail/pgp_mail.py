#!/usr/bin/env python3
"""tests/mail/pgp_mail.py GNUPGHOME FROM TO MESSAGE-ID BODYFILE - an
OpenPGP/MIME (RFC 3156) signed text/plain mail, as a mail client with
GnuPG makes it, on standard output.  The signed part is written with CRLF
line ends, exactly as it was signed."""
import os
import quopri
import subprocess
import sys

home, frm, to, mid, bodyfile = sys.argv[1:6]
body = open(bodyfile, 'rb').read()
qp = quopri.encodestring(body).replace(b'\r\n', b'\n').replace(b'\n', b'\r\n')
inner = (b'Content-Type: text/plain; charset="utf-8"\r\n'
         b'Content-Transfer-Encoding: quoted-printable\r\n\r\n' + qp)
sig = subprocess.run(['gpg', '--homedir', home, '--batch', '--yes', '--armor', '--detach-sign',
                      '--digest-algo', 'SHA256'], input=inner, check=True,
                     stdout=subprocess.PIPE).stdout.replace(b'\r\n', b'\n').replace(b'\n', b'\r\n')
b = b'orderly-test-boundary-42'
out = (('From: %s\r\nTo: %s\r\nSubject: signed orders\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\n'
        'Content-Type: multipart/signed; micalg=pgp-sha256;\r\n'
        ' protocol="application/pgp-signature"; boundary="%s"\r\n\r\n'
        % (frm, to, mid, b.decode())).encode()
       + b'--' + b + b'\r\n' + inner + b'\r\n--' + b + b'\r\n'
       + b'Content-Type: application/pgp-signature; name="signature.asc"\r\n\r\n' + sig
       + b'\r\n--' + b + b'--\r\n')
sys.stdout.buffer.write(out)
